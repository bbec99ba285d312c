// VTK legacy unstructured grid reader (.vtk, ASCII; file format versions up to 4.2 with CELLS as
// counted lists, and 5.1 with OFFSETS and CONNECTIVITY arrays): POINTS, CELLS and CELL_TYPES;
// tetrahedra are cell type 10 (VTK_TETRA; type 24, the quadratic tet, keeps its 4 corners, said);
// other cell types are skipped and counted; FIELD, METADATA and point/cell data are ignored.
// Format: https://vtk.org/wp-content/uploads/2015/04/file-formats.pdf
#include <map>

#include "io/tet_mesh_finish.hpp"
#include "io/tet_mesh_text.hpp"
#include "io/tet_mesh_vtk_cells.hpp"
#include "sim/load_limits.hpp"

namespace sim {

namespace {

using io::TetFileError;
using io::TokenReader;

bool is_keyword(std::string_view t) {
  return t == "POINTS" || t == "CELLS" || t == "CELL_TYPES" || t == "POINT_DATA" || t == "CELL_DATA" ||
         t == "FIELD" || t == "METADATA";
}

// Skips tokens up to the next section keyword (METADATA blocks, FIELD arrays).
void skip_to_keyword(TokenReader& in) {
  while (!in.at_end()) {
    const TokenReader::Mark m = in.mark();
    if (is_keyword(in.token(""))) {
      in.reset(m);
      return;
    }
  }
}

}  // namespace

Result<TetMesh> read_vtk_tet_mesh(const std::string& path, TetMeshReadReport* report) {
  try {
    const std::string text = io::read_tet_mesh_file(path);
    TokenReader in(text, path);
    const std::string_view magic = in.rest_of_line();
    if (magic.rfind("# vtk DataFile Version", 0) != 0)
      throw TetFileError{path + ":1: not a VTK legacy file (no '# vtk DataFile Version' line)"};
    const bool v5 = magic.find("Version 5") != std::string_view::npos;
    (void)in.rest_of_line();  // title
    const std::string_view encoding = in.token("header");
    if (encoding == "BINARY") in.fail("header", "BINARY VTK files are not read (ASCII and .vtu are)");
    if (encoding != "ASCII") in.fail("header", "expected ASCII, found '" + std::string(encoding.substr(0, 40)) + "'");
    in.expect("DATASET", "header");
    const std::string_view dataset = in.token("DATASET");
    if (dataset != "UNSTRUCTURED_GRID")
      in.fail("DATASET", std::string(dataset.substr(0, 40)) + " is not an unstructured grid (UNSTRUCTURED_GRID)");
    TetMesh mesh;
    io::VtkCells cells;
    cells.file = path;
    bool have_points = false, have_cells = false, have_types = false;
    while (!in.at_end()) {
      const std::string_view key = in.token("section");
      if (key == "POINTS") {
        if (have_points) in.fail("POINTS", "a second POINTS section");
        have_points = true;
        const std::int64_t n = in.count("POINTS", "point count", limits::kMaxTetMeshNodes, 6);
        (void)in.token("POINTS");  // float, double, ...
        mesh.points.reserve(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) mesh.points.push_back(in.point("POINTS"));
      } else if (key == "CELLS") {
        if (!have_points) in.fail("CELLS", "comes before POINTS");
        if (have_cells) in.fail("CELLS", "a second CELLS section");
        have_cells = true;
        const long long points = static_cast<long long>(mesh.points.size());
        if (!v5) {
          const std::int64_t n = in.count("CELLS", "cell count", limits::kMaxTetMeshFileElements, 4);
          const std::int64_t size = in.count("CELLS", "list size", limits::kMaxTetMeshFileElements * 11, 2);
          cells.offsets.reserve(static_cast<std::size_t>(n) + 1);
          cells.offsets.push_back(0);
          cells.connectivity.reserve(static_cast<std::size_t>(size - n > 0 ? size - n : 0));
          for (std::int64_t c = 0; c < n; ++c) {
            const long long k = in.integer_in("CELLS", "point count", 0, 1000);
            cells.lines.push_back(in.line());
            for (long long j = 0; j < k; ++j)
              cells.connectivity.push_back(
                  in.integer_in("CELLS", "point", 0, points - 1));
            cells.offsets.push_back(static_cast<std::int64_t>(cells.connectivity.size()));
          }
          if (static_cast<std::int64_t>(cells.connectivity.size()) + n != size)
            in.fail("CELLS", "the cells hold " + std::to_string(cells.connectivity.size() + static_cast<std::size_t>(n)) +
                                 " numbers, the header says " + std::to_string(size));
        } else {
          const std::int64_t n_offsets = in.count("CELLS", "offset count", limits::kMaxTetMeshFileElements + 1, 2);
          const std::int64_t n_conn = in.count("CELLS", "connectivity size", limits::kMaxTetMeshFileElements * 10, 2);
          in.expect("OFFSETS", "CELLS");
          (void)in.token("OFFSETS");
          std::int64_t previous = 0;
          for (std::int64_t i = 0; i < n_offsets; ++i) {
            const long long o = in.integer_in("OFFSETS", "offset", previous, n_conn);
            if (i == 0 && o != 0) in.fail("OFFSETS", "the first offset is " + std::to_string(o) + ", not 0");
            cells.offsets.push_back(o);
            cells.lines.push_back(in.line());
            previous = o;
          }
          if (n_offsets > 0) cells.lines.pop_back();
          if (n_offsets > 0 && previous != n_conn)
            in.fail("OFFSETS", "the last offset is " + std::to_string(previous) + ", the connectivity has " +
                                   std::to_string(n_conn));
          in.expect("CONNECTIVITY", "CELLS");
          (void)in.token("CONNECTIVITY");
          cells.connectivity.reserve(static_cast<std::size_t>(n_conn));
          for (std::int64_t i = 0; i < n_conn; ++i)
            cells.connectivity.push_back(in.integer_in("CONNECTIVITY", "point", 0, points - 1));
          if (cells.offsets.empty()) cells.offsets.push_back(0);
        }
      } else if (key == "CELL_TYPES") {
        if (!have_cells) in.fail("CELL_TYPES", "comes before CELLS");
        if (have_types) in.fail("CELL_TYPES", "a second CELL_TYPES section");
        have_types = true;
        cells.types_line = in.line();
        const std::int64_t n = in.count("CELL_TYPES", "cell count", limits::kMaxTetMeshFileElements, 2);
        if (n != static_cast<std::int64_t>(cells.offsets.size()) - 1)
          in.fail("CELL_TYPES", std::to_string(n) + " cell types for " + std::to_string(cells.offsets.size() - 1) + " cells");
        cells.types.reserve(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) cells.types.push_back(static_cast<int>(in.integer_in("CELL_TYPES", "cell type", 0, 255)));
      } else if (key == "POINT_DATA" || key == "CELL_DATA") {
        break;  // attributes: not part of the mesh
      } else if (key == "FIELD" || key == "METADATA") {
        skip_to_keyword(in);
      } else {
        in.fail("section", "unknown keyword '" + std::string(key.substr(0, 40)) + "'");
      }
    }
    if (!have_points || !have_cells || !have_types)
      throw TetFileError{path + ": no " + (!have_points ? "POINTS" : !have_cells ? "CELLS" : "CELL_TYPES") +
                         " section (truncated?)"};
    io::TetSource source;
    io::assemble_vtk_tets(cells, mesh, source, report);
    io::finish_tet_mesh(mesh, source, report);
    if (report != nullptr) report->format = v5 ? "VTK legacy 5.1 ASCII" : "VTK legacy ASCII";
    mesh.source = path;
    return mesh;
  } catch (const TetFileError& e) {
    return Error{e.message};
  }
}

}  // namespace sim
