// Kernels: the strain-energy density of a soft body's tetrahedron as a function of its strain
// s = Voigt(S − I) (kernels/tet_deformation_kernel.hpp), with its gradient ∂Ψ/∂s and Hessian
// ∂²Ψ/∂s² (paper §9.2, eqs. 81-85):
//   linear co-rotational (eq. 85 on the rotated strain): Ψ = μ ε:ε + λ/2 (tr ε)²,
//     ∂²Ψ/∂s² = [2μ I + λ 11ᵀ, 0; 0, 4μ I] (constant);
//   stable Neo-Hookean (Smith et al. 2018, App. B's eq. 107 without the log term):
//     Ψ = C_1 (I_C − 3) + D_1 (J − α)² − D_1 (1 − α)², I_C = tr(FᵀF) = tr(S²), J = det F = det S,
//     C_1 = μ/2, D_1 = λ/2, α = 1 + μ/λ (rest is stress free).
//   Its small-strain Lamé parameters are (μ, λ − μ): soft_body_lame() passes λ_0 + μ_0 for given
//   (λ_0, μ_0), so both models agree at small strain.
// App. B writes Ψ over the principal stretches (3 rows); here the same Ψ is differentiated with
// respect to the six components of S, so the rows span all six deformation modes of a tet at
// every configuration (with 3 principal-stretch rows the shear modes vanish from the linearisation
// at rest, where the singular vectors are arbitrary).
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/tet_deformation_kernel.hpp"
#include "sim/math.hpp"
#include "sim/model_kinds.hpp"

namespace sim {

struct TetMaterial {
  Real energy;    // Ψ [J/m³]
  Vec6 gradient;  // ∂Ψ/∂s [Pa]
  Mat6 hessian;   // ∂²Ψ/∂s² [Pa]
};

// Ψ, ∂Ψ/∂s, ∂²Ψ/∂s² at strain `s` with stretch `S` = I + ε (used by Neo-Hookean). `pressure` p
// adds the active-stress work −p (J − 1) (Neo-Hookean; co-rotational −p tr ε), tet_row_kernel.hpp.
SIM_HD inline TetMaterial tet_material(SoftModel model, Real mu, Real lambda, const Vec6& s, const Mat3& S,
                                       Real pressure = 0) {
  TetMaterial out;
  out.hessian.setZero();
  if (model == SoftModel::Corotational) {  // eq. 85 with K_e of an isotropic material
    const Real tr = s[0] + s[1] + s[2];
    Real ee = 0;
    for (int k = 0; k < 3; ++k) {
      ee += s[k] * s[k] + Real(2) * s[k + 3] * s[k + 3];
      out.gradient[k] = Real(2) * mu * s[k] + lambda * tr;
      out.gradient[k + 3] = Real(4) * mu * s[k + 3];
      for (int l = 0; l < 3; ++l) out.hessian(k, l) = lambda;
      out.hessian(k, k) += Real(2) * mu;
      out.hessian(k + 3, k + 3) = Real(4) * mu;
    }
    out.energy = mu * ee + Real(0.5) * lambda * tr * tr - pressure * tr;
    for (int k = 0; k < 3; ++k) out.gradient[k] -= pressure;
    return out;
  }
  // Stable Neo-Hookean, eq. 107: Ψ = C1 (tr S² − 3) + D1 (det S − α)².
  const Real c1 = Real(0.5) * mu, d1 = Real(0.5) * lambda, alpha = Real(1) + mu / lambda;
  const Real s00 = S(0, 0), s11 = S(1, 1), s22 = S(2, 2), s12 = S(1, 2), s02 = S(0, 2), s01 = S(0, 1);
  const Real j = S.determinant();
  Vec6 dtr, dj;  // ∂ tr(S²)/∂s and ∂ det S/∂s (Voigt: 00, 11, 22, 12, 02, 01)
  dtr << 2 * s00, 2 * s11, 2 * s22, 4 * s12, 4 * s02, 4 * s01;
  dj << s11 * s22 - s12 * s12, s00 * s22 - s02 * s02, s00 * s11 - s01 * s01, 2 * (s01 * s02 - s00 * s12),
      2 * (s01 * s12 - s11 * s02), 2 * (s02 * s12 - s22 * s01);
  Mat6 hj = Mat6::Zero();  // ∂² det S/∂s²
  hj(0, 1) = s22;
  hj(0, 2) = s11;
  hj(1, 2) = s00;
  hj(0, 3) = -2 * s12;
  hj(1, 4) = -2 * s02;
  hj(2, 5) = -2 * s01;
  hj(3, 4) = 2 * s01;
  hj(3, 5) = 2 * s02;
  hj(4, 5) = 2 * s12;
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < a; ++b) hj(a, b) = hj(b, a);
  hj(3, 3) = -2 * s00;
  hj(4, 4) = -2 * s11;
  hj(5, 5) = -2 * s22;
  const Real trs2 = s00 * s00 + s11 * s11 + s22 * s22 + 2 * (s12 * s12 + s02 * s02 + s01 * s01);
  out.energy = c1 * (trs2 - 3) + d1 * ((j - alpha) * (j - alpha) - (1 - alpha) * (1 - alpha)) - pressure * (j - 1);
  out.gradient = c1 * dtr + (2 * d1 * (j - alpha) - pressure) * dj;  // App. B's ∂Ψ/∂s, over S's components
  for (int k = 0; k < 3; ++k) {
    out.hessian(k, k) = 2 * c1;
    out.hessian(k + 3, k + 3) = 4 * c1;
  }
  out.hessian += (2 * d1) * (dj * dj.transpose()) + (2 * d1 * (j - alpha) - pressure) * hj;  // App. B's ∂²Ψ/∂s²
  return out;
}

}  // namespace sim
