// Element quality of a tet mesh, for the generator's report and any mesh read: volumes, edge
// lengths, dihedral angles (between the planes of two faces, at their common edge) and the
// radius-edge ratio (circumradius / shortest edge; sqrt(6)/4 = 0.612 for the regular tet, what
// TetGen's -q bounds, Shewchuk 2002 "What is a good linear element?"). A sliver is a tet with a
// dihedral angle under kSliverDihedralDeg: flat, with a well-shaped radius-edge ratio possible.
#pragma once

#include <array>
#include <string>

#include "sim/tet_mesh.hpp"

namespace sim {

inline constexpr Real kSliverDihedralDeg = 5;
// Upper edges of the radius-edge ratio histogram's bins; the last bin is everything above.
inline constexpr std::array<Real, 5> kRadiusEdgeBins = {1, 1.5, 2, 3, 5};

struct TetQualityReport {
  std::size_t nodes = 0, tets = 0, boundary_faces = 0;
  Real volume_total = 0, volume_min = 0, volume_max = 0;  // [m^3]
  Real edge_min = 0, edge_max = 0;                         // [m]
  Real dihedral_min_deg = 0, dihedral_max_deg = 0;
  Real radius_edge_min = 0, radius_edge_max = 0, radius_edge_mean = 0;
  std::array<std::size_t, 6> radius_edge_histogram{};     // counts per bin of kRadiusEdgeBins
  std::size_t slivers = 0;                                 // tets with a dihedral < kSliverDihedralDeg
};

// Circumradius / shortest edge of the tet (a, b, c, d); infinite for a flat tet.
Real tet_radius_edge_ratio(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);
// Smallest and largest of the tet's six dihedral angles [deg].
std::array<Real, 2> tet_dihedral_range_deg(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

TetQualityReport tet_mesh_quality(const TetMesh& mesh);
// Several lines for the command line ("tets: 1234, nodes: 345, ...").
std::string format_tet_quality(const TetQualityReport& report);

}  // namespace sim
