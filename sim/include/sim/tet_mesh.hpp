// A tetrahedral mesh as read from a file (Gmsh .msh, TetGen .node/.ele, VTK) or generated from a
// closed surface (TetGen), before it becomes a soft body's particles and element rows.
// Shared by the tet-mesh readers and generator (sim/src/io/tet_mesh_*) and the FEM soft bodies.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/math.hpp"

namespace sim {

struct TetMesh {
  std::vector<Vec3> points;                      // node positions [m]
  // Node indices of each element, positively oriented: ((p1-p0) x (p2-p0)) . (p3-p0) > 0.
  std::vector<std::array<std::int32_t, 4>> tets;
  // Boundary faces (each on exactly one tet), counter-clockwise seen from outside. Empty until
  // computed (tet_mesh_boundary) or read.
  std::vector<std::array<std::int32_t, 3>> surface;
  std::string source;                            // where it came from, for messages ("file.msh")
};

// Signed volume of the tet (a, b, c, d): ((b-a) x (c-a)) . (d-a) / 6, positive for TetMesh's
// orientation.
inline Real tet_signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).cross(c - a).dot(d - a) / Real(6);
}

// The four faces of a positively oriented tet (local node indices), each counter-clockwise seen
// from outside the tet: the face opposite node 0, 1, 2, 3.
inline constexpr int kTetFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

}  // namespace sim
