// NCP functions with r-scaling and the smooth friction compliance W (paper Appendix A).
//
// Symbols: C = constraint value (position rows) [m], λ = multiplier [N], r = complementarity
// preconditioner (eq. 66) so that rλ has the units of C. For friction: v = |Dᵀu| slip speed,
// μλ_n the cone radius, λ_f the friction force.
// Kernel-style: plain functions, no allocation, usable from CPU and CUDA code.
#pragma once

#include <cmath>

#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"

namespace sim {

// Value φ and partial derivatives α = ∂φ/∂C, β̂ = ∂φ/∂λ (so the system's S = β̂, eq. 95).
struct NcpValue {
  Real phi;
  Real dphi_dc;       // α
  Real dphi_dlambda;  // S (already includes the factor r)
};

// Fischer–Burmeister, eq. 93: φ = C + rλ − sqrt(C² + r²λ²); derivatives eqs. 94–95.
// At C = rλ = 0 the function is not differentiable; take α = 0, β = 1 (eqs. 26–27).
SIM_HD inline NcpValue fischer_burmeister(Real c, Real lambda, Real r) {
  const Real rl = r * lambda;
  const Real s = std::sqrt(c * c + rl * rl);
  if (s <= Real(1e-30)) return NcpValue{c + rl - s, Real(0), r};
  return NcpValue{c + rl - s, Real(1) - c / s, (Real(1) - rl / s) * r};
}

// Minimum map, eqs. 96–98: active (C <= rλ) gives φ = C with row ∇C; otherwise φ = rλ, S = r.
SIM_HD inline NcpValue min_map(Real c, Real lambda, Real r) {
  if (c <= r * lambda) return NcpValue{c, Real(1), Real(0)};
  return NcpValue{r * lambda, Real(0), r};
}

// W for Fischer–Burmeister (eqs. 99–104, corrected): the paper prints |Dᵀu|² in (102) and (104);
// deriving (101) from the FB function gives |Dᵀu|. With a = μλ_n − |λ_f| and s = sqrt(v² + r²a²):
//   W = r (s − r a) / (v + r μλ_n − s).
// Stick (v = 0, a > 0) gives W = 0; slip on the cone (a = 0) gives W = v / (μλ_n).
// At v = 0, λ_f = 0 the quotient is 0/0 with limit 0. A denominator <= 0 means the fixed point
// projects |λ_f| to zero: W is then capped at kFrictionWMax·r.
inline constexpr Real kFrictionWMax = Real(1e6);
SIM_HD inline Real friction_w_fischer_burmeister(Real v, Real mu_lambda_n, Real lambda_f_norm, Real r) {
  const Real a = mu_lambda_n - lambda_f_norm;
  const Real s = std::sqrt(v * v + r * r * a * a);
  const Real numerator = r * (s - r * a);
  const Real denominator = v + r * mu_lambda_n - s;
  const Real scale = v + r * mu_lambda_n;
  if (numerator <= Real(1e-14) * (scale * r + Real(1e-300))) return Real(0);
  if (denominator <= Real(1e-14) * scale) return kFrictionWMax * r;
  const Real w = numerator / denominator;
  return w < kFrictionWMax * r ? w : kFrictionWMax * r;
}

// W for the minimum map, eq. 105.
SIM_HD inline Real friction_w_min_map(Real v, Real mu_lambda_n, Real lambda_f_norm, Real r) {
  const Real a = mu_lambda_n - lambda_f_norm;
  if (v <= r * a) return Real(0);
  return (v - r * a) / mu_lambda_n;
}

// Friction complementarity error of one contact [m/s]: the natural-map residual
//   e = r |λ_f − proj_{|λ| <= μλ_n}(λ_f − Dᵀu / r)|,
// zero iff the maximal-dissipation conditions hold (eqs. 13-16): |λ_f| <= μλ_n, no slip inside
// the cone, and a force on the cone opposing the slip. The inactive set (μλ_n <= 0) projects onto
// {0}, so e = r|λ_f|. s1, s2: Dᵀu; l1, l2: λ_f.
SIM_HD inline Real friction_error(Real s1, Real s2, Real l1, Real l2, Real mu_lambda_n, Real r) {
  const Real radius = mu_lambda_n > 0 ? mu_lambda_n : Real(0);
  Real z1 = l1 - s1 / r, z2 = l2 - s2 / r;
  const Real z = std::sqrt(z1 * z1 + z2 * z2);
  if (z > radius) {
    const Real scale = z > 0 ? radius / z : Real(0);
    z1 *= scale;
    z2 *= scale;
  }
  const Real d1 = l1 - z1, d2 = l2 - z2;
  return r * std::sqrt(d1 * d1 + d2 * d2);
}

}  // namespace sim
