// Triangle-mesh shapes at compile time (see mesh_shape.hpp).
#include "sdf/mesh_shape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/convex_hull.hpp"
#include "sdf/mesh_clean.hpp"

namespace sim::detail {

namespace {

bool box_of_used(const ShapeSpec& s, Vec3& lo, Vec3& hi) {
  lo = Vec3::Constant(std::numeric_limits<Real>::max());
  hi = -lo;
  bool any = false;
  const int n = static_cast<int>(s.vertices.size());
  for (const auto& t : s.triangles)
    for (int k = 0; k < 3; ++k)
      if (t[k] >= 0 && t[k] < n && s.vertices[t[k]].allFinite())
        lo = lo.cwiseMin(s.vertices[t[k]]), hi = hi.cwiseMax(s.vertices[t[k]]), any = true;
  return any;
}

}  // namespace

Result<Model::Hull> mesh_shape_hull(const ShapeSpec& s, const std::string& where) {
  if (s.type != ShapeType::ConvexMesh) return Error{where + ": a triangle mesh shape must have type ConvexMesh"};
  for (const Vec3& v : s.vertices)
    if (!v.allFinite()) return Error{where + ": non-finite vertex coordinates"};
  Vec3 lo, hi;
  if (!box_of_used(s, lo, hi)) return Error{where + ": the mesh has no triangles with valid indices"};
  auto hull = build_convex_hull(s.vertices, where);
  if (hull) return hull;
  // Flat (or degenerate) mesh: its box, thickened by 1e-3 of its size (at least 1 µm).
  const Real pad = std::max(Real(1e-3) * (hi - lo).maxCoeff(), Real(1e-6));
  lo -= Vec3::Constant(pad);
  hi += Vec3::Constant(pad);
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) corners.emplace_back((i & 1) ? hi.x() : lo.x(), (i & 2) ? hi.y() : lo.y(), (i & 4) ? hi.z() : lo.z());
  return build_convex_hull(corners, where);
}

Model::Hull mesh_mass_polyhedron(const ShapeSpec& s, Model::Hull hull) {
  TriangleMesh mesh{s.vertices, s.triangles, {}};
  const TriangleMesh clean = without_invalid_triangles(mesh);
  if (!check_mesh(clean).watertight()) return hull;
  Model::Hull poly;
  poly.vertices = clean.vertices;
  poly.face_first.push_back(0);
  for (const auto& t : clean.triangles) {
    for (int k = 0; k < 3; ++k) poly.face_vertices.push_back(t[k]);
    poly.face_first.push_back(static_cast<int>(poly.face_vertices.size()));
    const Vec3 n = (clean.vertices[t[1]] - clean.vertices[t[0]]).cross(clean.vertices[t[2]] - clean.vertices[t[0]]).normalized();
    poly.face_normal.push_back(n);
    poly.face_offset.push_back(n.dot(clean.vertices[t[0]]));
  }
  return hull_mass_properties(poly).volume > 0 ? poly : hull;
}

Result<int> add_mesh_shape(const ShapeSpec& s, Real contact_margin, std::vector<std::shared_ptr<const SdfMesh>>& meshes,
                           const std::string& where) {
  if (s.type != ShapeType::ConvexMesh) return Error{where + ": a triangle mesh shape must have type ConvexMesh"};
  Vec3 lo, hi;
  if (!box_of_used(s, lo, hi)) return Error{where + ": the mesh has no triangles with valid indices"};
  const Real extent = (hi - lo).maxCoeff();
  if (!(s.sdf_voxel_size >= 0) || !(s.sdf_band >= 0)) return Error{where + ": sdf voxel size and band must be >= 0"};
  SdfBakeOptions options;
  options.voxel_size = s.sdf_voxel_size > 0 ? s.sdf_voxel_size : extent / Real(options.resolution);
  options.band = sdf_shape_band(s.sdf_band, options.voxel_size, s.thickness, contact_margin);
  TriangleMesh mesh{s.vertices, s.triangles, {}};
  const TriangleMesh clean = without_invalid_triangles(mesh);
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    const SdfMesh& other = *meshes[i];
    if (other.mesh.vertices == clean.vertices && other.mesh.triangles == clean.triangles &&
        std::abs(other.grid->voxel_size() - options.voxel_size) <= Real(1e-12) * options.voxel_size &&
        std::abs(other.grid->background() - options.band * options.voxel_size) <= Real(1e-4) * options.voxel_size)
      return static_cast<int>(i);
  }
  auto baked = make_sdf_mesh(mesh, options);
  if (!baked) return Error{where + ": " + baked.error()};
  meshes.push_back(std::move(baked.value()));
  return static_cast<int>(meshes.size()) - 1;
}

}  // namespace sim::detail

namespace sim {

Real sdf_shape_band(Real band, Real voxel_size, Real thickness, Real contact_margin) {
  // The band must reach as far as contacts are made (thesis §6.5: a sampling margin).
  const Real needed = std::ceil((std::max(contact_margin, Real(0)) + thickness) / voxel_size) + 1;
  return std::max({band, needed, Real(1)});
}

}  // namespace sim
