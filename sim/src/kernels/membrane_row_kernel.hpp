// Kernel: the four membrane rows of one shell triangle (in-plane stretch and shear) in generalized
// compliance form (paper §9.1-9.2, eqs. 75-85 on a triangle; constraint/shell_rows.hpp).
//
// Deformation: the 3×2 gradient F = D_s D_m⁻¹ (D_s: the edges x_1 − x_0, x_2 − x_0 in space, D_m
// the rest edges in the rest triangle's own orthonormal frame). Its polar split F = R S (R 3×2 with
// orthonormal columns, S = (FᵀF)^½ 2×2 symmetric) comes from the eigen decomposition of FᵀF,
// FᵀF = V diag(σ²) Vᵀ, S = V diag(σ) Vᵀ, U = F V diag(σ)⁻¹ (completed by cross products where a
// triangle collapses, σ → 0: degenerate-safe; a triangle has no inversion in 3D, σ >= 0).
// The co-rotated in-plane strain is ε = S − I; dS/dF is the tet's formula with 2 columns
// (kernels/tet_deformation_kernel.hpp): with A = Uᵀ dF V, (Vᵀ dS V)_ij = (σ_i A_ij + σ_j A_ji)/(σ_i + σ_j).
//
// Material: linear co-rotational plane stress, Ψ per area = t [μ ε:ε + λ*/2 (tr ε)²] with
// μ = E/(2(1+ν)), λ* = Eν/(1−ν²) (plane stress: σ_zz = 0 eliminates ε_zz; uniaxial stress gives
// stretch σ/E and lateral contraction −ν). Split like the tet rows' "full" compliance (eq. 85 as
// rows quadratic in their own measure): rows ε_xx, ε_yy with k = 2μtA, ε_xy with k = 4μtA
// (ε:ε = ε_xx² + ε_yy² + 2ε_xy²) and tr ε with k = λ*tA; E = 1/k is exact, constant, diagonal and
// positive. Each row's value is its measure (kernels/elastic_row_kernel.hpp).
#pragma once

#include "kernels/elastic_row_kernel.hpp"
#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

using Mat2 = Eigen::Matrix<Real, 2, 2>;
using Mat32 = Eigen::Matrix<Real, 3, 2>;

inline constexpr int kMembraneRows = 4;

// The Model's membrane triangles (membrane_count).
struct MembraneView {
  const int* particle;         // 3 per triangle
  const Mat2* rest_inverse;    // D_m⁻¹ (rest triangle frame)
  const Real* area;            // rest area A [m²]
  const Real* mu;              // μ t [N/m]
  const Real* lambda;          // λ* t [N/m] (plane stress)
  int count;
};

// The rest edges of a triangle in its own orthonormal frame (t1 along x_1 − x_0): D_m, det = 2A.
SIM_HD inline Mat2 membrane_rest_edges(const Vec3& x0, const Vec3& x1, const Vec3& x2) {
  const Vec3 e1 = x1 - x0, e2 = x2 - x0;
  const Real l1 = e1.norm();
  const Vec3 t1 = l1 > Real(0) ? Vec3(e1 / l1) : Vec3(1, 0, 0);
  const Vec3 t2 = e2 - t1.dot(e2) * t1;
  Mat2 dm;
  dm << l1, t1.dot(e2), Real(0), t2.norm();
  return dm;
}

// One triangle's deformation: F, the strain [ε_xx, ε_yy, ε_xy] and ∂ε_k/∂F (3×2, dε_k = G_k : dF).
struct MembraneDeformation {
  Mat32 f;
  Vec3 strain;
  Mat32 dstrain_df[3];
};

SIM_HD inline void membrane_deformation(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Mat2& rest_inverse,
                                        MembraneDeformation& d) {
  Mat32 ds;
  ds.col(0) = x1 - x0;
  ds.col(1) = x2 - x0;
  d.f = ds * rest_inverse;
  const Mat2 c = d.f.transpose() * d.f;
  // Eigenvectors of the symmetric 2×2 FᵀF: the rotation by φ = ½ atan2(2 c01, c00 − c11).
  const Real phi = Real(0.5) * atan2(Real(2) * c(0, 1), c(0, 0) - c(1, 1));
  const Real cs = cos(phi), sn = sin(phi);
  Mat2 v;
  v << cs, -sn, sn, cs;
  Real w[2];
  for (int i = 0; i < 2; ++i) {
    const Vec2 vi = v.col(i);
    const Real wi = vi.dot(c * vi);
    w[i] = wi > Real(0) ? wi : Real(0);
  }
  const Real scale = c(0, 0) + c(1, 1) > Real(1e-300) ? c(0, 0) + c(1, 1) : Real(1);
  // U: F v_i / σ_i, completed where the triangle collapses to a segment or a point.
  const Vec3 f0 = d.f * v.col(0), f1 = d.f * v.col(1);
  Vec3 u0, u1;
  const int big = w[0] >= w[1] ? 0 : 1;
  const Vec3 fb = big == 0 ? f0 : f1, fs = big == 0 ? f1 : f0;
  const Real nb = fb.norm();
  Vec3 ub = nb > Real(1e-30) ? Vec3(fb / nb) : Vec3(1, 0, 0);
  Vec3 us = fs - ub.dot(fs) * ub;
  const Real ns = us.norm();
  if (ns > Real(1e-12) * sqrt(scale)) us /= ns;
  else {
    Vec3 t1, t2;
    orthonormal_basis(ub, t1, t2);
    us = t1;
  }
  u0 = big == 0 ? ub : us;
  u1 = big == 0 ? us : ub;
  Real sigma[2] = {u0.dot(f0), u1.dot(f1)};
  for (int i = 0; i < 2; ++i) sigma[i] = sigma[i] > Real(0) ? sigma[i] : Real(0);
  const Mat2 s = v * Vec2(sigma[0], sigma[1]).asDiagonal() * v.transpose();
  d.strain = Vec3(s(0, 0) - 1, s(1, 1) - 1, s(0, 1));
  Mat32 u;
  u.col(0) = u0;
  u.col(1) = u1;
  Real wt[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const Real den = sigma[i] + sigma[j];
      wt[i][j] = den > Real(1e-8) ? sigma[i] / den : Real(0.5);
    }
  const int pa[3] = {0, 1, 0}, pb[3] = {0, 1, 1};
  for (int k = 0; k < 3; ++k) {
    const int a = pa[k], b = pb[k];
    Mat2 p;  // dS_ab = Σ_ij P_ij A_ij, P_ij = w_ij (V_ai V_bj + V_aj V_bi)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) p(i, j) = wt[i][j] * (v(a, i) * v(b, j) + v(a, j) * v(b, i));
    d.dstrain_df[k] = u * p * v.transpose();
  }
}

// The rows' measures, stiffnesses k (E = 1/k) and ∂m/∂x per corner.
struct MembraneRowTerms {
  Real measure[kMembraneRows];
  Real stiffness[kMembraneRows];
  Vec3 grad[kMembraneRows][3];
};

SIM_HD inline void membrane_row_terms(const MembraneView& tris, const Vec3 x[3], int i, MembraneRowTerms& out) {
  MembraneDeformation d;
  membrane_deformation(x[0], x[1], x[2], tris.rest_inverse[i], d);
  const Real area = tris.area[i], mu = tris.mu[i];
  const Real lambda = tris.lambda[i] > Real(1e-9) * mu ? tris.lambda[i] : Real(1e-9) * mu;
  Mat32 g[kMembraneRows] = {d.dstrain_df[0], d.dstrain_df[1], d.dstrain_df[2], d.dstrain_df[0] + d.dstrain_df[1]};
  const Real m[kMembraneRows] = {d.strain[0], d.strain[1], d.strain[2], d.strain[0] + d.strain[1]};
  const Real k[kMembraneRows] = {2 * mu * area, 2 * mu * area, 4 * mu * area, lambda * area};
  for (int r = 0; r < kMembraneRows; ++r) {
    out.measure[r] = m[r];
    out.stiffness[r] = k[r];
    const Mat32 h = g[r] * tris.rest_inverse[i].transpose();  // dF = dD_s D_m⁻¹
    out.grad[r][1] = h.col(0);
    out.grad[r][2] = h.col(1);
    out.grad[r][0] = -(h.col(0) + h.col(1));
  }
}

SIM_HD inline void membrane_positions(const MembraneView& tris, const ConfigurationView& c, int i, Vec3 x[3]) {
  for (int k = 0; k < 3; ++k) x[k] = c.particle_position[tris.particle[3 * i + k]];
}

// Elastic energy Σ ½ k m² of triangle i at corner positions x [J].
SIM_HD inline Real membrane_elastic_energy(const MembraneView& tris, const Vec3 x[3], int i) {
  MembraneRowTerms t;
  membrane_row_terms(tris, x, i, t);
  Real e = 0;
  for (int r = 0; r < kMembraneRows; ++r) e += Real(0.5) * t.stiffness[r] * t.measure[r] * t.measure[r];
  return e;
}

// The rows' measures at a configuration (the damping reference).
SIM_HD inline void membrane_row_measures(const MembraneView& tris, const ConfigurationView& c, int i,
                                         Real out[kMembraneRows]) {
  Vec3 x[3];
  membrane_positions(tris, c, i, x);
  MembraneRowTerms t;
  membrane_row_terms(tris, x, i, t);
  for (int r = 0; r < kMembraneRows; ++r) out[r] = t.measure[r];
}

// Writes triangle i's four rows at first_row + 4 i + k (value m, compliance 1/k, gradient over the
// three corners).
SIM_HD inline void evaluate_membrane_rows(const MembraneView& tris, const ConfigurationView& c,
                                          const RowGradientView& rows, const ElasticRowsView& cr, int first_row,
                                          int i) {
  Vec3 x[3];
  membrane_positions(tris, c, i, x);
  MembraneRowTerms t;
  membrane_row_terms(tris, x, i, t);
  for (int k = 0; k < kMembraneRows; ++k) {
    const int r = first_row + kMembraneRows * i + k;
    write_elastic_row(rows, cr, r, t.measure[k], t.measure[k] - cr.reference[r], t.stiffness[k], t.grad[k], 3);
  }
}

}  // namespace sim
