// Tet quality measures and the mesh report (see sim/tet_mesh_quality.hpp).
#include "sim/tet_mesh_quality.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sim {

namespace {
constexpr Real kDeg = Real(180) / Real(3.14159265358979323846);
}

Real tet_radius_edge_ratio(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  // Circumcentre relative to a: (|u|^2 (v x w) + |v|^2 (w x u) + |w|^2 (u x v)) / (2 u.(v x w)).
  const Vec3 u = b - a, v = c - a, w = d - a;
  const Real det = u.dot(v.cross(w));
  if (det == 0) return std::numeric_limits<Real>::infinity();
  const Vec3 centre = (u.squaredNorm() * v.cross(w) + v.squaredNorm() * w.cross(u) + w.squaredNorm() * u.cross(v)) / (2 * det);
  const Real shortest = std::sqrt(std::min({u.squaredNorm(), v.squaredNorm(), w.squaredNorm(), (c - b).squaredNorm(),
                                            (d - b).squaredNorm(), (d - c).squaredNorm()}));
  return centre.norm() / shortest;
}

std::array<Real, 2> tet_dihedral_range_deg(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  // Outward normals of the four faces (kTetFaces order, for a positive tet); the interior
  // dihedral angle between faces i and j is pi minus the angle between their outward normals.
  const Vec3* p[4] = {&a, &b, &c, &d};
  const Real sign = tet_signed_volume(a, b, c, d) < 0 ? Real(-1) : Real(1);
  Vec3 n[4];
  for (int f = 0; f < 4; ++f) {
    const Vec3 &x = *p[kTetFaces[f][0]], &y = *p[kTetFaces[f][1]], &z = *p[kTetFaces[f][2]];
    n[f] = sign * (y - x).cross(z - x).normalized();
  }
  std::array<Real, 2> range{std::numeric_limits<Real>::infinity(), 0};
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      const Real angle = (Real(3.14159265358979323846) - std::acos(std::clamp(n[i].dot(n[j]), Real(-1), Real(1)))) * kDeg;
      range[0] = std::min(range[0], angle);
      range[1] = std::max(range[1], angle);
    }
  return range;
}

TetQualityReport tet_mesh_quality(const TetMesh& mesh) {
  TetQualityReport r;
  r.nodes = mesh.points.size();
  r.tets = mesh.tets.size();
  r.boundary_faces = mesh.surface.size();
  if (mesh.tets.empty()) return r;
  const Real inf = std::numeric_limits<Real>::infinity();
  r.volume_min = r.edge_min = r.dihedral_min_deg = r.radius_edge_min = inf;
  double ratio_sum = 0;
  for (const auto& t : mesh.tets) {
    const Vec3 &a = mesh.points[t[0]], &b = mesh.points[t[1]], &c = mesh.points[t[2]], &d = mesh.points[t[3]];
    const Real v = tet_signed_volume(a, b, c, d);
    r.volume_total += v;
    r.volume_min = std::min(r.volume_min, v);
    r.volume_max = std::max(r.volume_max, v);
    const Vec3* p[4] = {&a, &b, &c, &d};
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        const Real e = (*p[i] - *p[j]).norm();
        r.edge_min = std::min(r.edge_min, e);
        r.edge_max = std::max(r.edge_max, e);
      }
    const auto dihedral = tet_dihedral_range_deg(a, b, c, d);
    r.dihedral_min_deg = std::min(r.dihedral_min_deg, dihedral[0]);
    r.dihedral_max_deg = std::max(r.dihedral_max_deg, dihedral[1]);
    if (dihedral[0] < kSliverDihedralDeg) ++r.slivers;
    const Real ratio = tet_radius_edge_ratio(a, b, c, d);
    r.radius_edge_min = std::min(r.radius_edge_min, ratio);
    r.radius_edge_max = std::max(r.radius_edge_max, ratio);
    ratio_sum += ratio;
    std::size_t bin = 0;
    while (bin < kRadiusEdgeBins.size() && ratio > kRadiusEdgeBins[bin]) ++bin;
    ++r.radius_edge_histogram[bin];
  }
  r.radius_edge_mean = static_cast<Real>(ratio_sum / static_cast<double>(mesh.tets.size()));
  return r;
}

std::string format_tet_quality(const TetQualityReport& r) {
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer,
                "tets: %zu, nodes: %zu, boundary triangles: %zu\n"
                "volume: total %.6g m^3, per tet %.3g .. %.3g m^3\n"
                "edges: %.3g .. %.3g m\n"
                "dihedral angles: %.2f .. %.2f deg, slivers (< %.0f deg): %zu\n"
                "radius-edge ratio: %.3f .. %.3f, mean %.3f (regular tet 0.612)\n"
                "  <=1: %zu  1-1.5: %zu  1.5-2: %zu  2-3: %zu  3-5: %zu  >5: %zu\n",
                r.tets, r.nodes, r.boundary_faces, static_cast<double>(r.volume_total), static_cast<double>(r.volume_min),
                static_cast<double>(r.volume_max), static_cast<double>(r.edge_min), static_cast<double>(r.edge_max),
                static_cast<double>(r.dihedral_min_deg), static_cast<double>(r.dihedral_max_deg),
                static_cast<double>(kSliverDihedralDeg), r.slivers, static_cast<double>(r.radius_edge_min),
                static_cast<double>(r.radius_edge_max), static_cast<double>(r.radius_edge_mean), r.radius_edge_histogram[0],
                r.radius_edge_histogram[1], r.radius_edge_histogram[2], r.radius_edge_histogram[3], r.radius_edge_histogram[4],
                r.radius_edge_histogram[5]);
  return buffer;
}

}  // namespace sim
