// Reading and writing tetrahedral meshes: Gmsh .msh (2.2 and 4.1, ASCII and binary), TetGen
// .node/.ele, VTK legacy unstructured grids (.vtk, ASCII) and VTK XML (.vtu, ASCII); writing Gmsh
// 4.1 ASCII. Every reader is hardened like the scene loaders (docs/LIMITS.md): special files are
// refused, counts are checked against limits::kMaxTetMesh* and the bytes left before anything
// is allocated, and a malformed file (truncated, a bad index, a non-finite coordinate, a
// degenerate tet, no tets at all) is an Error "file:line: element: what". What a reader repairs
// or skips is reported, never silent: inverted tets get two nodes swapped, other element types
// and nodes no tet uses are dropped, 10-node tets keep their 4 corners (TetMeshReadReport).
#pragma once

#include <string>
#include <vector>

#include "sim/result.hpp"
#include "sim/tet_mesh.hpp"

namespace sim {

struct TetMeshReadReport {
  std::string format;               // "Gmsh MSH 4.1 ASCII", "TetGen .node/.ele", ...
  std::vector<std::string> notes;   // "file:line: ...": what was skipped or repaired
  int inverted_tets = 0;            // tets whose nodes 2 and 3 were swapped to orient them
  int dropped_nodes = 0;            // nodes no tet uses
  int skipped_elements = 0;         // elements of other types (surface triangles, lines, ...)
};

// By extension: .msh, .node or .ele (the pair with the same base name), .vtk, .vtu.
Result<TetMesh> read_tet_mesh(const std::string& path, TetMeshReadReport* report = nullptr);
Result<TetMesh> read_gmsh_msh(const std::string& path, TetMeshReadReport* report = nullptr);
// `path` is the .node or the .ele file; the other is found by replacing the extension.
Result<TetMesh> read_tetgen_mesh(const std::string& path, TetMeshReadReport* report = nullptr);
Result<TetMesh> read_vtk_tet_mesh(const std::string& path, TetMeshReadReport* report = nullptr);
Result<TetMesh> read_vtu_tet_mesh(const std::string& path, TetMeshReadReport* report = nullptr);

// Whether read_tet_mesh knows the extension (.msh, .node, .ele, .vtk, .vtu).
bool is_tet_mesh_path(const std::string& path);

// Gmsh MSH 4.1 ASCII (nodes and 4-node tetrahedra, coordinates to 17 significant digits, so a
// read gives back the same mesh), written atomically (temporary file, fsync, rename). Returns an
// error message, empty on success.
std::string write_gmsh_msh(const TetMesh& mesh, const std::string& path);

// Fills mesh.surface with the faces on exactly one tet, counter-clockwise seen from outside.
// Returns an error message (a face shared by three or more tets, an index out of range), empty on
// success.
std::string compute_tet_mesh_boundary(TetMesh& mesh);

// Sum of the tets' volumes [m^3].
Real tet_mesh_volume(const TetMesh& mesh);

}  // namespace sim
