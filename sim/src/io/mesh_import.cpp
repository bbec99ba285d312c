// Mesh files through Assimp, and mesh -> convex collision hulls.
#include "io/mesh_import.hpp"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <numbers>
#include <utility>

#include "collision/convex_decomposition.hpp"
#include "collision/convex_hull.hpp"

namespace sim::io {

namespace {

// Appends the triangles of `node` and its children, with the accumulated transform.
void collect(const aiScene* scene, const aiNode* node, const aiMatrix4x4& parent, const Vec3& scale,
             std::map<std::array<double, 3>, int>& index, TriangleMesh& out, bool& has_uvs) {
  const aiMatrix4x4 transform = parent * node->mTransformation;
  for (unsigned i = 0; i < node->mNumMeshes; ++i) {
    const aiMesh* mesh = scene->mMeshes[node->mMeshes[i]];
    std::vector<int> local(mesh->mNumVertices);
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D p = transform * mesh->mVertices[v];
      const std::array<double, 3> key{static_cast<double>(p.x) * scale.x(), static_cast<double>(p.y) * scale.y(),
                                      static_cast<double>(p.z) * scale.z()};
      auto [it, inserted] = index.emplace(key, static_cast<int>(out.vertices.size()));
      if (inserted) out.vertices.emplace_back(static_cast<Real>(key[0]), static_cast<Real>(key[1]), static_cast<Real>(key[2]));
      local[v] = it->second;
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      const std::array<int, 3> t{local[face.mIndices[0]], local[face.mIndices[1]], local[face.mIndices[2]]};
      if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;  // degenerate after welding
      out.triangles.push_back(t);
      // UVs per corner: welding by position joins vertices across UV seams, the corners keep them.
      const aiVector3D* uv = mesh->mTextureCoords[0];
      for (unsigned k = 0; k < 3; ++k)
        out.corner_uvs.emplace_back(uv ? Real(uv[face.mIndices[k]].x) : Real(0), uv ? Real(uv[face.mIndices[k]].y) : Real(0));
      has_uvs = has_uvs || uv != nullptr;
    }
  }
  for (unsigned c = 0; c < node->mNumChildren; ++c) collect(scene, node->mChildren[c], transform, scale, index, out, has_uvs);
}

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
  try {
    Assimp::Importer importer;
    // ROS tools read Collada in its authored axes; Assimp would rotate Z_UP files to Y_UP.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const aiScene* scene = importer.ReadFile(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
    if (!scene || !scene->mRootNode) {
      std::string why = importer.GetErrorString();
      if (why.empty()) why = "unreadable mesh file";
      return Error{path + ": " + why};
    }
    TriangleMesh out;
    std::map<std::array<double, 3>, int> index;
    bool has_uvs = false;
    collect(scene, scene->mRootNode, aiMatrix4x4(), scale, index, out, has_uvs);
    if (out.triangles.empty()) return Error{path + ": no triangles in the file"};
    if (!has_uvs) out.corner_uvs.clear();
    if (scale.x() * scale.y() * scale.z() < 0)
      for (std::size_t t = 0; t < out.triangles.size(); ++t) {
        std::swap(out.triangles[t][1], out.triangles[t][2]);
        if (has_uvs) std::swap(out.corner_uvs[3 * t + 1], out.corner_uvs[3 * t + 2]);
      }
    for (const Vec3& v : out.vertices)
      if (!v.allFinite()) return Error{path + ": non-finite vertex"};
    return out;
  } catch (const std::exception& e) {
    return Error{path + ": " + e.what()};
  }
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
