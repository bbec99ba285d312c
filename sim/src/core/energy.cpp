#include "core/energy.hpp"

#include "constraint/shell_rows.hpp"
#include "constraint/tet_rows.hpp"
#include "core/kernel_views.hpp"
#include "core/parallel.hpp"
#include "kernels/particle_kernels.hpp"

namespace sim {

Energy mechanical_energy(const Model& model, const State& state, std::vector<Real>& partials) {
  const BodyView bodies = body_view(model);
  const ParticleView particles = particle_view(model);
  const StateView at = state_view(model, state);
  const Vec3 g = model.gravity;
  Energy e;
  e.kinetic = deterministic_sum(model.body_count, partials, [&](int b) { return body_energy(bodies, at, g, b).kinetic; }) +
              deterministic_sum(model.particle_count, partials,
                                [&](int p) { return particle_energy(particles, at, g, p).kinetic; });
  e.potential =
      deterministic_sum(model.body_count, partials, [&](int b) { return body_energy(bodies, at, g, b).potential; }) +
      deterministic_sum(model.particle_count, partials,
                        [&](int p) { return particle_energy(particles, at, g, p).potential; });
  // FEM soft bodies' elastic energy V Ψ (kernels/tet_row_kernel.hpp), in the potential.
  const TetView tets = tet_view(model);
  e.potential += deterministic_sum(model.tet_count, partials, [&](int t) {
    Vec3 x[4];
    for (int k = 0; k < 4; ++k) x[k] = at.particle_position(model.tet_particle[4 * t + k]);
    return tet_elastic_energy(tets, x, t);
  });
  // Shells' membrane and bending energy Σ ½ k m² (kernels/membrane_row_kernel.hpp, bending_row_kernel.hpp).
  const MembraneView tris = membrane_view(model);
  e.potential += deterministic_sum(model.membrane_count, partials, [&](int t) {
    Vec3 x[3];
    for (int k = 0; k < 3; ++k) x[k] = at.particle_position(model.membrane_particle[3 * t + k]);
    return membrane_elastic_energy(tris, x, t);
  });
  const BendingView bending = bending_view(model);
  const auto position = [&](int p) { return at.particle_position(p); };
  e.potential += deterministic_sum(model.bending_count, partials,
                                   [&](int r) { return bending_elastic_energy(bending, position, r); });
  return e;
}

}  // namespace sim
