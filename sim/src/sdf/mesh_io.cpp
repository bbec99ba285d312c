// Triangle meshes from files through Assimp (every format it reads, in a child process:
// io/assimp_mesh_read.hpp), and a plain OBJ writer for generated meshes.
#include <iomanip>
#include <sstream>

#include "sdf/mesh_io.hpp"

#include "sim/atomic_file.hpp"
#include "sim/sdf.hpp"

namespace sim {

Result<TriangleMesh> load_triangle_mesh(const std::string& path) {
  auto read = io::read_mesh_with_assimp(path, {});
  if (!read) return Error{read.error()};
  return triangle_mesh_from_assimp(read.value(), path);
}

Result<TriangleMesh> triangle_mesh_from_assimp(const io::AssimpMesh& in, const std::string& path) {
  if (in.triangles.empty()) return Error{path + ": the file holds no triangles"};
  TriangleMesh mesh;
  mesh.vertices.reserve(in.vertices.size());
  for (const auto& v : in.vertices) mesh.vertices.emplace_back(Real(v[0]), Real(v[1]), Real(v[2]));
  mesh.triangles.reserve(in.triangles.size());
  for (const auto& t : in.triangles) mesh.triangles.push_back({t[0], t[1], t[2]});
  // UVs per corner (seams split Assimp's vertices; corners keep them apart here). A mesh of the
  // file without UVs gives (0, 0) corners when another one has them.
  bool has_uvs = false;
  for (std::uint8_t h : in.triangle_has_uvs) has_uvs = has_uvs || h != 0;
  if (has_uvs)
    for (const auto& uv : in.corner_uvs) mesh.corner_uvs.emplace_back(Real(uv[0]), Real(uv[1]));
  return mesh;
}

std::string save_obj(const TriangleMesh& mesh, const std::string& path) {
  std::ostringstream out;
  out << "# " << mesh.vertices.size() << " vertices, " << mesh.triangles.size() << " triangles\n";
  out << std::setprecision(9);
  for (const Vec3& v : mesh.vertices) out << "v " << v.x() << ' ' << v.y() << ' ' << v.z() << '\n';
  for (const auto& t : mesh.triangles) out << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
  return write_file_atomically(path, {out.view()});
}

}  // namespace sim
