// Kernel: the diagonal geometric stiffness of a particle's dofs (paper eqs. 71-74), updated once
// per Newton iteration from the secant of g along the last step.
#pragma once

#include <cmath>

#include "kernels/kernel_macros.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

// Diagonal geometric stiffness (eqs. 71-74), one dof: the secant of g along the last Newton step
// Δu gives c_k = −[g(u⁺)_k − g(u)_k − M_kk Δu_k] / Δu_k, the non-mass part h²K_kk of the secant,
// and the shift −min(0, c_k) >= 0 added to M_kk keeps H̃ >= M. The paper prints "+ (MΔu)_k" in
// eq. 73: with it c_k would carry −2M and H̃ would always be shifted by twice the mass.
SIM_HD inline Real geometric_stiffness_shift(Real g_new, Real g_old, Real mass, Real du) {
  const Real c = -(g_new - g_old - mass * du) / du;
  return -(c < Real(0) ? c : Real(0));  // −min(0, c)
}

// The arrays of the update (dof_count for g, g_prev, du; 3 particle_count for the rest).
struct GeometricStiffnessView {
  const Real* g;             // momentum residual at the iterate
  const Real* g_prev;        // at the previous iterate
  const Real* du;            // the last step t Δu
  Real* dof_shift;           // shift per particle dof, kept where |Δu_k| <= 1e-12
  Real* particle_inv_mass;   // out: 1/(m + shift) per particle dof (InverseMass)
};

// H̃_kk = m + shift for particle p's dofs; fixed particles keep m⁻¹ = 0.
SIM_HD inline void update_particle_geometric_stiffness(const ParticleView& particles, const GeometricStiffnessView& v,
                                                       int body_count, int p) {
  const Real im = particles.inv_mass[p];
  if (!(im > 0)) return;
  const Real mass = Real(1) / im;
  for (int k = 0; k < 3; ++k) {
    const int dof = particle_dof_offset(body_count, p) + k;
    const Real du = v.du[dof];
    Real shift = v.dof_shift[3 * p + k];
    if (std::abs(du) > Real(1e-12)) shift = geometric_stiffness_shift(v.g[dof], v.g_prev[dof], mass, du);
    v.dof_shift[3 * p + k] = shift;
    v.particle_inv_mass[3 * p + k] = Real(1) / (mass + shift);
  }
}

}  // namespace sim
