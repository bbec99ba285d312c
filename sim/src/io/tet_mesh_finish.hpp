// What every tet-mesh reader does after parsing (and the generator after TetGen): each tet checked
// (distinct nodes, not degenerate), inverted tets turned positive (nodes 2 and 3 swapped, and
// said), nodes no tet uses dropped (and said), the boundary faces computed. Problems name the
// file, the line and the element through TetSource.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/tet_mesh_io.hpp"

namespace sim::io {

// Where each tet came from, for messages ("cube.msh:31: tet 4 (element 17)").
struct TetSource {
  std::string file;
  std::vector<std::int32_t> tet_lines;  // line (or 0: unknown), one per tet
  std::vector<std::int64_t> tet_ids;    // the file's element number, one per tet
  std::string where(std::size_t tet) const;
};

// Throws TetFileError naming the tet for a repeated node or a degenerate tet (|volume| at most
// 1e-12 of its longest edge cubed), and for a file without tets.
void finish_tet_mesh(TetMesh& mesh, const TetSource& source, TetMeshReadReport* report);

}  // namespace sim::io
