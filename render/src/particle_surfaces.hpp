// Surfaces over particles: the model's particle triangles (a soft body's boundary faces, cloth
// faces; sim::Model::particle_triangles) drawn as one smooth mesh whose vertices are the
// particles themselves. The index buffer is static (particle indices, so gl_VertexIndex is the
// particle and the per-particle colour field applies unchanged); the vertex buffer is rewritten
// every frame from the pose buffer's particle positions, with area-weighted vertex normals.
#pragma once

#include <cstdint>
#include <vector>

#include "shape_tessellation.hpp"
#include "sim/model.hpp"

namespace render {

struct ParticleSurfaces {
  // Triangles, three particle indices each: soft bodies' faces first (every corner in a tet),
  // then the others (cloth).
  std::vector<std::uint32_t> indices;
  std::uint32_t soft_index_count = 0, cloth_index_count = 0;
  // Runs [first, first + count) of particles on no drawn surface: their spheres stay drawn when
  // the surface particles' are hidden (pinned anchors, ropes, loose particles).
  struct Run {
    std::uint32_t first = 0, count = 0;
  };
  std::vector<Run> free_runs;
  int particle_count = 0;
  bool empty() const { return indices.empty(); }
};

ParticleSurfaces build_particle_surfaces(const sim::Model& model);

// Writes one vertex per particle into `out` (particle_count entries): the position from the
// pose buffer's particle records (x y z radius, render/pose_sink.hpp) and the normalised sum of
// the incident triangles' area-weighted normals (+z for particles on no triangle or a
// degenerate fan). No allocation.
void write_surface_vertices(const ParticleSurfaces& surfaces, const float* particle_poses, MeshVertex* out);

}  // namespace render
