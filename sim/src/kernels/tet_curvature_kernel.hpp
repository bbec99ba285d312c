// Kernel: the curvature term of one tet's rows in the Newton matrix, H ∋ −h² Σ_k λ_k ∇²m_k
// (∂g/∂u of eq. 57 with g = M(u − ũ) − h Jᵀλ and q = q⁻ + h u: the part of the exact Hessian that
// eq. 72's diagonal K̃ approximates), for a tet whose rows are its measures m_k (compliance
// "full": the row value is m_k up to a constant, tet_row_kernel.hpp). ∇²m_k by central
// differences of the rows' analytic gradients (tet_node_gradient), symmetrised and projected
// onto the positive semi-definite cone (negative eigenvalues to 0) so that H̃ stays positive
// definite. Host only (a 12×12 eigen-decomposition).
#pragma once

#include <Eigen/Eigenvalues>
#include <cmath>

#include "kernels/tet_row_kernel.hpp"

namespace sim {

using Mat12 = Eigen::Matrix<Real, 12, 12>;

// out = PSD part of −h² Σ_k λ_k ∇²m_k over the tet's 12 coordinates (node-major: 3 node + axis).
inline void tet_row_curvature(const TetView& tets, const Vec3 x[4], int i, const Real lambda[kTetRows], Real h,
                              Mat12& out) {
  const Real size = std::cbrt(tets.volume[i] > 0 ? tets.volume[i] : Real(1e-12));
  const Real eps = Real(1e-6) * size;
  Vec3 y[4] = {x[0], x[1], x[2], x[3]};
  auto weighted_gradient = [&](Eigen::Matrix<Real, 12, 1>& g) {  // Σ_k λ_k ∇m_k at y
    TetRowTerms t;
    tet_row_terms(tets, y, i, t);
    g.setZero();
    for (int k = 0; k < kTetRows; ++k) {
      if (lambda[k] == 0) continue;
      const Mat34 grad = tet_node_gradient(t.dmeasure_df[k], tets.rest_inverse[i]);
      for (int n = 0; n < 4; ++n) g.segment<3>(3 * n) += lambda[k] * grad.col(n);
    }
  };
  Eigen::Matrix<Real, 12, 1> plus, minus;
  for (int j = 0; j < 12; ++j) {
    const int n = j / 3, a = j % 3;
    y[n][a] = x[n][a] + eps;
    weighted_gradient(plus);
    y[n][a] = x[n][a] - eps;
    weighted_gradient(minus);
    y[n][a] = x[n][a];
    out.col(j) = (plus - minus) * (-h * h / (2 * eps));
  }
  const Mat12 symmetric = Real(0.5) * (out + out.transpose());
  Eigen::SelfAdjointEigenSolver<Mat12> eigen(symmetric);
  const auto values = eigen.eigenvalues().cwiseMax(Real(0));
  out = eigen.eigenvectors() * values.asDiagonal() * eigen.eigenvectors().transpose();
}

}  // namespace sim
