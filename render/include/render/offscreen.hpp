// Rendering without a window: an offscreen target (multisampled colour and depth, resolved into
// a single-sample image that is copied to host memory), the SceneRenderer drawing into it, and
// PNG output. Used by `coulomb render`, the tests and docs/screenshot.png.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "render/frame_input.hpp"
#include "render/render_context.hpp"
#include "render/scene_renderer.hpp"
#include "sim/result.hpp"

namespace render {

// The colour format offscreen frames use: 8-bit sRGB, so the PNG bytes are the image bytes.
inline constexpr VkFormat kOffscreenColorFormat = VK_FORMAT_R8G8B8A8_SRGB;

class OffscreenTarget {
 public:
  // `samples`: MSAA samples per pixel, lowered to what the device supports (4 is always).
  static sim::Result<std::unique_ptr<OffscreenTarget>> create(const RenderContext& context, int width, int height,
                                                              int samples = 4);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  VkRenderPass render_pass() const { return render_pass_; }
  VkSampleCountFlagBits samples() const { return samples_; }
  VkFormat color_format() const { return kOffscreenColorFormat; }
  VkExtent2D extent() const { return extent_; }

  // Begins the render pass, clearing colour to `clear` and depth to 1.
  void begin(VkCommandBuffer cmd, const VkClearColorValue& clear) const;
  // Ends the pass and copies the resolved image into the read-back buffer.
  void end_and_copy(VkCommandBuffer cmd) const;
  // After the submission has completed: the image, rows top to bottom, RGBA8.
  void read_pixels(std::vector<std::uint8_t>& rgba) const;

 private:
  OffscreenTarget() = default;
  struct Resources;
  VkDevice device_ = VK_NULL_HANDLE;
  VkExtent2D extent_{};
  VkSampleCountFlagBits samples_ = VK_SAMPLE_COUNT_1_BIT;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  std::unique_ptr<Resources> resources_;
};

// A SceneRenderer drawing into an OffscreenTarget, one blocking call per frame.
class OffscreenRenderer {
 public:
  static sim::Result<std::unique_ptr<OffscreenRenderer>> create(const RenderContext& context, int width, int height,
                                                                int samples = 4,
                                                                const SceneRendererOptions& options = {});
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  sim::Result<bool> set_model(const sim::Model& model);
  // Updates, records, submits and waits; returns the frame (width * height * 4 bytes, rows top
  // to bottom, sRGB RGBA8), or an error when the submission fails.
  sim::Result<bool> render(const FrameInput& input, std::vector<std::uint8_t>& rgba);

  int width() const { return int(target_->extent().width); }
  int height() const { return int(target_->extent().height); }
  float aspect() const { return float(width()) / float(height()); }
  VkSampleCountFlagBits samples() const { return target_->samples(); }
  SceneRenderer& scene() { return scene_; }
  double last_frame_ms() const { return last_frame_ms_; }  // update to pixels in host memory

 private:
  OffscreenRenderer() = default;
  RenderContext context_;
  std::unique_ptr<OffscreenTarget> target_;
  SceneRenderer scene_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  double last_frame_ms_ = 0;
};

// Writes RGBA8 pixels (rows top to bottom) as an 8-bit RGBA PNG. Errors name the file.
sim::Result<bool> write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba);

}  // namespace render
