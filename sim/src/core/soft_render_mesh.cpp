// A soft body's embedded render surface: placed and bound to the body's tets (see
// sim/soft_render_mesh.hpp).
#include "sim/soft_render_mesh.hpp"

#include <algorithm>

namespace sim {

Result<SoftRenderMesh> make_soft_render_mesh(std::vector<Vec3> file_vertices, std::vector<std::array<int, 3>> triangles,
                                             const Vec3& scale, const Pose& pose,
                                             const std::vector<std::array<int, 4>>& tets,
                                             const std::vector<Vec3>& particle_positions) {
  if (tets.empty()) return Error{"the soft body has no tets to embed the render mesh in"};
  if (file_vertices.empty() || triangles.empty()) return Error{"the render mesh has no triangles"};
  SoftRenderMesh out;
  out.scale = scale;
  out.pose = pose;
  // The body's own tet mesh (its particles renumbered from 0), so the grid spans only the body.
  for (const auto& t : tets)
    for (int p : t) {
      if (p < 0 || static_cast<std::size_t>(p) >= particle_positions.size())
        return Error{"a tet names particle " + std::to_string(p) + " of " + std::to_string(particle_positions.size())};
      out.particles.push_back(p);
    }
  std::sort(out.particles.begin(), out.particles.end());
  out.particles.erase(std::unique(out.particles.begin(), out.particles.end()), out.particles.end());
  auto local = [&](int p) {
    return static_cast<int>(std::lower_bound(out.particles.begin(), out.particles.end(), p) - out.particles.begin());
  };
  TetMesh body;
  for (int p : out.particles) body.points.push_back(particle_positions[static_cast<std::size_t>(p)]);
  for (const auto& t : tets) body.tets.push_back({local(t[0]), local(t[1]), local(t[2]), local(t[3])});
  for (Vec3& v : file_vertices) v = pose.apply(v.cwiseProduct(scale));
  auto embedding = embed_in_tets(body, file_vertices);
  if (!embedding.ok()) return Error{"render mesh: " + embedding.error()};
  out.embedding = std::move(embedding.value());
  for (auto& nodes : out.embedding.nodes)
    for (auto& k : nodes) k = out.particles[static_cast<std::size_t>(k)];
  out.vertices = std::move(file_vertices);
  out.triangles = std::move(triangles);
  return out;
}

}  // namespace sim
