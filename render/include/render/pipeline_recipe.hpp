// A graphics pipeline described by the few fields that differ between the renderer's pipelines
// (and the viewport's own line pipeline in app/gui): shaders, vertex layout, topology, culling,
// depth test and write, blending, samples, dynamic or fixed viewport. build() fills in the rest.
#pragma once

#include <vulkan/vulkan.h>

#include <vector>

#include "sim/result.hpp"

namespace render {

// Everything a graphics pipeline needs, with the scene's defaults; each pipeline edits a few
// fields and calls build(). A recipe without a vertex binding (binding.stride 0) has no vertex
// input (vertices from push constants or gl_VertexIndex).
struct PipelineRecipe {
  VkShaderModule vertex = VK_NULL_HANDLE, fragment = VK_NULL_HANDLE;
  VkVertexInputBindingDescription binding{};
  std::vector<VkVertexInputAttributeDescription> attributes;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkCullModeFlags cull = VK_CULL_MODE_BACK_BIT;
  bool depth_test = true;
  VkCompareOp depth_compare = VK_COMPARE_OP_LESS;
  bool depth_write = true;
  bool alpha_blend = false;  // standard alpha blending (source alpha from the shader)
  float constant_alpha = 0;  // > 0: blended with this opacity (blend constant), whatever the shader's alpha
  VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;  // LINE needs the fillModeNonSolid feature
  bool depth_bias = false;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  bool has_color = true;
  int fixed_viewport = 0;  // > 0: a static square viewport of that size; 0: dynamic viewport

  sim::Result<VkPipeline> build(VkDevice device, VkPipelineLayout layout, VkRenderPass pass) const;
};

}  // namespace render
