// A tetrahedral mesh as read from a file (Gmsh .msh, TetGen .node/.ele, VTK) or generated from a
// closed surface (TetGen), before it becomes a soft body's particles and element rows.
// Shared by the tet-mesh readers and generator (sim/src/io/tet_mesh_*) and the FEM soft bodies.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/math.hpp"

namespace coulomb {

using sim::Vec3;  // (the header did not compile: Vec3 is sim's)

struct TetMesh {
  std::vector<Vec3> points;                      // node positions [m]
  // Node indices of each element, positively oriented: ((p1-p0) x (p2-p0)) . (p3-p0) > 0.
  std::vector<std::array<std::int32_t, 4>> tets;
  // Boundary faces (each on exactly one tet), counter-clockwise seen from outside. Empty until
  // computed (tet_mesh_boundary) or read.
  std::vector<std::array<std::int32_t, 3>> surface;
  std::string source;                            // where it came from, for messages ("file.msh")
};

}  // namespace coulomb
