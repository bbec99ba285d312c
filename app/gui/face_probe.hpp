// What the property view shows for a picked soft-body or cloth face (issue 14 item 6): the face
// (Model::particle_triangles index, or a render mesh's triangle), its three corners (particles,
// or the render mesh's vertices), where the pick ray met it (barycentric weights in the current
// positions) and the active colour field there: the corners' values (a render vertex's is its
// tet's particle values by its embedding weights, as the drawn surface has them) and their
// interpolation at the hit point, by the weights the drawn surface interpolates its colours
// with. No Qt here.
#pragma once

#include <array>
#include <span>
#include <string>

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace coulomb::gui {

struct FaceProbe {
  int face = -1;                          // -1: no face (out of range)
  int render_mesh = -1;                   // >= 0: a face of Model::soft_render_meshes[render_mesh]
  std::string render_file;                // that mesh's file, as written in the scene
  std::array<int, 3> particles{-1, -1, -1};  // the corners: particles, or the render mesh's vertices
  std::array<double, 3> weights{0, 0, 0}; // of the hit point (the face's plane), sum 1
  bool has_value = false;                 // a field is active and has values for the corners
  std::array<float, 3> corner_values{0, 0, 0};
  float value = 0;                        // interpolated at the hit point (NaN when a corner has none)
};

// `values`: the element field (bodies, then particles; compute_element_field), empty for none.
// `render_mesh` < 0: `face` indexes Model::particle_triangles.
FaceProbe probe_face(const sim::Model& model, const sim::State& state, int render_mesh, int face,
                     const sim::Vec3& point, std::span<const float> values);

// Whether particle `p` moves the face: a corner of a particle triangle, or a node of the tets a
// render face's vertices are bound to.
bool face_moved_by(const sim::Model& model, int render_mesh, int face, int p);

// "face 12: particles 3 4 9, value 0.0123 Pa at the pick (corners 0.01 0.012 0.014)"; a render
// face: "face 12 of meshes/tomato.obj: vertices 3 4 9\n..."
std::string describe_face_probe(const FaceProbe& probe, const char* field_name, const char* unit);

}  // namespace coulomb::gui
