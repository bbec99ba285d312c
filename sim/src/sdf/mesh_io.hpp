// The scene loader's mesh from what the Assimp reader returned (load_triangle_mesh's second
// half, apart so that tests/fuzz/fuzz_mesh_reply.cpp reaches it without a file or a child).
#pragma once

#include <string>

#include "io/assimp_mesh_read.hpp"
#include "sim/result.hpp"
#include "sim/sdf.hpp"

namespace sim {

// Vertices and triangles as read (no welding), per-corner UVs when any mesh of the file has them;
// an error naming `path` when there is no triangle. `in` must have passed decode_assimp_reply.
Result<TriangleMesh> triangle_mesh_from_assimp(const io::AssimpMesh& in, const std::string& path);

}  // namespace sim
