// Mesh files through Assimp (in a child process: io/assimp_mesh_read.hpp), and mesh -> convex
// collision hulls.
#include "io/mesh_import.hpp"

#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <numbers>
#include <utility>

#include "collision/convex_decomposition.hpp"
#include "collision/convex_hull.hpp"
#include "io/assimp_mesh_read.hpp"
#include "sdf/mesh_io.hpp"

namespace sim::io {

namespace {

// The hull corners extreme along `directions` quasi-uniform directions (a Fibonacci sphere) and
// the six axes: a hull inside the original that keeps its extents along the axes.
std::vector<Vec3> reduce_hull(const std::vector<Vec3>& corners, int directions) {
  std::vector<Vec3> dirs;
  for (int k = 0; k < 3; ++k) dirs.push_back(Vec3::Unit(k)), dirs.push_back(-Vec3::Unit(k));
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < directions; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / directions;
    const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
    dirs.emplace_back(static_cast<Real>(r * std::cos(golden * i)), static_cast<Real>(r * std::sin(golden * i)),
                      static_cast<Real>(z));
  }
  Vec3 centre = Vec3::Zero();
  for (const Vec3& c : corners) centre += c;
  centre /= static_cast<Real>(corners.size());
  std::vector<char> used(corners.size(), 0);
  std::vector<Vec3> out;
  for (const Vec3& d : dirs) {
    std::size_t best = 0;
    Real best_dot = -std::numeric_limits<Real>::infinity();
    for (std::size_t i = 0; i < corners.size(); ++i) {
      const Real v = d.dot(corners[i] - centre);
      if (v > best_dot) best_dot = v, best = i;
    }
    if (!used[best]) used[best] = 1, out.push_back(corners[best]);
  }
  return out;
}

// Applies the corner budget to one part; keeps the part when the reduced set is degenerate.
void limit_corners(std::vector<Vec3>& corners, int max_vertices, const std::string& where) {
  if (max_vertices <= 0 || static_cast<int>(corners.size()) <= max_vertices) return;
  std::vector<Vec3> reduced = reduce_hull(corners, std::max(max_vertices - 6, 4));
  if (reduced.size() >= 4 && build_convex_hull(reduced, where).ok()) corners.swap(reduced);
}

}  // namespace

Result<TriangleMesh> load_mesh_file(const std::string& path, const Vec3& scale) {
  if (!scale.allFinite() || scale.x() == 0 || scale.y() == 0 || scale.z() == 0)
    return Error{path + ": scale must be finite and non-zero"};
  // ROS tools read Collada in its authored axes; Assimp would rotate Z_UP files to Y_UP.
  auto read = read_mesh_with_assimp(path, {.ignore_collada_up = true, .drop_points_and_lines = true});
  if (!read) return Error{read.error()};
  return welded_mesh_from_assimp(read.value(), scale, path);
}

Result<TriangleMesh> welded_mesh_from_assimp(const AssimpMesh& in, const Vec3& scale, const std::string& path) {
  // Scaled, then welded (vertices at one scaled position, within the tolerance) and the triangles
  // collapsed by it dropped.
  TriangleMesh out;
  out.vertices.reserve(in.vertices.size());
  for (const auto& v : in.vertices)
    out.vertices.emplace_back(static_cast<Real>(static_cast<double>(v[0]) * scale.x()),
                              static_cast<Real>(static_cast<double>(v[1]) * scale.y()),
                              static_cast<Real>(static_cast<double>(v[2]) * scale.z()));
  out.triangles.assign(in.triangles.begin(), in.triangles.end());
  bool has_uvs = false;
  for (std::uint8_t h : in.triangle_has_uvs) has_uvs = has_uvs || h != 0;
  // UVs per corner: welding by position joins vertices across UV seams, the corners keep them.
  if (has_uvs)
    for (const auto& uv : in.corner_uvs) out.corner_uvs.emplace_back(Real(uv[0]), Real(uv[1]));
  // Within the loaders' tolerance (sdf/mesh_io.hpp): a part that CAD wrote with near-duplicate
  // corners reads closed, so its volume is known and a non-convex one is decomposed
  // (ImportOptions::decompose_meshes: closed meshes only). On the shared robots this changes no
  // collision mesh (Fetch's read the same; the Allegro hand collides with boxes), only visuals.
  weld_vertices(out, weld_tolerance(out));
  if (out.triangles.empty()) return Error{path + ": no triangles in the file"};
  if (scale.x() * scale.y() * scale.z() < 0)
    for (std::size_t t = 0; t < out.triangles.size(); ++t) {
      std::swap(out.triangles[t][1], out.triangles[t][2]);
      if (has_uvs) std::swap(out.corner_uvs[3 * t + 1], out.corner_uvs[3 * t + 2]);
    }
  for (const Vec3& v : out.vertices)
    if (!v.allFinite()) return Error{path + ": non-finite vertex (after scaling)"};
  return out;
}

Result<MeshHulls> mesh_collision_hulls(const TriangleMesh& mesh, const ImportOptions& options,
                                       const std::string& where) {
  MeshHulls out;
  auto hull = build_convex_hull(mesh.vertices, where);
  if (!hull) return Error{hull.error()};
  out.hull_volume = hull_mass_properties(hull.value()).volume;
  out.parts.push_back(hull.value().vertices);
  limit_corners(out.parts.back(), options.max_hull_vertices, where);
  if (!is_closed_mesh(mesh.triangles)) return out;
  out.mesh_volume = std::abs(mesh_volume(mesh.vertices, mesh.triangles));
  if (!options.decompose_meshes || !(out.mesh_volume > 0) ||
      !(out.hull_volume > options.decompose_above * out.mesh_volume))
    return out;
  ConvexDecompositionOptions d;
  d.max_concavity = options.part_concavity;
  d.max_parts = options.max_convex_parts;
  auto parts = convex_decomposition(mesh.vertices, mesh.triangles, d, where);
  if (!parts || parts.value().parts.size() < 2) return out;
  out.parts.clear();
  for (ConvexPart& p : parts.value().parts) {
    out.parts.push_back(std::move(p.hull_vertices));
    limit_corners(out.parts.back(), options.max_hull_vertices, where);
  }
  out.decomposed = true;
  return out;
}

}  // namespace sim::io
