// Gmsh MSH 4.1 ASCII writer: one node block and one tetrahedron block (element type 4), node and
// element tags 1..n; coordinates in the shortest form that reads back to the same double
// (std::to_chars), so read_gmsh_msh returns the same mesh. Written atomically through
// write_file_atomically (temporary file, every byte checked, fsync, rename).
#include <charconv>

#include "sim/atomic_file.hpp"
#include "sim/tet_mesh_io.hpp"

namespace sim {

namespace {
void append_number(std::string& out, double v) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  out.append(buffer, r.ptr);
}
void append_number(std::string& out, long long v) {
  char buffer[24];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  out.append(buffer, r.ptr);
}
}  // namespace

std::string write_gmsh_msh(const TetMesh& mesh, const std::string& path) {
  const auto n = static_cast<long long>(mesh.points.size());
  const auto m = static_cast<long long>(mesh.tets.size());
  for (const auto& e : mesh.tets)
    for (std::int32_t i : e)
      if (i < 0 || i >= n) return path + ": cannot write: a tet names node " + std::to_string(i) + " of " + std::to_string(n);
  for (const Vec3& p : mesh.points)
    if (!p.allFinite()) return path + ": cannot write: a node is not finite";
  std::string out;
  out.reserve(static_cast<std::size_t>(n) * 64 + static_cast<std::size_t>(m) * 40 + 256);
  out += "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 ";
  append_number(out, n);
  out += " 1 ";
  append_number(out, n);
  out += "\n3 1 0 ";
  append_number(out, n);
  out += '\n';
  for (long long i = 1; i <= n; ++i) {
    append_number(out, i);
    out += '\n';
  }
  for (const Vec3& p : mesh.points) {
    for (int k = 0; k < 3; ++k) {
      append_number(out, static_cast<double>(p[k]));
      out += k < 2 ? ' ' : '\n';
    }
  }
  out += "$EndNodes\n$Elements\n1 ";
  append_number(out, m);
  out += " 1 ";
  append_number(out, m);
  out += "\n3 1 4 ";
  append_number(out, m);
  out += '\n';
  for (long long t = 0; t < m; ++t) {
    append_number(out, t + 1);
    for (std::int32_t i : mesh.tets[static_cast<std::size_t>(t)]) {
      out += ' ';
      append_number(out, static_cast<long long>(i) + 1);
    }
    out += '\n';
  }
  out += "$EndElements\n";
  return sim::write_file_atomically(path, {out});
}

}  // namespace sim
