// The directional light's shadow map: a depth image rendered from the light in its own render
// pass (before the scene's pass) and sampled with depth comparison (sampler2DShadow) after it.
#pragma once

#include <vulkan/vulkan.h>

#include <glm/glm.hpp>

#include "gpu_resources.hpp"
#include "render/orbit_camera.hpp"

namespace render {

struct ShadowMap {
  int size = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
  GpuImage depth;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;
};

// The image starts (and every shadow pass leaves it) in DEPTH_STENCIL_READ_ONLY_OPTIMAL, so the
// scene can sample it whether or not a frame renders shadows.
sim::Result<ShadowMap> create_shadow_map(const RenderContext& context, int size);
void destroy_shadow_map(VkDevice device, ShadowMap& map);

// Begins the shadow pass (clearing depth to 1); the caller draws and ends it.
void begin_shadow_pass(VkCommandBuffer cmd, const ShadowMap& map);

// Orthographic light projection holding the casters' bounds, for light travelling along
// `light_dir` (unit). The box is snapped to whole texels and its size to steps of 25 %, so
// shadows do not shimmer as bodies move.
glm::mat4 light_view_projection(const Bounds& casters, const glm::vec3& light_dir, int map_size);

}  // namespace render
