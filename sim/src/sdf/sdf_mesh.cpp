// make_sdf_mesh(): a triangle mesh prepared for SDF collision. Unique edges, which of them are
// features (boundary, non-manifold or with a dihedral angle: flat diagonals of planar faces need
// no edge search), representative triangles for vertices and edges (thesis §6.4.1, L1552-1556:
// each vertex and edge belongs to exactly one triangle, so one contact per feature), the bounding
// sphere, and the baked grid.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "sdf/mesh_clean.hpp"

namespace sim {

namespace {

// Triangles whose unit normals agree to this are coplanar: their shared edge is no feature.
constexpr Real kFlatCosine = Real(1) - Real(1e-6);

void build_topology(SdfMesh& s) {
  const TriangleMesh& m = s.mesh;
  const int tri_count = static_cast<int>(m.triangles.size());
  struct Half {
    std::uint64_t key;  // (lo << 32) | hi
    int triangle;
    int corner;         // edge `corner` of the triangle joins corners corner, corner + 1
  };
  std::vector<Half> half;
  half.reserve(3 * m.triangles.size());
  for (int t = 0; t < tri_count; ++t)
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t a = static_cast<std::uint32_t>(m.triangles[t][k]);
      const std::uint64_t b = static_cast<std::uint32_t>(m.triangles[t][(k + 1) % 3]);
      half.push_back({(std::min(a, b) << 32) | std::max(a, b), t, k});
    }
  std::sort(half.begin(), half.end(), [](const Half& x, const Half& y) {
    return x.key != y.key ? x.key < y.key : x.triangle < y.triangle;
  });
  std::vector<Vec3> normal(tri_count);
  for (int t = 0; t < tri_count; ++t) {
    const auto& tri = m.triangles[t];
    normal[t] = (m.vertices[tri[1]] - m.vertices[tri[0]]).cross(m.vertices[tri[2]] - m.vertices[tri[0]]).normalized();
  }
  s.triangle_edges.assign(tri_count, {-1, -1, -1});
  s.edges.clear();
  s.edge_is_feature.clear();
  s.edge_owner.clear();
  for (std::size_t i = 0; i < half.size();) {
    std::size_t j = i;
    while (j < half.size() && half[j].key == half[i].key) ++j;
    const int e = static_cast<int>(s.edges.size());
    s.edges.push_back({static_cast<int>(half[i].key >> 32), static_cast<int>(half[i].key & 0xffffffffu)});
    bool feature = (j - i) != 2;
    if (!feature) feature = normal[half[i].triangle].dot(normal[half[i + 1].triangle]) < kFlatCosine;
    s.edge_is_feature.push_back(feature ? 1 : 0);
    s.edge_owner.push_back(half[i].triangle);  // lowest triangle index: sorted within the key
    for (std::size_t k = i; k < j; ++k) s.triangle_edges[half[k].triangle][half[k].corner] = e;
    i = j;
  }
  s.vertex_owner.assign(m.vertices.size(), -1);
  for (int t = tri_count - 1; t >= 0; --t)
    for (int k = 0; k < 3; ++k) s.vertex_owner[m.triangles[t][k]] = t;
  // Bounding sphere about the box centre of the used vertices.
  Vec3 lo = Vec3::Constant(std::numeric_limits<Real>::max()), hi = -lo;
  for (std::size_t v = 0; v < m.vertices.size(); ++v)
    if (s.vertex_owner[v] >= 0) lo = lo.cwiseMin(m.vertices[v]), hi = hi.cwiseMax(m.vertices[v]);
  s.bound_center = tri_count > 0 ? Vec3(Real(0.5) * (lo + hi)) : Vec3(Vec3::Zero());
  s.bound_radius = 0;
  for (std::size_t v = 0; v < m.vertices.size(); ++v)
    if (s.vertex_owner[v] >= 0) s.bound_radius = std::max(s.bound_radius, (m.vertices[v] - s.bound_center).norm());
}

}  // namespace

Result<std::shared_ptr<const SdfMesh>> make_sdf_mesh(const TriangleMesh& mesh, const SdfBakeOptions& options,
                                                     SdfBakeReport* report) {
  SdfBakeReport local;
  SdfBakeReport& r = report != nullptr ? *report : local;
  auto grid = bake_sdf(mesh, options, &r);
  if (!grid) return Error{grid.error()};
  auto out = std::make_shared<SdfMesh>();
  out->mesh = detail::without_invalid_triangles(mesh);
  out->diagnostics = r.diagnostics;
  for (const std::string& w : r.warnings)
    if (w.rfind("sdf cache: ", 0) == 0) out->cache_problems.push_back(w);
  out->grid = std::move(grid.value());
  build_topology(*out);
  return std::shared_ptr<const SdfMesh>(std::move(out));
}

}  // namespace sim
