// Triangle meshes from files through Assimp (every format it reads, in a child process:
// io/assimp_mesh_read.hpp), and a plain OBJ writer for generated meshes.
#include <array>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <map>
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
  weld_vertices(mesh, weld_tolerance(mesh));
  if (mesh.triangles.empty()) return Error{path + ": every triangle of the file is degenerate (two corners at one point)"};
  return mesh;
}

Real weld_tolerance(const TriangleMesh& mesh) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<Real>::infinity()), hi = -lo;
  for (const Vec3& v : mesh.vertices)
    if (v.allFinite()) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  const Real extent = (hi - lo).maxCoeff();
  return std::isfinite(extent) && extent > 0 ? kWeldRelativeTolerance * extent : Real(0);
}

int weld_vertices(TriangleMesh& mesh, Real tolerance) {
  // Each vertex joins the first earlier kept vertex within `tolerance` (Euclidean), found through
  // a hash of cells of that size (the 27 cells around it); tolerance 0: equal positions only
  // (+0 and −0 are equal). Non-finite vertices stay as they are.
  // Cells are counted from the box's low corner, so a key stays within extent / tolerance (< 1e15,
  // else exact: no cell index can overflow, whatever the coordinates).
  Vec3 lo = Vec3::Constant(std::numeric_limits<Real>::infinity()), hi = -lo;
  for (const Vec3& v : mesh.vertices)
    if (v.allFinite()) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  const bool exact = !(tolerance > 0) || !((hi - lo).maxCoeff() / tolerance < Real(1e15));
  const Real cell = exact ? Real(1) : tolerance;
  using Key = std::array<std::int64_t, 3>;
  auto key_of = [&](const Vec3& x) {
    const Vec3 r = (x - lo) / cell;
    return Key{static_cast<std::int64_t>(std::floor(r.x())), static_cast<std::int64_t>(std::floor(r.y())),
               static_cast<std::int64_t>(std::floor(r.z()))};
  };
  std::map<Key, std::vector<int>> cells;  // ordered: no hash of the keys to get wrong, deterministic
  std::map<std::array<Real, 3>, int> same;
  std::vector<int> welded(mesh.vertices.size());
  std::vector<Vec3> vertices;
  vertices.reserve(mesh.vertices.size());
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    const Vec3& x = mesh.vertices[v];
    int found = -1;
    if (!x.allFinite()) {
      // never merged (no order or distance holds for NaN); check_mesh reports it
    } else if (exact) {
      const auto [it, inserted] = same.emplace(std::array<Real, 3>{x.x(), x.y(), x.z()}, static_cast<int>(vertices.size()));
      if (!inserted) found = it->second;
    } else {
      const Key k = key_of(x);
      for (std::int64_t dx = -1; dx <= 1 && found < 0; ++dx)
        for (std::int64_t dy = -1; dy <= 1 && found < 0; ++dy)
          for (std::int64_t dz = -1; dz <= 1 && found < 0; ++dz) {
            const auto it = cells.find(Key{k[0] + dx, k[1] + dy, k[2] + dz});
            if (it == cells.end()) continue;
            for (int j : it->second)
              if ((vertices[static_cast<std::size_t>(j)] - x).norm() <= tolerance) {
                found = j;
                break;
              }
          }
      if (found < 0) cells[k].push_back(static_cast<int>(vertices.size()));
    }
    if (found < 0) {
      found = static_cast<int>(vertices.size());
      vertices.push_back(x);
    }
    welded[v] = found;
  }
  const int merged = static_cast<int>(mesh.vertices.size() - vertices.size());
  const bool uvs = mesh.corner_uvs.size() == 3 * mesh.triangles.size() && !mesh.corner_uvs.empty();
  std::size_t kept = 0;
  for (std::size_t f = 0; f < mesh.triangles.size(); ++f) {
    std::array<int, 3> t = mesh.triangles[f];
    for (int& i : t) i = i >= 0 && static_cast<std::size_t>(i) < welded.size() ? welded[static_cast<std::size_t>(i)] : i;
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;  // collapsed by the weld (or already degenerate)
    if (uvs)
      for (std::size_t k = 0; k < 3; ++k) mesh.corner_uvs[3 * kept + k] = mesh.corner_uvs[3 * f + k];
    mesh.triangles[kept++] = t;
  }
  mesh.triangles.resize(kept);
  if (uvs) mesh.corner_uvs.resize(3 * kept);
  mesh.vertices = std::move(vertices);
  return merged;
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
