// Checking, orienting and compacting a tet mesh just read, and its boundary (see tet_mesh_finish.hpp).
#include "io/tet_mesh_finish.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/tet_mesh_text.hpp"

namespace sim::io {

std::string TetSource::where(std::size_t tet) const {
  std::string s = file;
  if (tet < tet_lines.size() && tet_lines[tet] > 0) s += ":" + std::to_string(tet_lines[tet]);
  s += ": tet " + std::to_string(tet);
  if (tet < tet_ids.size()) s += " (element " + std::to_string(tet_ids[tet]) + ")";
  return s;
}

void finish_tet_mesh(TetMesh& mesh, const TetSource& source, TetMeshReadReport* report) {
  if (mesh.tets.empty()) throw TetFileError{source.file + ": no tetrahedra in the file"};
  const std::size_t n = mesh.points.size();
  int inverted = 0;
  std::size_t first_inverted = 0;
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    auto& e = mesh.tets[t];
    for (int a = 0; a < 4; ++a) {
      if (e[a] < 0 || static_cast<std::size_t>(e[a]) >= n)
        throw TetFileError{source.where(t) + ": node index " + std::to_string(e[a]) + " is out of range (0.." +
                           std::to_string(n) + ")"};
      for (int b = 0; b < a; ++b)
        if (e[a] == e[b]) throw TetFileError{source.where(t) + ": node " + std::to_string(e[a]) + " appears twice"};
    }
    const Vec3 &p0 = mesh.points[e[0]], &p1 = mesh.points[e[1]], &p2 = mesh.points[e[2]], &p3 = mesh.points[e[3]];
    const Real v = tet_signed_volume(p0, p1, p2, p3);
    Real longest = 0;
    const Vec3* q[4] = {&p0, &p1, &p2, &p3};
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) longest = std::max(longest, (*q[a] - *q[b]).norm());
    if (!(std::abs(v) > Real(1e-12) * longest * longest * longest)) {
      char text[64];
      std::snprintf(text, sizeof text, "%.3g", static_cast<double>(v));
      throw TetFileError{source.where(t) + ": degenerate (volume " + text + " m^3, its nodes are coplanar)"};
    }
    if (v < 0) {
      std::swap(e[2], e[3]);
      if (inverted++ == 0) first_inverted = t;
    }
  }
  // Nodes no tet uses (a surface's or a line's nodes) would become free particles: dropped.
  std::vector<std::int32_t> new_index(n, -1);
  for (const auto& e : mesh.tets)
    for (std::int32_t i : e) new_index[i] = 0;
  std::int32_t used = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (new_index[i] == 0) {
      mesh.points[used] = mesh.points[i];
      new_index[i] = used++;
    }
  const int dropped = static_cast<int>(n) - used;
  if (dropped > 0) {
    mesh.points.resize(static_cast<std::size_t>(used));
    for (auto& e : mesh.tets)
      for (std::int32_t& i : e) i = new_index[i];
  }
  if (std::string e = compute_tet_mesh_boundary(mesh); !e.empty()) throw TetFileError{source.file + ": " + e};
  if (report != nullptr) {
    report->inverted_tets = inverted;
    report->dropped_nodes = dropped;
    if (inverted > 0)
      report->notes.push_back(source.where(first_inverted) + ": inverted; " + std::to_string(inverted) + " of " +
                              std::to_string(mesh.tets.size()) +
                              " tets were inverted and were turned positive by swapping their nodes 3 and 4");
    if (dropped > 0)
      report->notes.push_back(source.file + ": " + std::to_string(dropped) + " nodes used by no tetrahedron were dropped");
  }
}

}  // namespace sim::io
