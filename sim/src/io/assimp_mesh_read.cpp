// Assimp in a child process, its scene flattened and validated there, sent back as bytes and
// validated again here (see assimp_mesh_read.hpp).
#include "io/assimp_mesh_read.hpp"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

namespace sim::io {

namespace {

constexpr int kMaxNodeDepth = 256;
constexpr char kMeshTag = 'M', kErrorTag = 'E';

bool finite(const aiVector3D& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Child side: appends the triangles of `node` and its children; "" or what is wrong.
std::string collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, int depth,
                    std::size_t max_elements, AssimpMesh& out) {
  if (depth > kMaxNodeDepth) return "node hierarchy deeper than " + std::to_string(kMaxNodeDepth);
  const aiMatrix4x4 world = parent * node.mTransformation;
  if (node.mNumMeshes > 0 && node.mMeshes == nullptr) return "node '" + std::string(node.mName.C_Str()) + "' has no mesh list";
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const unsigned id = node.mMeshes[m];
    if (id >= scene.mNumMeshes || scene.mMeshes == nullptr || scene.mMeshes[id] == nullptr)
      return "node '" + std::string(node.mName.C_Str()) + "' names mesh " + std::to_string(id) + ", the file has " +
             std::to_string(scene.mNumMeshes);
    const aiMesh& mesh = *scene.mMeshes[id];
    const std::string where = "mesh " + std::to_string(id);
    if (mesh.mNumVertices > 0 && mesh.mVertices == nullptr) return where + " has no vertex array";
    if (mesh.mNumFaces > 0 && mesh.mFaces == nullptr) return where + " has no face array";
    const std::size_t base = out.vertices.size();
    if (base + mesh.mNumVertices + out.triangles.size() + mesh.mNumFaces > max_elements)
      return "more than " + std::to_string(max_elements) + " vertices and triangles (the limit for the file's size)";
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D p = world * mesh.mVertices[v];
      if (!finite(mesh.mVertices[v]) || !finite(p)) return where + ": vertex " + std::to_string(v) + " is not finite";
      out.vertices.push_back({p.x, p.y, p.z});
    }
    const aiVector3D* uv = mesh.mTextureCoords[0];
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      if (face.mIndices == nullptr) return where + ": face " + std::to_string(f) + " has no indices";
      std::array<std::int32_t, 3> t{};
      for (unsigned k = 0; k < 3; ++k) {
        const unsigned i = face.mIndices[k];
        if (i >= mesh.mNumVertices)
          return where + ": face " + std::to_string(f) + " uses vertex " + std::to_string(i) + ", the mesh has " +
                 std::to_string(mesh.mNumVertices);
        if (uv != nullptr && !finite(uv[i])) return where + ": texture coordinate " + std::to_string(i) + " is not finite";
        t[k] = static_cast<std::int32_t>(base + i);
        out.corner_uvs.push_back(uv != nullptr ? std::array<float, 2>{uv[i].x, uv[i].y} : std::array<float, 2>{0, 0});
      }
      out.triangles.push_back(t);
      out.triangle_has_uvs.push_back(uv != nullptr ? 1 : 0);
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) {
    if (node.mChildren == nullptr || node.mChildren[c] == nullptr) return "node '" + std::string(node.mName.C_Str()) + "' has a null child";
    if (std::string e = collect(scene, *node.mChildren[c], world, depth + 1, max_elements, out); !e.empty()) return e;
  }
  return {};
}

void send_error(int fd, const std::string& message) {
  const char tag = kErrorTag;
  write_all(fd, &tag, 1);
  write_all(fd, message.data(), message.size());
}

// Child side: Assimp, the flattening, the bytes.
void import_in_child(int fd, const std::string& path, const AssimpReadOptions& options, std::size_t max_elements) {
  Assimp::Importer importer;
  if (options.ignore_collada_up) importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  unsigned flags = aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType;
  if (options.drop_points_and_lines) importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFile(path, flags);
  if (scene == nullptr || scene->mRootNode == nullptr) {
    std::string why = importer.GetErrorString();
    if (why.empty()) why = "unreadable mesh file";
    return send_error(fd, "cannot read mesh: " + why);
  }
  AssimpMesh mesh;
  if (std::string e = collect(*scene, *scene->mRootNode, aiMatrix4x4(), 0, max_elements, mesh); !e.empty())
    return send_error(fd, e);
  const char tag = kMeshTag;
  const std::uint64_t counts[2] = {mesh.vertices.size(), mesh.triangles.size()};
  write_all(fd, &tag, 1);
  write_all(fd, counts, sizeof(counts));
  write_all(fd, mesh.vertices.data(), mesh.vertices.size() * sizeof(mesh.vertices[0]));
  write_all(fd, mesh.triangles.data(), mesh.triangles.size() * sizeof(mesh.triangles[0]));
  write_all(fd, mesh.triangle_has_uvs.data(), mesh.triangle_has_uvs.size());
  write_all(fd, mesh.corner_uvs.data(), mesh.corner_uvs.size() * sizeof(mesh.corner_uvs[0]));
}

}  // namespace

std::string decode_assimp_reply(const std::string& bytes, std::size_t max_elements, AssimpMesh& out) {
  std::uint64_t counts[2];
  if (bytes.size() < 1 + sizeof(counts)) return "the importer's reply is too short";
  std::memcpy(counts, bytes.data() + 1, sizeof(counts));
  const std::uint64_t nv = counts[0], nt = counts[1];
  if (nv > max_elements || nt > max_elements || nv + nt > max_elements)
    return "the importer's reply names " + std::to_string(nv) + " vertices and " + std::to_string(nt) + " triangles";
  constexpr std::size_t kPerVertex = 3 * sizeof(float), kPerTriangle = 3 * sizeof(std::int32_t) + 1 + 6 * sizeof(float);
  if (bytes.size() != 1 + sizeof(counts) + nv * kPerVertex + nt * kPerTriangle)
    return "the importer's reply has " + std::to_string(bytes.size()) + " bytes, not what its counts need";
  const char* p = bytes.data() + 1 + sizeof(counts);
  auto take = [&p](auto& v, std::size_t n) {
    v.resize(n);
    if (n == 0) return;  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(v.data(), p, n * sizeof(v[0]));
    p += n * sizeof(v[0]);
  };
  take(out.vertices, nv);
  take(out.triangles, nt);
  take(out.triangle_has_uvs, nt);
  take(out.corner_uvs, 3 * nt);
  for (const auto& v : out.vertices)
    if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2])) return "non-finite vertex";
  for (const auto& t : out.triangles)
    for (std::int32_t i : t)
      if (i < 0 || static_cast<std::uint64_t>(i) >= nv) return "triangle index " + std::to_string(i) + " out of range";
  for (const auto& uv : out.corner_uvs)
    if (!std::isfinite(uv[0]) || !std::isfinite(uv[1])) return "non-finite texture coordinate";
  return {};
}

std::size_t max_mesh_elements(std::size_t file_bytes) {
  const std::size_t cap = static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());
  return file_bytes >= (cap - 1000000) / 64 ? cap : 1000000 + 64 * file_bytes;
}

ChildLimits mesh_import_limits(std::size_t file_bytes) {
  ChildLimits l;
  l.wall_seconds = 5.0 + double(file_bytes) / 4e6;
  l.extra_address_space = (std::size_t(1) << 30) + 32 * file_bytes;
  // The reply: 12 bytes a vertex, 37 a triangle, for at most max_mesh_elements of them.
  l.max_output_bytes = 64 + 40 * max_mesh_elements(file_bytes);
  return l;
}

Result<AssimpMesh> read_mesh_with_assimp(const std::string& path, const AssimpReadOptions& options) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Error{path + ": cannot read mesh: " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return Error{path + ": cannot read mesh: not a regular file"};
  const std::size_t file_bytes = static_cast<std::size_t>(st.st_size);
  const std::size_t max_elements = max_mesh_elements(file_bytes);
  const ChildLimits limits = mesh_import_limits(file_bytes);
  const ChildOutcome o =
      run_in_child([&](int fd) { import_in_child(fd, path, options, max_elements); }, limits);
  if (o.kind != ChildOutcome::Kind::finished) {
    // Assimp's own last words (an ai_assert's text) where it printed any.
    std::string said = o.messages;
    while (!said.empty() && (said.back() == '\n' || said.back() == '\r' || said.back() == ' ')) said.pop_back();
    said = said.substr(said.find_last_of('\n') == std::string::npos ? 0 : said.find_last_of('\n') + 1);
    if (said.size() > 300) said = said.substr(0, 300) + "...";
    return Error{path + ": the mesh importer (Assimp) " + describe(o, limits) + (said.empty() ? "" : ": " + said)};
  }
  if (o.output.empty()) return Error{path + ": the mesh importer (Assimp) returned nothing"};
  if (o.output[0] == kErrorTag) {
    std::string message = o.output.substr(1);
    if (message.find("bad_alloc") != std::string::npos)
      message += " (out of memory under the import limit of " + std::to_string(limits.extra_address_space >> 20) + " MiB)";
    return Error{path + ": " + message};
  }
  if (o.output[0] != kMeshTag) return Error{path + ": the mesh importer (Assimp) sent an unknown reply"};
  AssimpMesh mesh;
  if (std::string e = decode_assimp_reply(o.output, max_elements, mesh); !e.empty()) return Error{path + ": " + e};
  return mesh;
}

}  // namespace sim::io
