// Kernel: the constraint curvature of one elastic element, −Σ_k λ_k ∂²m_k/∂x², the element's part
// of the geometric stiffness K of paper eq. 53 (§8.3: H = M − h²K, K = ∂(Jᵀλ)/∂x).
//
// With the elastic rows condensed (solver/elastic_condensation.hpp) the matrix H̃ = M + h²Jᵀ E⁻¹ J
// is assembled and factorised anyway, so the element's exact curvature can join it where the
// paper, which keeps H diagonal for its iterative solver, approximates K by a diagonal secant
// (eqs. 71-74). Together the two terms are h² times the Hessian of the element's energy ½ Σ k m²:
//     ∂²U/∂x² = Σ k ∇m ∇mᵀ + Σ k m ∇²m = Jᵀ E⁻¹ J − Σ λ_k ∇²m_k   (λ_k = −k m_k at the root),
// so Newton's direction on a stretched element is the true one: a membrane in tension T is stiff
// out of its plane by T, a stretched tet across its stretch (the transverse term that the Gauss–
// Newton matrix Jᵀ E⁻¹ J lacks and whose absence makes the iterates overshoot and oscillate,
// Fig. 12). The λ used are the rows' multipliers at the iterate.
//
// The curvature is taken by forward differences of the weighted gradient G(x) = Σ_k λ_k ∇m_k(x)
// (the rows' own gradient kernels, so one code path for tets, membranes and hinges), column j
// = (G(x + δ e_j) − G(x)) / δ with δ = 10⁻⁸ of the element's longest edge (≈ √ε: truncation δ/ℓ
// and round-off ε ℓ/δ both near 10⁻⁸ relative, far below what a Newton matrix needs; central
// differences cost twice the evaluations for an accuracy no iteration sees). The result is
// symmetrised; the caller projects it onto the positive semi-definite cone (a compressed
// element's curvature is indefinite) before adding it to H̃.
#pragma once

#include "kernels/hinge_angle.hpp"
#include "kernels/kernel_macros.hpp"
#include "kernels/membrane_row_kernel.hpp"
#include "kernels/tet_row_kernel.hpp"
#include "sim/math.hpp"

namespace sim {

template <int Nodes>
using ElementMatrix = Eigen::Matrix<Real, 3 * Nodes, 3 * Nodes>;
template <int Nodes>
using ElementVector = Eigen::Matrix<Real, 3 * Nodes, 1>;

// G(x) = Σ_k λ_k ∂m_k/∂x of tet i (its seven rows; the pressure moves targets, not gradients).
SIM_HD inline void tet_weighted_gradient(const TetView& tets, const Vec3 x[4], int i, const Real* lambda,
                                         ElementVector<4>& out) {
  TetRowTerms t;
  tet_row_terms(tets, x, i, t);
  Mat3 g = Mat3::Zero();
  for (int k = 0; k < kTetRows; ++k) g += lambda[k] * t.dmeasure_df[k];
  const Mat34 grad = tet_node_gradient(g, tets.rest_inverse[i]);
  for (int n = 0; n < 4; ++n) out.segment<3>(3 * n) = grad.col(n);
}

// G(x) of membrane triangle i (its four rows).
SIM_HD inline void membrane_weighted_gradient(const MembraneView& tris, const Vec3 x[3], int i, const Real* lambda,
                                              ElementVector<3>& out) {
  MembraneRowTerms t;
  membrane_row_terms(tris, x, i, t);
  out.setZero();
  for (int k = 0; k < kMembraneRows; ++k)
    for (int n = 0; n < 3; ++n) out.segment<3>(3 * n) += lambda[k] * t.grad[k][n];
}

// G(x) of hinge i: its angle's gradient times its multiplier (the bending rows' Σ λ w, one value).
SIM_HD inline void hinge_weighted_gradient(const HingeView&, const Vec3 x[4], int, const Real* lambda,
                                           ElementVector<4>& out) {
  HingeAngle a;
  hinge_angle(x[0], x[1], x[2], x[3], a);
  for (int n = 0; n < 4; ++n) out.segment<3>(3 * n) = lambda[0] * a.grad[n];
}

// −∂G/∂x by forward differences at the element's corner positions x, symmetrised.
template <int Nodes, class View, class Gradient>
SIM_HD void element_curvature(const View& view, const Vec3 (&x)[Nodes], int i, const Real* lambda, Gradient gradient,
                              ElementMatrix<Nodes>& out) {
  Real longest = 0;
  for (int a = 0; a < Nodes; ++a)
    for (int b = a + 1; b < Nodes; ++b) {
      const Real l = (x[a] - x[b]).norm();
      longest = l > longest ? l : longest;
    }
  const Real delta = Real(1e-8) * (longest > Real(0) ? longest : Real(1));
  Vec3 moved[Nodes];
  for (int a = 0; a < Nodes; ++a) moved[a] = x[a];
  ElementVector<Nodes> base, plus;
  gradient(view, moved, i, lambda, base);
  for (int j = 0; j < 3 * Nodes; ++j) {
    const int node = j / 3, axis = j % 3;
    moved[node][axis] = x[node][axis] + delta;
    gradient(view, moved, i, lambda, plus);
    moved[node][axis] = x[node][axis];
    out.col(j) = (base - plus) / delta;
  }
  const ElementMatrix<Nodes> t = out.transpose();
  out = Real(0.5) * (out + t);
}

}  // namespace sim
