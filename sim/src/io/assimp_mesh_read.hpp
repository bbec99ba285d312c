// The one place Assimp reads a mesh file, isolated in a child process (io/child_process.hpp):
// Assimp's readers hang, abort, crash and allocate gigabytes on small malformed files (PLY, DAE;
// tests/data/bad-inputs/), and any of those becomes an error naming the file. What Assimp returns
// is validated in the child (mesh and vertex index ranges, finite coordinates, element counts
// against the file size) and again in the parent (the byte stream against its counts, indices,
// finite values). Both mesh loaders (load_triangle_mesh, io::load_mesh_file) read through here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/child_process.hpp"
#include "sim/result.hpp"

namespace sim::io {

struct AssimpReadOptions {
  bool ignore_collada_up = false;       // keep Collada files in their authored axes (ROS tools do)
  bool drop_points_and_lines = false;   // remove point and line meshes (their vertices) entirely
};

// Every triangle of every mesh of the file, node transforms applied (in float, as Assimp
// computes them), meshes' vertices concatenated in node order.
struct AssimpMesh {
  std::vector<std::array<float, 3>> vertices;
  std::vector<std::array<std::int32_t, 3>> triangles;
  std::vector<std::array<float, 2>> corner_uvs;  // 3 per triangle ((0, 0) where its mesh has none)
  std::vector<std::uint8_t> triangle_has_uvs;    // 1 where the triangle's mesh has a UV set
};

// The bounds an import runs under: 5 s plus 1 s per 4 MB of file, 1 GB plus 32 bytes per byte of
// file of address space, and at most 64 elements (vertices + triangles) per byte of file plus
// 10^6. Documented in docs/ARCHITECTURE.md (mesh import).
ChildLimits mesh_import_limits(std::size_t file_bytes);
std::size_t max_mesh_elements(std::size_t file_bytes);

// Parent side: the child's reply (tag byte, vertex and triangle counts, then the arrays) into
// `out`, every size checked against `max_elements` and the reply's length, every index and value
// checked; "" or what is wrong. The reply is untrusted (a child that Assimp corrupted wrote it):
// tests/fuzz/fuzz_mesh_reply.cpp feeds this arbitrary bytes.
std::string decode_assimp_reply(const std::string& bytes, std::size_t max_elements, AssimpMesh& out);

// Errors read "<path>: <what>": not a regular file, Assimp's message, "the importer crashed
// (SIGSEGV, ...)", "did not finish within 5 s (killed)", an index or value out of range.
Result<AssimpMesh> read_mesh_with_assimp(const std::string& path, const AssimpReadOptions& options);

}  // namespace sim::io
