// check_mesh(): the problems a mesh may bring to the baker (open, non-manifold, flipped,
// degenerate), counted over its edges (directed half-edges sorted by their undirected key).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "sdf/mesh_clean.hpp"

namespace sim {
namespace detail {

bool triangle_is_valid(const TriangleMesh& mesh, const std::array<int, 3>& t, Real area_epsilon) {
  const int n = static_cast<int>(mesh.vertices.size());
  for (int k = 0; k < 3; ++k)
    if (t[k] < 0 || t[k] >= n) return false;
  if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0]) return false;
  const Vec3& a = mesh.vertices[t[0]];
  const Vec3 cross = (mesh.vertices[t[1]] - a).cross(mesh.vertices[t[2]] - a);
  return 0.5 * cross.norm() > area_epsilon;
}

Real degenerate_area_epsilon(const TriangleMesh& mesh) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<Real>::max()), hi = -lo;
  for (const Vec3& v : mesh.vertices)
    if (v.allFinite()) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  const Real extent = mesh.vertices.empty() ? Real(0) : (hi - lo).maxCoeff();
  const Real len = std::max(Real(1e-12) * extent, std::numeric_limits<Real>::min());
  return len * len;
}

TriangleMesh without_invalid_triangles(const TriangleMesh& mesh) {
  TriangleMesh out;
  out.vertices = mesh.vertices;
  out.triangles.reserve(mesh.triangles.size());
  const Real eps = degenerate_area_epsilon(mesh);
  for (const auto& t : mesh.triangles)
    if (triangle_is_valid(mesh, t, eps)) out.triangles.push_back(t);
  return out;
}

}  // namespace detail

MeshDiagnostics check_mesh(const TriangleMesh& mesh) {
  MeshDiagnostics d;
  d.vertex_count = static_cast<int>(mesh.vertices.size());
  d.triangle_count = static_cast<int>(mesh.triangles.size());
  for (const Vec3& v : mesh.vertices) d.non_finite_vertices += v.allFinite() ? 0 : 1;
  const Real eps = detail::degenerate_area_epsilon(mesh);
  std::vector<char> used(mesh.vertices.size(), 0);
  // Half-edges: key = (min, max) vertex pair, plus the direction bit (a < b).
  std::vector<std::uint64_t> half;
  half.reserve(3 * mesh.triangles.size());
  for (const auto& t : mesh.triangles) {
    bool in_range = true;
    for (int k = 0; k < 3; ++k) in_range = in_range && t[k] >= 0 && t[k] < d.vertex_count;
    if (!in_range) {
      ++d.bad_indices;
      continue;
    }
    if (!detail::triangle_is_valid(mesh, t, eps)) {
      ++d.degenerate_triangles;
      continue;
    }
    for (int k = 0; k < 3; ++k) {
      used[t[k]] = 1;
      const std::uint32_t a = static_cast<std::uint32_t>(t[k]), b = static_cast<std::uint32_t>(t[(k + 1) % 3]);
      const std::uint64_t lo = std::min(a, b), hi = std::max(a, b);
      half.push_back((lo << 33) | (hi << 1) | (a < b ? 1u : 0u));
    }
  }
  for (char u : used) d.unused_vertices += u ? 0 : 1;
  std::sort(half.begin(), half.end());
  for (std::size_t i = 0; i < half.size();) {
    std::size_t j = i;
    int forward = 0;
    while (j < half.size() && (half[j] >> 1) == (half[i] >> 1)) forward += static_cast<int>(half[j] & 1u), ++j;
    const int count = static_cast<int>(j - i);
    if (count == 1) ++d.boundary_edges;
    else if (count > 2) ++d.non_manifold_edges;
    else if (forward != 1) ++d.inconsistent_edges;
    i = j;
  }
  return d;
}

std::vector<std::string> MeshDiagnostics::warnings() const {
  std::vector<std::string> w;
  auto add = [&](int count, const char* what) {
    if (count > 0) w.push_back(std::to_string(count) + " " + what);
  };
  add(non_finite_vertices, "vertices with non-finite coordinates");
  add(bad_indices, "triangles with out-of-range indices (dropped)");
  add(degenerate_triangles, "degenerate triangles (repeated corner or zero area; dropped)");
  add(boundary_edges, "boundary edges: the mesh is open (unsigned distance field)");
  add(non_manifold_edges, "non-manifold edges shared by 3+ triangles (unsigned distance field)");
  add(inconsistent_edges, "edges with inconsistently oriented triangles (flipped faces)");
  add(unused_vertices, "unused vertices");
  if (triangle_count == 0) w.push_back("no triangles");
  return w;
}

}  // namespace sim
