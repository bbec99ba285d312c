// Picking the tet-mesh reader by the file's extension.
#include <algorithm>
#include <cctype>

#include "sim/tet_mesh_io.hpp"

namespace sim {

namespace {
std::string lower_extension(const std::string& path) {
  const std::size_t slash = path.find_last_of('/'), dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}
}  // namespace

bool is_tet_mesh_path(const std::string& path) {
  const std::string ext = lower_extension(path);
  return ext == ".msh" || ext == ".node" || ext == ".ele" || ext == ".vtk" || ext == ".vtu";
}

Result<TetMesh> read_tet_mesh(const std::string& path, TetMeshReadReport* report) {
  const std::string ext = lower_extension(path);
  if (ext == ".msh") return read_gmsh_msh(path, report);
  if (ext == ".node" || ext == ".ele") return read_tetgen_mesh(path, report);
  if (ext == ".vtk") return read_vtk_tet_mesh(path, report);
  if (ext == ".vtu") return read_vtu_tet_mesh(path, report);
  return Error{path + ": not a tet mesh file (.msh, .node/.ele, .vtk or .vtu expected)"};
}

}  // namespace sim
