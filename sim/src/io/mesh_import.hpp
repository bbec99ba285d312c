// Mesh files for robot import: reading any format Assimp knows (STL, OBJ, DAE, glTF, ...) into
// one triangle list, and turning a mesh into collision shapes (its convex hull, or a convex
// decomposition when it is clearly non-convex).
#pragma once

#include <string>
#include <vector>

#include "io/assimp_mesh_read.hpp"
#include "sim/result.hpp"
#include "sim/robot_import.hpp"

namespace sim::io {

// Every triangle of every mesh in the file, node transforms applied, then scaled per axis by
// `scale` (a negative product flips the winding, so triangles stay counter-clockwise from
// outside). Vertices at the same position (within weld_tolerance, sdf/mesh_io.hpp) are shared, so
// a closed surface is closed by index.
// Collada files keep their authored axes (their up_axis is not applied, as ROS tools do) and
// their unit. Errors read "path: message".
Result<TriangleMesh> load_mesh_file(const std::string& path, const Vec3& scale);
// load_mesh_file's second half, from what the Assimp reader returned (decode_assimp_reply
// checked it): scaling (finite, non-zero: load_mesh_file checks), welding, winding. Apart so tests/fuzz/fuzz_mesh_reply.cpp reaches it.
Result<TriangleMesh> welded_mesh_from_assimp(const AssimpMesh& in, const Vec3& scale, const std::string& path);

// Collision hulls of a mesh: one point set per convex part (hull corners).
struct MeshHulls {
  std::vector<std::vector<Vec3>> parts;
  bool decomposed = false;  // more than the single hull
  Real mesh_volume = 0;     // 0 when the mesh is not closed [m^3]
  Real hull_volume = 0;     // of the whole mesh [m^3]
};
// The convex hull of the mesh, or, when options.decompose_meshes and the mesh is closed with a
// hull more than options.decompose_above times its volume, a convex decomposition; each hull
// reduced to options.max_hull_vertices corners. Errors (a flat or empty mesh) name `where`.
Result<MeshHulls> mesh_collision_hulls(const TriangleMesh& mesh, const ImportOptions& options,
                                       const std::string& where);

}  // namespace sim::io
