// Surfaces over particles: the model's particle triangles (a soft body's boundary faces, cloth
// faces; sim::Model::particle_triangles) drawn as one smooth mesh whose vertices are the
// particles themselves. The index buffer is static (particle indices, so gl_VertexIndex is the
// particle and the per-particle colour field applies unchanged); the vertex buffer is rewritten
// every frame from the pose buffer's particle positions, with area-weighted vertex normals.
// A soft body with an embedded render mesh (sim/soft_render_mesh.hpp) is drawn as that mesh
// instead of its tet boundary: its vertices follow the particle vertices in the same buffer, each
// the barycentric sum of its tet's particles, and its colour entries (after the particles')
// interpolate the particles' field values by the same weights.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu_layout.hpp"
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
  // Distance links between two of those particles outside any tet (a rope's links, a distance
  // cloth without faces): drawn as lines between the particles' centres, so a coarse rope reads
  // as a rope and its links' contacts (rope segments against shapes and edges) sit on something.
  std::vector<std::array<int, 2>> links;
  int particle_count = 0;
  // Embedded render meshes, their vertices at vertex_count's tail in order (first_vertex).
  struct Embedded {
    const sim::SoftRenderMesh* mesh = nullptr;  // owned by the model
    std::uint32_t first_vertex = 0;
  };
  std::vector<Embedded> embedded;
  int vertex_count = 0;  // particle_count + the embedded meshes' vertices
  bool empty() const { return indices.empty(); }
};

ParticleSurfaces build_particle_surfaces(const sim::Model& model);

// Appends a line per link (ParticleSurfaces::links) between the particles' positions in the pose
// buffer's particle records (render/pose_sink.hpp), in `color` (gpu_layout.hpp LineVertex RGBA8).
void append_link_lines(const ParticleSurfaces& surfaces, const float* particle_poses, std::uint32_t color,
                       std::vector<LineVertex>& out);

// Writes the vertices into `out` (vertex_count entries): each particle's position from the pose
// buffer's particle records (x y z radius, render/pose_sink.hpp), then each embedded vertex's
// weighted sum of its tet's particles, all with the normalised sum of the incident triangles'
// area-weighted normals (+z for vertices on no triangle or a degenerate fan). No allocation.
void write_surface_vertices(const ParticleSurfaces& surfaces, const float* particle_poses, MeshVertex* out);

// The embedded vertices' field values (vertex_count - particle_count entries into `out`): the
// particles' values (`particle_values`, particle_count) interpolated by the embedding's weights.
void interpolate_embedded_values(const ParticleSurfaces& surfaces, std::span<const float> particle_values,
                                 std::span<float> out);

}  // namespace render
