// SceneRenderer: draws a sim::Model's shapes and particles, lit by one directional light with a
// shadow map, on a ground grid, with a selection highlight and debug line overlays, into a
// render pass someone else begins (the offscreen target, or a window's swapchain pass).
//
// Per frame:  update(input)                  -- host side: poses, uniforms, overlay lines
//             record_shadow_pass(cmd)        -- outside any render pass (the shadow map)
//             <caller begins its render pass, clearing to clear_color()>
//             record(cmd, extent)            -- inside it, subpass 0
//             <caller ends the pass and submits>
// Frames in flight: per-frame data lives in rings of frames_in_flight slots. The caller
// guarantees that when update() starts frame n, the commands of frame n - frames_in_flight have
// completed (what a swapchain loop with one fence per frame in flight, or QVulkanWindow, does).
#pragma once

#include <vulkan/vulkan.h>

#include <glm/glm.hpp>

#include <memory>

#include "render/frame_input.hpp"
#include "render/render_context.hpp"
#include "render/shared_pose_buffer.hpp"
#include "sim/model.hpp"
#include "sim/result.hpp"

namespace render {

struct SceneRendererOptions {
  int frames_in_flight = 2;
  int shadow_map_size = 2048;   // texels per side
};

struct SceneStats {
  int meshes = 0;            // distinct tessellated meshes
  int shape_instances = 0;     // collision shapes
  int visual_instances = 0;    // visual shapes (render only)
  int triangles = 0;         // per frame, shapes and particles, main pass
  int line_vertices = 0;     // overlay, last update()
  int top_vertices = 0;      // on-top SDF overlays (slice triangles, iso-lines, markers), last update()
  int surface_vertices = 0;  // particle surfaces' vertex buffer: the particles and the embedded render meshes' vertices
  int surface_triangles = 0; // their drawn triangles (tet boundaries left out for embedded meshes)
};

class SceneRenderer {
 public:
  SceneRenderer();
  ~SceneRenderer();
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;

  // `render_pass`: the pass record() draws in (subpass 0) with `samples` per pixel;
  // `color_format` decides whether the shaders encode sRGB themselves (UNORM targets) or leave
  // it to the hardware (_SRGB targets). The context must outlive the renderer.
  sim::Result<bool> init(const RenderContext& context, VkRenderPass render_pass, VkSampleCountFlagBits samples,
                         VkFormat color_format, const SceneRendererOptions& options = {});
  // Tessellates every shape once (identical shapes share a mesh and draw instanced), creates the
  // pose buffer for the model's bodies and particles holding its initial state, and keeps a copy
  // of the model. Waits for the device to idle; the simulation must not write pose_sink() while
  // it runs, and must use the new sink afterwards.
  sim::Result<bool> set_model(const sim::Model& model);
  void update(const FrameInput& input);
  void record_shadow_pass(VkCommandBuffer cmd);
  void record(VkCommandBuffer cmd, VkExtent2D extent);
  // Destroys every Vulkan object (waits for the device first); init() may be called again.
  void release();

  // What the simulation writes poses into (null before set_model()).
  SharedPoseBuffer* pose_buffer();
  PoseSink* pose_sink() { return pose_buffer(); }
  int frames_in_flight() const;
  const SceneStats& stats() const;
  bool has_model() const;

  // The clear colour of the caller's pass for `background` (linear): encoded to sRGB by hand
  // for UNORM formats, as the shaders do, so ground and sky meet without a seam.
  static VkClearColorValue clear_color(VkFormat color_format, const glm::vec3& background = kDefaultBackground);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// True for the _SRGB colour formats (the hardware encodes on write).
bool is_srgb_format(VkFormat format);

}  // namespace render
