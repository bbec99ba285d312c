#include "gui/marker_lines.hpp"

#include <cstdint>
#include <string>

#include "render/pipeline_recipe.hpp"

namespace coulomb::gui {

namespace {

const std::uint32_t kVertexSpirv[] = {
#include "gui_shaders/marker_line.vert.inc"
};
const std::uint32_t kFragmentSpirv[] = {
#include "gui_shaders/marker_line.frag.inc"
};

struct PushConstants {
  glm::mat4 view_projection;
  glm::vec4 a, b, color;
};
static_assert(sizeof(PushConstants) == 112, "matches the shaders' push constant block");

VkShaderModule make_module(VkDevice device, const std::uint32_t* code, std::size_t bytes) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = bytes;
  info.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  if (vkCreateShaderModule(device, &info, nullptr, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
  return module;
}

}  // namespace

MarkerLines::~MarkerLines() { release(); }

sim::Result<bool> MarkerLines::init(VkDevice device, VkRenderPass render_pass, VkSampleCountFlagBits samples) {
  release();
  device_ = device;
  VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(PushConstants)};
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &range;
  if (vkCreatePipelineLayout(device_, &layout_info, nullptr, &layout_) != VK_SUCCESS)
    return sim::Error{"viewport lines: cannot create the pipeline layout"};

  const VkShaderModule vert = make_module(device_, kVertexSpirv, sizeof kVertexSpirv);
  const VkShaderModule frag = make_module(device_, kFragmentSpirv, sizeof kFragmentSpirv);
  if (!vert || !frag) {
    if (vert) vkDestroyShaderModule(device_, vert, nullptr);
    if (frag) vkDestroyShaderModule(device_, frag, nullptr);
    release();
    return sim::Error{"viewport lines: cannot create the shader modules"};
  }
  render::PipelineRecipe recipe;  // no vertex input: the two ends come from push constants
  recipe.vertex = vert;
  recipe.fragment = frag;
  recipe.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  recipe.cull = VK_CULL_MODE_NONE;
  recipe.depth_test = false;  // the spring stays visible through bodies
  recipe.depth_write = false;
  recipe.samples = samples;
  auto pipeline = recipe.build(device_, layout_, render_pass);
  vkDestroyShaderModule(device_, vert, nullptr);
  vkDestroyShaderModule(device_, frag, nullptr);
  if (!pipeline) {
    release();
    return sim::Error{"viewport lines: " + pipeline.error()};
  }
  pipeline_ = *pipeline;
  return true;
}

void MarkerLines::draw_line(VkCommandBuffer cmd, VkExtent2D extent, const glm::mat4& view_projection,
                            const glm::vec3& a, const glm::vec3& b, const glm::vec4& color) const {
  if (!pipeline_ || extent.width == 0 || extent.height == 0) return;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
  const VkViewport viewport{0.0f, 0.0f, static_cast<float>(extent.width), static_cast<float>(extent.height), 0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  const PushConstants pc{view_projection, glm::vec4(a, 1.0f), glm::vec4(b, 1.0f), color};
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof pc, &pc);
  vkCmdDraw(cmd, 2, 1, 0, 0);
}

void MarkerLines::release() {
  if (!device_) return;
  if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  device_ = VK_NULL_HANDLE;
}

}  // namespace coulomb::gui
