// Kernel: H⁻¹ applied to one node's dofs, H = M − h² K̃ block diagonal (eq. 72): per body
// diag(m⁻¹ I, I_w⁻¹) at q⁻ (eq. 90), per particle 1/(m + shift) per dof (eqs. 71-74). The
// innermost operation of the Schur operator (eq. 59), the velocity update (eq. 60) and the
// effective masses of the preconditioner (eq. 66).
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

// out = H⁻¹ in for node `node`'s 6 (body) or 3 (particle) dofs.
SIM_HD inline void apply_inverse_mass(const InverseMassView& v, int node, const Real* in, Real* out) {
  if (node < v.body_count) {
    const Real im = v.body_inv_mass[node];
    out[0] = im * in[0];
    out[1] = im * in[1];
    out[2] = im * in[2];
    const Mat3& ii = v.body_inv_inertia[node];
    const Vec3 w = ii * Vec3(in[3], in[4], in[5]);
    out[3] = w.x();
    out[4] = w.y();
    out[5] = w.z();
  } else {
    const int p = node - v.body_count;
    for (int k = 0; k < 3; ++k) out[k] = v.particle_inv_mass[3 * p + k] * in[k];
  }
}

// sum += bᵀ H⁻¹ b for node `node`'s block b (its first 6 or 3 entries): an entry's effective
// inverse mass, the term of the Jacobi preconditioner diag(J H⁻¹ Jᵀ) (eq. 66), added term by term
// in dof order (a row's sum over its entries has one fixed order). The products are those of
// apply_inverse_mass, kept in registers (a stored H⁻¹b read back stalled on store forwarding).
SIM_HD inline void add_inverse_mass_quadratic(const InverseMassView& v, int node, const Vec6& b, Real& sum) {
  if (node < v.body_count) {
    const Real im = v.body_inv_mass[node];
    sum += b[0] * (im * b[0]);
    sum += b[1] * (im * b[1]);
    sum += b[2] * (im * b[2]);
    const Vec3 w = v.body_inv_inertia[node] * Vec3(b[3], b[4], b[5]);
    sum += b[3] * w.x();
    sum += b[4] * w.y();
    sum += b[5] * w.z();
  } else {
    const Real* pim = v.particle_inv_mass + 3 * (node - v.body_count);
    for (int k = 0; k < 3; ++k) sum += b[k] * (pim[k] * b[k]);
  }
}

}  // namespace sim
