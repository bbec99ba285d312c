// Grain glyphs (issue 12): short line segments along the texture grain drawn on the surfaces of
// textured meshes, so a painted structure field can be seen and checked while it is authored.
#pragma once

#include <vector>

#include "debug_lines.hpp"

namespace render {

inline constexpr int kGrainGlyphs = 600;  // glyphs over all textured surfaces of a frame

// Appends the glyphs of every mesh shape whose grain is a texture, in the poses of the frame:
// about `target` segments over all those surfaces (spaced evenly by area), each centred on its
// sample point, lifted off the surface by a hair, as long as 0.7 of the spacing; none where the
// texture gives no grain.
void append_grain_glyphs(const sim::Model& model, const PoseView& poses, int target, std::vector<LineVertex>& out);

}  // namespace render
