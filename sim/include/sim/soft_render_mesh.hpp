// A soft body's embedded high-resolution render surface (issue 14 items 3 and 6): a triangle
// mesh read from a file (scene attribute render_mesh=), placed with the soft body's own
// transform, and skinned to the body's tets (sim/tet_embedding.hpp). Render-only, like the
// visual shapes: the solver never reads it; the renderer draws it in place of the body's tet
// boundary, each vertex the weighted sum of its tet's particles.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/result.hpp"
#include "sim/tet_embedding.hpp"

namespace sim {

struct SoftRenderMesh {
  std::string file;          // as written in the scene: relative to the scene file, or absolute
  std::string path;          // resolved path that was read
  Vec3 scale = Vec3::Ones(); // the file's coordinates scaled per axis about its origin, then
  Pose pose;                 // placed in the world (the soft body's pose where it was generated)
  std::vector<Vec3> vertices;                 // rest positions in the world [m]
  std::vector<std::array<int, 3>> triangles;  // counter-clockwise from outside
  TetEmbedding embedding;                     // nodes are scene particle indices
  std::vector<int> particles;                 // the body's particles, sorted: their tet boundary is not drawn
};

// Places `file_vertices` (scale, then pose) and embeds them in the tets (particle indices into
// `particle_positions`, the rest positions). Errors: no tets, a tet naming a particle that does
// not exist, a non-finite vertex (embed_in_tets').
Result<SoftRenderMesh> make_soft_render_mesh(std::vector<Vec3> file_vertices, std::vector<std::array<int, 3>> triangles,
                                             const Vec3& scale, const Pose& pose,
                                             const std::vector<std::array<int, 4>>& tets,
                                             const std::vector<Vec3>& particle_positions);

}  // namespace sim
