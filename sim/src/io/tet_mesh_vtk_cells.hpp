// VTK cells (offsets, connectivity, types) to tets, shared by the legacy (.vtk) and XML (.vtu)
// readers: VTK_TETRA (10) with 4 points, VTK_QUADRATIC_TETRA (24) with 10 (its 4 corners, said);
// other cell types skipped and counted in the report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/tet_mesh_finish.hpp"

namespace sim::io {

struct VtkCells {
  std::string file;
  std::vector<std::int64_t> offsets;       // cell c is connectivity[offsets[c], offsets[c + 1])
  std::vector<std::int64_t> connectivity;  // point indices, checked against the point count
  std::vector<int> types;                  // one per cell
  std::vector<std::int32_t> lines;         // line of each cell (0: unknown)
  int types_line = 0;                      // the cell types' line, for a file without tets
};

// Appends the tets to mesh.tets (and their lines and cell numbers to source); throws TetFileError
// for a tet with another point count and for a file without tets (naming the types it has).
void assemble_vtk_tets(const VtkCells& cells, TetMesh& mesh, TetSource& source, TetMeshReadReport* report);

}  // namespace sim::io
