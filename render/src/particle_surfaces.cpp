#include "particle_surfaces.hpp"

#include <cmath>

#include "render/pose_sink.hpp"
#include "sim/soft_render_mesh.hpp"

namespace render {

ParticleSurfaces build_particle_surfaces(const sim::Model& model) {
  ParticleSurfaces s;
  s.particle_count = model.particle_count;
  const auto particles = std::size_t(model.particle_count);
  std::vector<char> in_tet(particles, 0), on_surface(particles, 0), embedded(particles, 0);
  for (int p : model.tet_particle)
    if (p >= 0 && std::size_t(p) < particles) in_tet[std::size_t(p)] = 1;
  // Bodies drawn as their embedded meshes: their particles' faces are left out (and their spheres).
  s.vertex_count = model.particle_count;
  for (const auto& mesh : model.soft_render_meshes) {
    if (!mesh) continue;
    for (int p : mesh->particles)
      if (p >= 0 && std::size_t(p) < particles) embedded[std::size_t(p)] = on_surface[std::size_t(p)] = 1;
    s.embedded.push_back({mesh.get(), std::uint32_t(s.vertex_count)});
    s.vertex_count += int(mesh->vertices.size());
  }
  auto valid = [&](const std::array<int, 3>& t) {
    for (int p : t)
      if (p < 0 || std::size_t(p) >= particles) return false;
    return true;
  };
  for (const bool soft : {true, false}) {
    for (const std::array<int, 3>& t : model.particle_triangles) {
      if (!valid(t)) continue;  // compile checks the indices; never index out of the buffer
      const bool is_soft = in_tet[std::size_t(t[0])] && in_tet[std::size_t(t[1])] && in_tet[std::size_t(t[2])];
      if (is_soft != soft) continue;
      if (embedded[std::size_t(t[0])] && embedded[std::size_t(t[1])] && embedded[std::size_t(t[2])]) continue;
      for (int p : t) {
        s.indices.push_back(std::uint32_t(p));
        on_surface[std::size_t(p)] = 1;
      }
    }
    if (soft)  // the embedded meshes' triangles are drawn as soft faces
      for (const ParticleSurfaces::Embedded& e : s.embedded)
        for (const std::array<int, 3>& t : e.mesh->triangles)
          for (int v : t) s.indices.push_back(e.first_vertex + std::uint32_t(v));
    (soft ? s.soft_index_count : s.cloth_index_count) = std::uint32_t(s.indices.size()) - s.soft_index_count;
  }
  for (std::size_t p = 0; p < particles; ++p) {
    if (on_surface[p]) continue;
    if (!s.free_runs.empty() && s.free_runs.back().first + s.free_runs.back().count == p) ++s.free_runs.back().count;
    else s.free_runs.push_back({std::uint32_t(p), 1});
  }
  for (int d = 0; d < model.distance_count; ++d) {
    const int a = model.distance_particle_a[std::size_t(d)], b = model.distance_particle_b[std::size_t(d)];
    auto free = [&](int p) { return p >= 0 && std::size_t(p) < particles && !on_surface[std::size_t(p)] && !in_tet[std::size_t(p)]; };
    if (a != b && free(a) && free(b)) s.links.push_back({a, b});
  }
  return s;
}

void append_link_lines(const ParticleSurfaces& surfaces, const float* particle_poses, std::uint32_t color,
                       std::vector<LineVertex>& out) {
  for (const auto& link : surfaces.links)
    for (int p : link) {
      const float* x = particle_poses + std::size_t(kPoseFloatsPerParticle) * std::size_t(p);
      out.push_back(LineVertex{{x[0], x[1], x[2]}, color});
    }
}

void write_surface_vertices(const ParticleSurfaces& surfaces, const float* particle_poses, MeshVertex* out) {
  const int n = surfaces.vertex_count;
  for (int p = 0; p < surfaces.particle_count; ++p) {
    const float* x = particle_poses + std::size_t(kPoseFloatsPerParticle) * std::size_t(p);
    MeshVertex& v = out[p];
    v.position[0] = x[0], v.position[1] = x[1], v.position[2] = x[2];
    v.normal[0] = v.normal[1] = v.normal[2] = 0.0f;
  }
  // sim::deform_embedded in floats, from the pose buffer: exact for an affine motion of the tet.
  for (const ParticleSurfaces::Embedded& e : surfaces.embedded) {
    const sim::TetEmbedding& b = e.mesh->embedding;
    for (std::size_t i = 0; i < b.nodes.size(); ++i) {
      MeshVertex& v = out[e.first_vertex + i];
      v.position[0] = v.position[1] = v.position[2] = 0.0f;
      v.normal[0] = v.normal[1] = v.normal[2] = 0.0f;
      for (int k = 0; k < 4; ++k) {
        const float* x = particle_poses + std::size_t(kPoseFloatsPerParticle) * std::size_t(b.nodes[i][k]);
        const float w = float(b.weights[i][k]);
        for (int c = 0; c < 3; ++c) v.position[c] += w * x[c];
      }
    }
  }
  const std::size_t count = surfaces.indices.size();
  for (std::size_t i = 0; i + 2 < count; i += 3) {
    MeshVertex* c[3] = {&out[surfaces.indices[i]], &out[surfaces.indices[i + 1]], &out[surfaces.indices[i + 2]]};
    float e1[3], e2[3];
    for (int k = 0; k < 3; ++k) e1[k] = c[1]->position[k] - c[0]->position[k], e2[k] = c[2]->position[k] - c[0]->position[k];
    // Twice the area times the unit normal: larger faces weigh more.
    const float w[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    for (MeshVertex* v : c)
      for (int k = 0; k < 3; ++k) v->normal[k] += w[k];
  }
  for (int p = 0; p < n; ++p) {
    float* nrm = out[p].normal;
    const float len = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    if (len > 0.0f && std::isfinite(len)) nrm[0] /= len, nrm[1] /= len, nrm[2] /= len;
    else nrm[0] = 0.0f, nrm[1] = 0.0f, nrm[2] = 1.0f;
  }
}

void interpolate_embedded_values(const ParticleSurfaces& surfaces, std::span<const float> particle_values,
                                 std::span<float> out) {
  for (const ParticleSurfaces::Embedded& e : surfaces.embedded) {
    const sim::TetEmbedding& b = e.mesh->embedding;
    const std::size_t first = e.first_vertex - std::size_t(surfaces.particle_count);
    for (std::size_t i = 0; i < b.nodes.size() && first + i < out.size(); ++i) {
      float value = 0.0f;  // NaN (an inverted tet's stress) stays NaN: drawn grey
      for (int k = 0; k < 4; ++k) value += float(b.weights[i][k]) * particle_values[std::size_t(b.nodes[i][k])];
      out[first + i] = value;
    }
  }
}

}  // namespace render
