// The SDF overlays (thesis ch. 6): a slice through a triangle-mesh shape's baked distance field,
// coloured with a diverging map of φ (blue inside, white on the surface, red outside) with
// iso-lines, and the SDF contacts of the last step as markers coloured by the evaluations their
// local optimisation spent (shape by feature: vertex, edge, face). The slice is sampled on the
// CPU from the shape's NanoVDB grid (sim::SdfGrid::sample_slice); SceneRenderer draws both on top
// of the scene (Overlays::sdf_slice, Overlays::sdf_samples).
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

#include "sim/contact.hpp"
#include "sim/model.hpp"
#include "sim/sdf.hpp"

namespace render {

// Diverging map of a signed distance, linear RGB: t = φ / inside (φ < 0) or φ / outside (φ > 0),
// clamped to [−1, 1]; t = −1 blue (0.05, 0.25, 0.85), t = 0 white, t = +1 red (0.85, 0.08, 0.05),
// linear in t on each side.
glm::vec3 sdf_colour(float phi, float inside, float outside);

// Sequential map of a local optimisation's cost: 1 evaluation cyan, half of `most` yellow, `most`
// (and above) magenta.
glm::vec3 iteration_colour(int evaluations, int most);

// One axis-aligned slice of a distance field, in the field's (shape) frame.
struct SdfSlice {
  int axis = 2;             // the plane's normal: 0 x, 1 y, 2 z of the shape frame
  float offset = 0.0f;      // the plane's coordinate along `axis` [m]
  int nx = 0, ny = 0;       // samples along the two other axes (in increasing order)
  glm::vec3 lo{0.0f}, hi{0.0f};  // corners of the sampled rectangle (lo[axis] = hi[axis] = offset)
  std::vector<float> phi;   // nx * ny samples, first in-plane axis fastest [m]
  // Colour map ranges [m]: the deepest sample inside, and the largest sample outside within the
  // narrow band (beyond it only the coarse far field is stored: it saturates). Each side gets the
  // whole colour ramp, so a thin wall inside a large bounding box still shows blue.
  float range_inside = 0.0f;
  float range_outside = 0.0f;
  int iso_levels = 4;       // iso-lines at k/iso_levels of each side's range, k = −levels..levels
  float voxel = 0.0f;       // the grid's voxel size [m]
  glm::vec3 point(int i, int j) const;  // shape-frame position of sample (i, j)
  float at(int i, int j) const { return phi[std::size_t(j) * std::size_t(nx) + std::size_t(i)]; }
  glm::vec3 colour(int i, int j) const { return sdf_colour(at(i, j), range_inside, range_outside); }  // as drawn
  float iso_level(int k) const { return float(k) * (k < 0 ? range_inside : range_outside) / float(iso_levels); }
};

// Samples `grid` on the plane at `position` (a fraction in [0, 1] of the grid's bounds along
// `axis`): `resolution` samples along the longer in-plane side, proportionally fewer (at least 2)
// along the other.
SdfSlice sample_sdf_slice(const sim::SdfGrid& grid, int axis, float position, int resolution);

// The iso-lines of a slice by marching squares (saddles resolved by the cell's mean): segments as
// point pairs in the shape frame, with their level's index k (φ = iso_level(k)).
struct IsoSegment {
  glm::vec3 a, b;
  int level = 0;
};
void slice_iso_lines(const SdfSlice& slice, std::vector<IsoSegment>& out);

// The shape the slice overlay shows: the selected body's first triangle-mesh shape; with no
// selection (-1) the model's first one; -1 when there is none.
int sdf_slice_shape(const sim::Model& model, int selected_body);

}  // namespace render
