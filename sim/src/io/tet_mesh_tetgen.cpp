// TetGen .node/.ele reader (https://wias-berlin.de/software/tetgen/fformats.html): '#' comments,
// 0- or 1-based numbering (the first node's number, as TetGen decides), node attributes and
// boundary markers skipped, 4 or 10 nodes per tet (10: the 4 corners, said), region attributes
// skipped.
#include "io/tet_mesh_finish.hpp"
#include "io/tet_mesh_text.hpp"
#include "sim/load_limits.hpp"

namespace sim {

namespace {

using io::TetFileError;
using io::TokenReader;

std::string with_extension(const std::string& path, const char* ext) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  const std::string base = dot != std::string::npos && (slash == std::string::npos || dot > slash) ? path.substr(0, dot) : path;
  return base + ext;
}

}  // namespace

Result<TetMesh> read_tetgen_mesh(const std::string& path, TetMeshReadReport* report) {
  const std::string node_path = with_extension(path, ".node"), ele_path = with_extension(path, ".ele");
  try {
    TetMesh mesh;
    io::NodeTagMap tags;
    {
      const std::string text = io::read_tet_mesh_file(node_path);
      TokenReader in(text, node_path, '#');
      const std::int64_t n = in.count("header", "number of points", limits::kMaxTetMeshNodes, 8);
      const long long dim = in.integer("header", "dimension");
      if (dim != 3) in.fail("header", "dimension " + std::to_string(dim) + " (a tet mesh needs 3)");
      const long long attributes = in.integer_in("header", "number of attributes", 0, 1000);
      const long long markers = in.integer_in("header", "boundary markers", 0, 1);
      mesh.points.reserve(static_cast<std::size_t>(n));
      tags.reserve(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        const long long number = in.integer("node", "point number");
        const Vec3 p = in.point("node");
        for (long long a = 0; a < attributes; ++a) (void)in.real("node", "attribute");
        if (markers) (void)in.integer("node", "boundary marker");
        if (!tags.insert(number, static_cast<std::int32_t>(mesh.points.size())))
          in.fail("node", "point number " + std::to_string(number) + " appears twice");
        mesh.points.push_back(p);
      }
    }
    const std::string text = io::read_tet_mesh_file(ele_path);
    TokenReader in(text, ele_path, '#');
    const std::int64_t n = in.count("header", "number of tetrahedra", limits::kMaxTetMeshTets, 10);
    const long long corners = in.integer("header", "nodes per tetrahedron");
    if (corners != 4 && corners != 10)
      in.fail("header", "nodes per tetrahedron " + std::to_string(corners) + " (4 or 10 expected)");
    const long long regions = in.integer_in("header", "region attribute", 0, 1);
    if (corners == 10 && report != nullptr)
      report->notes.push_back(in.where("header") + "10-node tetrahedra: their 4 corner nodes are used, the 6 edge nodes dropped");
    mesh.tets.reserve(static_cast<std::size_t>(n));
    io::TetSource source;
    source.file = ele_path;
    source.tet_lines.reserve(static_cast<std::size_t>(n));
    source.tet_ids.reserve(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const long long number = in.integer("tetrahedron", "tetrahedron number");
      std::array<std::int32_t, 4> e{};
      for (long long k = 0; k < corners; ++k) {
        const long long node = in.integer("tetrahedron", "node");
        if (k >= 4) continue;
        e[k] = tags.find(node);
        if (e[k] < 0)
          in.fail("tetrahedron",
                  "node " + std::to_string(node) + " is not in " + node_path.substr(node_path.find_last_of('/') + 1));
      }
      if (regions) (void)in.real("tetrahedron", "region attribute");
      mesh.tets.push_back(e);
      source.tet_lines.push_back(in.line());
      source.tet_ids.push_back(number);
    }
    if (!in.at_end()) {
      (void)in.token("");
      in.fail("", "more lines than the " + std::to_string(n) + " tetrahedra the header announces");
    }
    if (report != nullptr) report->format = "TetGen .node/.ele";
    io::finish_tet_mesh(mesh, source, report);
    mesh.source = ele_path;
    return mesh;
  } catch (const TetFileError& e) {
    return Error{e.message};
  }
}

}  // namespace sim
