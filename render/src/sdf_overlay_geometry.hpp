// The SDF overlays as vertices for SceneRenderer's on-top passes: the slice as coloured triangles,
// its iso-lines and the SDF contact markers as lines (see render/sdf_overlay.hpp).
#pragma once

#include <memory>
#include <vector>

#include "debug_lines.hpp"
#include "gpu_layout.hpp"
#include "render/sdf_overlay.hpp"

namespace render {

// The last slice sampled, kept while the field, axis and position stay the same (sampling is
// the costly part; placing it with the body's pose is per frame).
struct SdfSliceCache {
  std::shared_ptr<const sim::SdfMesh> mesh;
  int axis = -1;
  float position = -1.0f;
  SdfSlice slice;
  std::vector<IsoSegment> iso;
};

inline constexpr int kSdfSliceResolution = 80;  // samples along the slice's longer side

// Clears and fills `triangles` (slice quads) and `lines` (iso-lines, contact markers).
void build_sdf_overlay(const sim::Model& model, const PoseView& poses, const Overlays& overlays, int selected_body,
                       const ContactOverlay* contacts, const OverlayScale& scale, SdfSliceCache& cache,
                       std::vector<LineVertex>& triangles, std::vector<LineVertex>& lines);

}  // namespace render
