// Triangle meshes from files through Assimp (every format it reads), and a plain OBJ writer for
// generated meshes. Assimp's exceptions and messages stay here; callers get a Result.
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <fstream>
#include <iomanip>

#include "sim/sdf.hpp"

namespace sim {

namespace {

void append_node(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, TriangleMesh& out, bool& has_uvs) {
  const aiMatrix4x4 world = parent * node.mTransformation;
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
    const int base = static_cast<int>(out.vertices.size());
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D p = world * mesh.mVertices[v];
      out.vertices.emplace_back(Real(p.x), Real(p.y), Real(p.z));
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      out.triangles.push_back({base + static_cast<int>(face.mIndices[0]), base + static_cast<int>(face.mIndices[1]),
                               base + static_cast<int>(face.mIndices[2])});
      // UVs per corner (seams split Assimp's vertices; corners keep them apart here). A mesh of the
      // file without UVs gives (0, 0) corners when another one has them.
      for (unsigned k = 0; k < 3; ++k) {
        const aiVector3D* uv = mesh.mTextureCoords[0];
        out.corner_uvs.emplace_back(uv ? Real(uv[face.mIndices[k]].x) : Real(0), uv ? Real(uv[face.mIndices[k]].y) : Real(0));
      }
      has_uvs = has_uvs || mesh.mTextureCoords[0] != nullptr;
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) append_node(scene, *node.mChildren[c], world, out, has_uvs);
}

}  // namespace

Result<TriangleMesh> load_triangle_mesh(const std::string& path) {
  try {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
    if (scene == nullptr || scene->mRootNode == nullptr)
      return Error{path + ": cannot read mesh: " + importer.GetErrorString()};
    TriangleMesh mesh;
    bool has_uvs = false;
    append_node(*scene, *scene->mRootNode, aiMatrix4x4(), mesh, has_uvs);
    if (mesh.triangles.empty()) return Error{path + ": the file holds no triangles"};
    if (!has_uvs) mesh.corner_uvs.clear();
    return mesh;
  } catch (const std::exception& e) {
    return Error{path + ": cannot read mesh: " + e.what()};
  }
}

std::string save_obj(const TriangleMesh& mesh, const std::string& path) {
  std::ofstream out(path);
  if (!out) return path + ": cannot open for writing";
  out << "# " << mesh.vertices.size() << " vertices, " << mesh.triangles.size() << " triangles\n";
  out << std::setprecision(9);
  for (const Vec3& v : mesh.vertices) out << "v " << v.x() << ' ' << v.y() << ' ' << v.z() << '\n';
  for (const auto& t : mesh.triangles) out << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
  out.flush();
  return out ? std::string() : path + ": write failed";
}

}  // namespace sim
