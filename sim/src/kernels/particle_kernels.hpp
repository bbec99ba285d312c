// Per-particle kernels of a step (3 translational dofs each, paper §5 and eqs. 46, 57, 63): one
// function per loop body over the views of kernels/views.hpp, the particle twins of
// kernels/body_kernels.hpp. Called from parallel_for on the CPU, instantiated by sim/cuda/.
#pragma once

#include "kernels/body_kernels.hpp"
#include "kernels/kernel_macros.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

// ũ = u⁻ + h (g + m⁻¹ f) (eq. 46), 0 for fixed particles; H⁻¹ without geometric stiffness
// (m⁻¹ per dof, InverseMass::particle_inv_mass) written alongside.
SIM_HD inline void predict_particle_velocity(const ParticleView& particles, const StateView& state,
                                             const LoadView& loads, Real h, int p, Real* u_tilde,
                                             Real* inv_mass_per_dof) {
  const int dof = particle_dof_offset(state.body_count, p);
  const Real im = particles.inv_mass[p];
  for (int k = 0; k < 3; ++k) {
    inv_mass_per_dof[3 * p + k] = im;
    const Real f = loads.particle_force ? loads.particle_force[p][k] : Real(0);
    u_tilde[dof + k] = im > 0 ? state.u[dof + k] + h * (loads.gravity[k] + im * f) : Real(0);
  }
}

// q = q⁻ + h u (eq. 63 with G = I for a particle).
SIM_HD inline void integrate_particle(const StateView& start, Real h, int p, Real* q_out) {
  const int c = particle_coord_offset(start.body_count, p);
  const int dof = particle_dof_offset(start.body_count, p);
  for (int k = 0; k < 3; ++k) q_out[c + k] = start.q[c + k] + h * start.u[dof + k];
}

// g = m (u − ũ) − h f on a particle's dofs (eq. 57), 0 on a fixed particle.
SIM_HD inline void particle_momentum_residual(const ParticleView& particles, const MomentumView& mv, int body_count,
                                              Real h, int p) {
  const int dof = particle_dof_offset(body_count, p);
  const Real im = particles.inv_mass[p];
  for (int k = 0; k < 3; ++k)
    mv.g[dof + k] = im > 0 ? (mv.u[dof + k] - mv.u_tilde[dof + k]) / im - h * mv.force[dof + k] : Real(0);
}

// ½ m |v|² and −m g·x; zero for fixed particles.
SIM_HD inline Energy particle_energy(const ParticleView& particles, const StateView& state, const Vec3& gravity,
                                     int p) {
  Energy e;
  const Real im = particles.inv_mass[p];
  if (!(im > 0)) return e;
  const Real mass = Real(1) / im;
  e.kinetic = Real(0.5) * mass * state.particle_velocity(p).squaredNorm();
  e.potential = -mass * gravity.dot(state.particle_position(p));
  return e;
}

}  // namespace sim
