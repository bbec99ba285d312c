// The scene loader's mesh from what the Assimp reader returned (load_triangle_mesh's second
// half, apart so that tests/fuzz/fuzz_mesh_reply.cpp reaches it without a file or a child).
#pragma once

#include <string>

#include "io/assimp_mesh_read.hpp"
#include "sim/result.hpp"
#include "sim/sdf.hpp"

namespace sim {

// The file's triangles over welded vertices (weld_vertices within weld_tolerance), per-corner UVs
// when any mesh of the file has them; an error naming `path` when there is no triangle (before or
// after welding). `in` must have passed decode_assimp_reply.
Result<TriangleMesh> triangle_mesh_from_assimp(const io::AssimpMesh& in, const std::string& path);

// Makes vertices within `tolerance` of an earlier kept vertex that vertex (0: exactly equal
// positions only), so that a closed surface is closed by index, and drops the triangles that
// collapse (their UV corners with them). Returns the number of vertices merged away.
// Why: Assimp's own joining keeps apart vertices whose normals differ, and an STL file gives every
// facet its own normal, so before 29 Nov a closed STL part read with ~3 vertices per triangle, open
// everywhere: `coulomb bake` made it an unsigned field (no inside), `coulomb tetmesh` refused it.
// And CAD exports write one corner as 0 in one facet and 1e-20 in the next (10 of the Allegro
// hand's 14 STL parts: 20-174 boundary edges welded exactly, none within the tolerance below).
int weld_vertices(TriangleMesh& mesh, Real tolerance);

// The mesh loader's weld tolerance: kWeldRelativeTolerance × the largest extent of the vertices'
// box, far below any modelled feature and about the rounding of single-precision coordinates.
constexpr Real kWeldRelativeTolerance = Real(1e-9);
Real weld_tolerance(const TriangleMesh& mesh);

}  // namespace sim
