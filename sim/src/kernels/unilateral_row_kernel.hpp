// Kernel: the NCP terms of one unilateral row (a joint limit or a contact normal) at the current
// iterate, paper Appendix A: φ_n/h as the residual, α = ∂φ/∂C scaling the row's gradient into the
// system row J = α∇C G (eqs. 94, 97), the block S/h² (eqs. 95, 98), the active flag C <= rλ and
// the error |φ| [m]. Fischer–Burmeister (eq. 93) or the minimum map (eq. 96).
#pragma once

#include <cstdint>

#include "kernels/kernel_macros.hpp"
#include "solver/ncp.hpp"

namespace sim {

// Plain view of the row arrays the kernel reads and writes (RowSet's row_* arrays).
struct UnilateralRowView {
  const Real* value;    // C(q) + allowance [m]
  const Real* lambda;   // λ [N]
  const Real* r;        // complementarity preconditioner r (eq. 66)
  Real* jac_scale;      // α: J = α ∇C G
  Real* residual;       // φ / h
  Real* diag_c;         // S / h²
  std::int8_t* active;  // C <= r λ
  Real* error;          // |φ| [m]
};

SIM_HD inline void evaluate_unilateral_row(const UnilateralRowView& v, int i, bool fischer_burmeister, Real h) {
  const Real c = v.value[i], lambda = v.lambda[i], r = v.r[i];
  const NcpValue n = fischer_burmeister ? sim::fischer_burmeister(c, lambda, r) : sim::min_map(c, lambda, r);
  v.jac_scale[i] = n.dphi_dc;
  v.residual[i] = n.phi / h;
  v.diag_c[i] = n.dphi_dlambda / (h * h);
  v.active[i] = c <= r * lambda ? 1 : 0;
  v.error[i] = n.phi < 0 ? -n.phi : n.phi;
}

}  // namespace sim
