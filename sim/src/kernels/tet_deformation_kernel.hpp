// Kernel: the deformation of one tetrahedron (FEM soft bodies, paper §9.2) and its derivative.
//
// F = D_s D_m⁻¹ (D_s: the edges x_1 − x_0, x_2 − x_0, x_3 − x_0 at the configuration, D_m at rest).
// F is split by the *signed* (rotation-variant) singular value decomposition F = U Σ Vᵀ, U and V
// rotations, the smallest singular value negative where det F < 0 (Irving et al. 2004), into
// F = R S with R = U Vᵀ and the signed stretch S = V Σ Vᵀ. The strain is ε = S − I (symmetric),
// in Voigt order s = [ε_xx, ε_yy, ε_zz, ε_yz, ε_xz, ε_xy] (the paper's eq. 85, tensor shears):
// a tet pushed through itself has det S = det F < 0, so the energies below see the inversion
// (the unsigned polar stretch would read a mirrored tet as undeformed).
//
// dS/dF (the rows' Jacobian, eqs. 82-83's ∂s/∂q): with A = Uᵀ dF V, in V's basis
//   (Vᵀ dS V)_ij = (σ_i A_ij + σ_j A_ji) / (σ_i + σ_j)
// (from Rᵀ dF = Ω S + dS, Ω skew; at σ_i + σ_j → 0 the symmetric part ½(A_ij + A_ji) is taken).
// Kernel-safe: fixed-size Eigen only; a cyclic Jacobi eigensolver instead of <Eigen/Eigenvalues>.
#pragma once

#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"

namespace sim {

using Mat6 = Eigen::Matrix<Real, 6, 6>;
using Mat34 = Eigen::Matrix<Real, 3, 4>;

// Voigt component k of a symmetric 3×3 tensor: (row, column).
SIM_HD inline void voigt_pair(int k, int& a, int& b) {
  const int ra[6] = {0, 1, 2, 1, 0, 0};
  const int rb[6] = {0, 1, 2, 2, 2, 1};
  a = ra[k];
  b = rb[k];
}

// Eigen decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations: A = V diag(w) Vᵀ.
SIM_HD inline void symmetric_eigen3(const Mat3& a_in, Mat3& v, Vec3& w) {
  Mat3 a = a_in;
  v.setIdentity();
  for (int sweep = 0; sweep < 24; ++sweep) {
    const Real off = a(0, 1) * a(0, 1) + a(0, 2) * a(0, 2) + a(1, 2) * a(1, 2);
    const Real scale = a(0, 0) * a(0, 0) + a(1, 1) * a(1, 1) + a(2, 2) * a(2, 2);
    if (!(off > Real(1e-34) * scale) || !(off > Real(1e-300))) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        const Real apq = a(p, q);
        if (apq == Real(0)) continue;
        const Real theta = (a(q, q) - a(p, p)) / (Real(2) * apq);
        const Real t = (theta >= 0 ? Real(1) : Real(-1)) / ((theta >= 0 ? theta : -theta) + sqrt(theta * theta + Real(1)));
        const Real c = Real(1) / sqrt(t * t + Real(1)), s = t * c;
        for (int k = 0; k < 3; ++k) {  // A ← Jᵀ A J (columns, then rows)
          const Real akp = a(k, p), akq = a(k, q);
          a(k, p) = c * akp - s * akq;
          a(k, q) = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {
          const Real apk = a(p, k), aqk = a(q, k);
          a(p, k) = c * apk - s * aqk;
          a(q, k) = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) {
          const Real vkp = v(k, p), vkq = v(k, q);
          v(k, p) = c * vkp - s * vkq;
          v(k, q) = s * vkp + c * vkq;
        }
      }
  }
  w = Vec3(a(0, 0), a(1, 1), a(2, 2));
}

// The signed SVD F = U diag(sigma) Vᵀ: U, V rotations, sigma_0 >= sigma_1 >= |sigma_2|, sigma_2 < 0
// where det F < 0. Robust to a flat or collapsed tet (U completed by cross products).
SIM_HD inline void signed_svd(const Mat3& f, Mat3& u, Vec3& sigma, Mat3& v) {
  Vec3 w;
  symmetric_eigen3(f.transpose() * f, v, w);
  // Sort descending (three compare-swaps on eigenvalues and columns).
  for (int pass = 0; pass < 3; ++pass) {
    const int i = pass == 1 ? 1 : 0, j = i + 1;
    if (w[i] < w[j]) {
      const Real t = w[i];
      w[i] = w[j];
      w[j] = t;
      const Vec3 c = v.col(i);
      v.col(i) = v.col(j);
      v.col(j) = c;
    }
  }
  if (v.determinant() < 0) v.col(2) = -v.col(2);
  const Real tiny = Real(1e-30);
  Vec3 f0 = f * v.col(0), f1 = f * v.col(1);
  const Real n0 = f0.norm();
  Vec3 u0 = n0 > tiny ? Vec3(f0 / n0) : Vec3(v.col(0));
  Vec3 u1 = f1 - u0.dot(f1) * u0;
  const Real n1 = u1.norm();
  if (n1 > Real(1e-12) * (n0 > tiny ? n0 : Real(1))) u1 /= n1;
  else {  // F has rank <= 1: any unit vector orthogonal to u0
    Vec3 t1, t2;
    orthonormal_basis(u0, t1, t2);
    u1 = t1;
  }
  const Vec3 u2 = u0.cross(u1);
  u.col(0) = u0;
  u.col(1) = u1;
  u.col(2) = u2;
  sigma = Vec3(n0, u1.dot(f1), u2.dot(f * v.col(2)));
}

// One tet's deformation at a configuration: the signed SVD, the strain s (Voigt) and, for each
// Voigt component k, ∂s_k/∂F (3×3, ds_k = G_k : dF).
struct TetDeformation {
  Mat3 f, u, v;
  Vec3 sigma;
  Mat3 stretch;   // S = V Σ Vᵀ
  Vec6 strain;    // s = Voigt(S − I)
  Mat3 dstrain_df[6];
};

SIM_HD inline void tet_deformation(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3,
                                   const Mat3& rest_inverse, TetDeformation& d) {
  Mat3 ds;
  ds.col(0) = x1 - x0;
  ds.col(1) = x2 - x0;
  ds.col(2) = x3 - x0;
  d.f = ds * rest_inverse;
  signed_svd(d.f, d.u, d.sigma, d.v);
  d.stretch = d.v * d.sigma.asDiagonal() * d.v.transpose();
  for (int k = 0; k < 6; ++k) {
    int a, b;
    voigt_pair(k, a, b);
    d.strain[k] = d.stretch(a, b) - (a == b ? Real(1) : Real(0));
  }
  // w_ij = σ_i / (σ_i + σ_j): the weight of A_ij in (Vᵀ dS V)_ij.
  Real wt[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Real den = d.sigma[i] + d.sigma[j];
      wt[i][j] = (den > Real(1e-8) || den < Real(-1e-8)) ? d.sigma[i] / den : Real(0.5);
    }
  for (int k = 0; k < 6; ++k) {
    int a, b;
    voigt_pair(k, a, b);
    Mat3 p;  // dS_ab = Σ_ij P_ij A_ij, P_ij = w_ij (V_ai V_bj + V_aj V_bi)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) p(i, j) = wt[i][j] * (d.v(a, i) * d.v(b, j) + d.v(a, j) * d.v(b, i));
    d.dstrain_df[k] = d.u * p * d.v.transpose();  // A_ij = u_iᵀ dF v_j
  }
}

// The gradient of a scalar with ∂/∂F = g over the tet's four particles: dF = dD_s D_m⁻¹, so the
// gradient with respect to x_1..x_3 is the columns of g D_m⁻ᵀ and x_0's is minus their sum.
SIM_HD inline Mat34 tet_node_gradient(const Mat3& g, const Mat3& rest_inverse) {
  const Mat3 h = g * rest_inverse.transpose();
  Mat34 out;
  out.col(1) = h.col(0);
  out.col(2) = h.col(1);
  out.col(3) = h.col(2);
  out.col(0) = -(h.col(0) + h.col(1) + h.col(2));
  return out;
}

}  // namespace sim
