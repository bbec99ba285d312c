// The debug overlay as line segments in world space (contact points, normals, force arrows,
// joint and body frames, bounding boxes), built on the CPU each frame from the poses the frame
// draws, so overlays and shapes always agree.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <vector>

#include "gpu_layout.hpp"
#include "render/frame_input.hpp"
#include "render/pose_sink.hpp"
#include "sim/model.hpp"

namespace render {

// Sizes derived once per model so overlays read well at the scene's scale.
struct OverlayScale {
  float marker = 0.05f;        // contact cross half size, normal length / 2 [m]
  float axis = 0.1f;           // body frame axis length (scaled by each body's radius) [m]
  float force_per_newton = 0.01f;  // automatic force arrow scale [m/N]
  float max_arrow = 1.0f;      // arrows are clamped to this length [m]
};
OverlayScale overlay_scale(const sim::Model& model);

// Body poses of the frame, read from pose-buffer floats (render/pose_sink.hpp layout).
struct PoseView {
  const float* data = nullptr;
  glm::vec3 position(int body) const;
  glm::quat rotation(int body) const;
};

void build_overlay_lines(const sim::Model& model, const PoseView& poses, const Overlays& overlays,
                         const ContactOverlay* contacts, const OverlayScale& scale, const glm::vec3& eye,
                         std::vector<LineVertex>& out);

}  // namespace render
