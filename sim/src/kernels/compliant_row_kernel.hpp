// Kernels: the NCP terms of the compliant rows at the current iterate (paper eqs. 8, 55, 58):
//   bilateral (joints, distances): residual (c + eλ)/h, block e/h², J = ∇C G, error |c + eλ|;
//   drive (implicit PD, velocity level): φ = J u + b + eλ, block e/h, J = ∇θ G, error |φ|; where
//   the multiplier's projection z = λ − φ/r leaves the effort box |λ| <= F the row is clamped:
//   residual r(λ − ±F), block r/h, J = 0 (a box NCP).
// Each returns what becomes of the row's system blocks: 1 for J = ∇C G, 0 for J = 0.
#pragma once

#include <cstdint>

#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"

namespace sim {

// Plain view of the RowSet's arrays these kernels read and write.
struct CompliantRowView {
  const Real* value;       // C(q) [m or rad]
  const Real* lambda;      // λ
  const Real* r;           // complementarity preconditioner (eq. 66)
  const Real* compliance;  // e
  const Real* bias;        // drive: b [m/s or rad/s]
  const Real* bound;       // drive: F, < 0 unbounded
  Real* residual;          // h of eq. 58
  Real* diag_c;            // C block of eq. 55
  std::int8_t* active;     // drive: not clamped
  Real* error;             // |residual| in the row's units
};

SIM_HD inline Real evaluate_bilateral_row(const CompliantRowView& v, int i, Real h) {
  const Real e = v.compliance[i];
  const Real c = v.value[i] + e * v.lambda[i];
  v.residual[i] = c / h;
  v.diag_c[i] = e / (h * h);
  v.active[i] = 1;
  v.error[i] = c < 0 ? -c : c;
  return 1;
}

// `velocity` = ∇θ G u, the row's gradient times the iterate's velocity.
SIM_HD inline Real evaluate_drive_row_ncp(const CompliantRowView& v, int i, Real velocity, Real h) {
  const Real e = v.compliance[i], lambda = v.lambda[i], r = v.r[i];
  const Real phi = velocity + v.bias[i] + e * lambda;
  const Real bound = v.bound[i];
  const Real z = lambda - phi / r;
  if (bound >= 0 && (z < 0 ? -z : z) > bound) {
    const Real side = z > 0 ? bound : -bound;
    const Real res = r * (lambda - side);
    v.residual[i] = res;
    v.diag_c[i] = r / h;
    v.active[i] = 0;
    v.error[i] = res < 0 ? -res : res;
    return 0;
  }
  v.residual[i] = phi;
  v.diag_c[i] = e / h;
  v.active[i] = 1;
  v.error[i] = phi < 0 ? -phi : phi;
  return 1;
}

}  // namespace sim
