// The debug overlay as line segments in world space (contact points, normals, force arrows,
// joint and body frames, bounding boxes), built on the CPU each frame from the poses the frame
// draws, so overlays and shapes always agree.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <span>
#include <vector>

#include "gpu_layout.hpp"
#include "render/frame_input.hpp"
#include "render/pose_sink.hpp"
#include "sim/model.hpp"

namespace render {


// Body poses of the frame, read from pose-buffer floats (render/pose_sink.hpp layout).
struct PoseView {
  const float* data = nullptr;
  glm::vec3 position(int body) const;
  glm::quat rotation(int body) const;
};

// `highlighted`: nodes outlined in magenta (FrameInput::highlighted_nodes), drawn whatever the
// overlay switches.
void build_overlay_lines(const sim::Model& model, const PoseView& poses, const Overlays& overlays,
                         const ContactOverlay* contacts, const OverlayScale& scale, const glm::vec3& eye,
                         std::vector<LineVertex>& out, std::span<const int> highlighted = {});

}  // namespace render
