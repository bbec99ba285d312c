// The scene's descriptor set layout, pipeline layout and its pipelines: lit meshes and overlay
// lines (visible and hidden parts) for the caller's render pass, depth-only meshes for the
// shadow pass. All share
// one layout (shaders/scene_layout.glsl), so one descriptor set binds for every draw.
#pragma once

#include <vulkan/vulkan.h>

#include "render/render_context.hpp"
#include "sim/result.hpp"

namespace render {

struct ScenePipelines {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline mesh = VK_NULL_HANDLE;
  VkPipeline mesh_two_sided = VK_NULL_HANDLE;    // no culling: particle surfaces (cloth)
  VkPipeline mesh_wireframe = VK_NULL_HANDLE;    // triangle edges (null without fillModeNonSolid)
  VkPipeline mesh_transparent = VK_NULL_HANDLE;  // see-through: constant opacity, no depth write
  VkPipeline line = VK_NULL_HANDLE;
  VkPipeline hidden_line = VK_NULL_HANDLE;  // where lines are behind surfaces: no depth write
  // On top of the scene (no depth test or write, alpha blended): SDF slice triangles and lines.
  VkPipeline top_fill = VK_NULL_HANDLE;
  VkPipeline top_line = VK_NULL_HANDLE;
  VkPipeline shadow = VK_NULL_HANDLE;
};

// Set 0: 0 frame uniforms (dynamic offset), 1 poses (storage, dynamic offset), 2 shape instances
// (storage), 3 shadow map (combined image sampler), 4 element colours (storage, dynamic offset).
// Push constants: DrawConstants.
sim::Result<ScenePipelines> create_scene_pipelines(const RenderContext& context, VkRenderPass scene_pass,
                                                   VkSampleCountFlagBits samples, VkRenderPass shadow_pass,
                                                   int shadow_map_size);
void destroy_scene_pipelines(VkDevice device, ScenePipelines& pipelines);

}  // namespace render
