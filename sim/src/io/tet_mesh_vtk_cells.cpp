// VTK cells to tets (see tet_mesh_vtk_cells.hpp).
#include "io/tet_mesh_vtk_cells.hpp"

#include <map>

#include "io/tet_mesh_text.hpp"
#include "sim/load_limits.hpp"

namespace sim::io {

namespace {
constexpr int kVtkTetra = 10, kVtkQuadraticTetra = 24;
}

void assemble_vtk_tets(const VtkCells& cells, TetMesh& mesh, TetSource& source, TetMeshReadReport* report) {
  source.file = cells.file;
  std::map<int, long long> skipped;
  bool noted_quadratic = false;
  const std::size_t n = cells.types.size();
  const auto at = [&](std::size_t c) {
    return cells.file + (c < cells.lines.size() && cells.lines[c] > 0 ? ":" + std::to_string(cells.lines[c]) : "") +
           ": cell " + std::to_string(c);
  };
  for (std::size_t c = 0; c < n; ++c) {
    const int type = cells.types[c];
    if (type != kVtkTetra && type != kVtkQuadraticTetra) {
      ++skipped[type];
      continue;
    }
    const std::int64_t begin = cells.offsets[c], count = cells.offsets[c + 1] - begin;
    const std::int64_t expected = type == kVtkTetra ? 4 : 10;
    if (count != expected)
      throw TetFileError{at(c) + ": cell type " + std::to_string(type) + " with " + std::to_string(count) + " points (" +
                         std::to_string(expected) + " expected)"};
    if (type == kVtkQuadraticTetra && !noted_quadratic && report != nullptr) {
      noted_quadratic = true;
      report->notes.push_back(at(c) + ": quadratic tetrahedra (type 24): their 4 corner points are used, the 6 edge points dropped");
    }
    if (static_cast<std::int64_t>(mesh.tets.size()) >= limits::kMaxTetMeshTets)
      throw TetFileError{at(c) + ": more than " + std::to_string(limits::kMaxTetMeshTets) + " tetrahedra (the limit)"};
    std::array<std::int32_t, 4> e{};
    for (int k = 0; k < 4; ++k) e[k] = static_cast<std::int32_t>(cells.connectivity[static_cast<std::size_t>(begin + k)]);
    mesh.tets.push_back(e);
    source.tet_lines.push_back(c < cells.lines.size() ? cells.lines[c] : 0);
    source.tet_ids.push_back(static_cast<std::int64_t>(c));
  }
  std::string listed;
  long long total = 0;
  for (const auto& [type, count] : skipped) {
    listed += " " + std::to_string(count) + " of type " + std::to_string(type);
    total += count;
  }
  if (mesh.tets.empty())
    throw TetFileError{cells.file + (cells.types_line > 0 ? ":" + std::to_string(cells.types_line) : "") + ": no tetrahedra (cell type 10) in the file" + (listed.empty() ? "" : "; it has" + listed)};
  if (report != nullptr && total > 0) {
    report->skipped_elements += static_cast<int>(total);
    report->notes.push_back(cells.file + ": skipped cells of other types:" + listed);
  }
}

}  // namespace sim::io
