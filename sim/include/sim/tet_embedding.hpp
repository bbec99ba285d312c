// A high-resolution render surface embedded in a tet mesh (skinning to the tets): each render
// vertex is bound to one tet by its barycentric weights, found once; as the tets' nodes move,
// the vertex is the same weighted sum of its tet's deformed nodes. The map is affine per tet, so
// an affine deformation of the mesh moves every vertex exactly as the same affine map would.
// A vertex outside every tet (a detailed surface sticking out of a coarse tet mesh) is bound to
// the nearest tet, its weights extrapolated (some negative), so it still follows affinely.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/result.hpp"
#include "sim/tet_mesh.hpp"

namespace sim {

struct TetEmbedding {
  std::vector<std::int32_t> tet;                     // the tet of each vertex
  std::vector<std::array<std::int32_t, 4>> nodes;    // that tet's nodes (copied: the map needs only node positions)
  std::vector<std::array<Real, 4>> weights;          // barycentric weights (sum 1)
  std::size_t outside = 0;                           // vertices in no tet, bound to the nearest
  Real max_outside_distance = 0;                     // how far the farthest of them is from its tet [m]
};

// Binds each vertex to the tet containing it (weights >= -1e-9; among several, the one it is
// deepest in) or else the nearest tet, found through a uniform grid over the tets' boxes.
// "Nearest" is the smallest largest outward distance to the planes of a tet's faces, which is
// the exact distance where the closest point lies on a face. Errors: an empty mesh, a
// non-finite vertex (named by index).
Result<TetEmbedding> embed_in_tets(const TetMesh& mesh, const std::vector<Vec3>& vertices);

// The vertices for the deformed node positions `nodes` (as many as the mesh's points): out[i] =
// sum_k weights[i][k] nodes[embedding.nodes[i][k]]. `out` is resized (no allocation once it has
// the capacity), so it can run every frame.
void deform_embedded(const TetEmbedding& embedding, const std::vector<Vec3>& nodes, std::vector<Vec3>& out);

}  // namespace sim
