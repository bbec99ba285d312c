// Tetrahedralising a closed surface with TetGen (libtet, Hang Si, "TetGen, a Delaunay-based
// quality tetrahedral mesh generator", ACM TOMS 41(2), 2015): a constrained Delaunay mesh of the
// surface's inside, refined to a radius-edge ratio bound (-q) and a maximum tet volume (-a).
// TetGen throws, exits or crashes on some inputs (self-intersections, tiny features), so it runs
// in a child process (io/child_process.hpp) with bounded time and memory: any failure is an
// error message. The surface is checked first (closed, manifold, consistently oriented, no
// degenerate triangles), and the tet count the size bound asks for against limits::kMaxTetMeshTets.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sim/result.hpp"
#include "sim/sdf.hpp"
#include "sim/tet_mesh.hpp"

namespace sim {

struct TetGenOptions {
  Real max_volume = 0;          // largest tet volume [m^3] (TetGen -a); 0: no bound
  Real radius_edge_ratio = 2;   // circumradius / shortest edge bound (TetGen -q); 0: no refinement
  Real min_dihedral_deg = 0;    // smallest dihedral angle TetGen aims for [deg] (-q ratio/angle); 0: none
  double time_limit_seconds = 120;          // the child is killed after this
  std::size_t memory_limit_bytes = std::size_t(4) << 30;  // address space beyond the caller's
};

struct TetGenReport {
  std::string switches;                 // what TetGen was run with ("pzQq2/0a0.001")
  double seconds = 0;                   // TetGen's run (child process included)
  // What was done to the input (unused vertices dropped), and how many tets miss the quality
  // targets: TetGen holds a radius-edge bound of 2 or more everywhere, a tighter one (and the
  // dihedral angle) only away from the surface.
  std::vector<std::string> notes;
};

// The maximum volume of a regular tetrahedron with edge `edge`: edge^3 / (6 sqrt 2).
Real tet_volume_for_edge(Real edge);

// Whether `surface` can be tetrahedralised: closed (no boundary edge), manifold (no edge of three
// triangles), consistently oriented, without degenerate triangles, bad indices or non-finite
// vertices, enclosing a positive volume. Returns "" or what is wrong ("the surface is not closed:
// 12 boundary edges (e.g. vertices 3-7)"), one problem per line.
std::string check_closed_surface(const TriangleMesh& surface);

// The tet mesh of the inside of `surface` (outward counter-clockwise triangles, as
// load_triangle_mesh returns). `where` names the surface in messages.
Result<TetMesh> tetrahedralize_surface(const TriangleMesh& surface, const TetGenOptions& options, const std::string& where,
                                       TetGenReport* report = nullptr);

}  // namespace sim
