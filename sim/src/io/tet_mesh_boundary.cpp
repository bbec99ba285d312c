// The boundary of a tet mesh: faces on exactly one tet, counter-clockwise seen from outside
// (the tet's own face order, sim/tet_mesh.hpp kTetFaces), found by sorting the faces' node triples.
#include <algorithm>
#include <array>
#include <cstdint>

#include "sim/tet_mesh_io.hpp"

namespace sim {

std::string compute_tet_mesh_boundary(TetMesh& mesh) {
  struct Face {
    std::array<std::int32_t, 3> key;  // sorted nodes
    std::int32_t tet;
    std::int8_t local;
  };
  std::vector<Face> faces;
  faces.reserve(mesh.tets.size() * 4);
  const auto n = static_cast<std::int64_t>(mesh.points.size());
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    const auto& e = mesh.tets[t];
    for (std::int32_t i : e)
      if (i < 0 || i >= n) return "tet " + std::to_string(t) + ": node index " + std::to_string(i) + " is out of range";
    for (int f = 0; f < 4; ++f) {
      std::array<std::int32_t, 3> k{e[kTetFaces[f][0]], e[kTetFaces[f][1]], e[kTetFaces[f][2]]};
      std::sort(k.begin(), k.end());
      faces.push_back({k, static_cast<std::int32_t>(t), static_cast<std::int8_t>(f)});
    }
  }
  std::sort(faces.begin(), faces.end(), [](const Face& a, const Face& b) {
    return a.key != b.key ? a.key < b.key : a.tet < b.tet;
  });
  mesh.surface.clear();
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i + 1;
    while (j < faces.size() && faces[j].key == faces[i].key) ++j;
    if (j - i > 2)
      return "face (" + std::to_string(faces[i].key[0]) + ", " + std::to_string(faces[i].key[1]) + ", " +
             std::to_string(faces[i].key[2]) + ") is shared by " + std::to_string(j - i) + " tets (tets " +
             std::to_string(faces[i].tet) + ", " + std::to_string(faces[i + 1].tet) + ", " +
             std::to_string(faces[i + 2].tet) + "): the mesh is not a manifold";
    if (j - i == 1) {
      const auto& e = mesh.tets[faces[i].tet];
      const int* f = kTetFaces[faces[i].local];
      mesh.surface.push_back({e[f[0]], e[f[1]], e[f[2]]});
    }
    i = j;
  }
  return {};
}

Real tet_mesh_volume(const TetMesh& mesh) {
  Real v = 0;
  for (const auto& e : mesh.tets)
    v += tet_signed_volume(mesh.points[e[0]], mesh.points[e[1]], mesh.points[e[2]], mesh.points[e[3]]);
  return v;
}

}  // namespace sim
