// A small Vulkan pipeline for the viewport's own lines, drawn after the scene in the window's
// render pass: the Ctrl+drag spring from the grab point to the cursor's target and a cross at
// the target. Lines come from push constants (no buffers), depth test off so they stay visible.
// Shaders: app/gui/shaders/marker_line.{vert,frag}, embedded at build time. No Qt here.
#pragma once

#include <vulkan/vulkan.h>

#include <glm/glm.hpp>

#include "sim/result.hpp"

namespace coulomb::gui {

class MarkerLines {
 public:
  MarkerLines() = default;
  ~MarkerLines();
  MarkerLines(const MarkerLines&) = delete;
  MarkerLines& operator=(const MarkerLines&) = delete;

  sim::Result<bool> init(VkDevice device, VkRenderPass render_pass, VkSampleCountFlagBits samples);
  // Inside the render pass; sets its own viewport and scissor.
  void draw_line(VkCommandBuffer cmd, VkExtent2D extent, const glm::mat4& view_projection, const glm::vec3& a,
                 const glm::vec3& b, const glm::vec4& color) const;
  void release();
  bool ready() const { return pipeline_ != VK_NULL_HANDLE; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace coulomb::gui
