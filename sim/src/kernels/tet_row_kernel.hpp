// Kernel: the six rows of one FEM tetrahedron in generalized compliance form (paper §9.1-9.2).
//
// The elastic force of the tet, f = −V (∂Ψ/∂s ∂s/∂q)ᵀ (eqs. 81-82), is factored as f = −Jᵀc with
// J = ∂s/∂q (the strain's gradient, over the tet's 4 particles) and c = V ∂Ψ/∂s (eq. 75, 82);
// ∂c/∂q = N J with N = V ∂²Ψ/∂s² (eq. 83), E = N⁻¹ (eq. 84). With λ = −c (eqs. 77-78) each row is
// the bilateral compliance row of eq. 80, J Δq + E Δλ = −E (c + λ), i.e. a RowKind::Bilateral row
// with value E c(q), gradient J and compliance E: the solver's (value + Eλ)/h is eq. 80's residual
// E (c + λ)/h. Its root is λ = −c for any positive E, so the approximations of E below change only
// the Newton direction, never the equilibrium.
//
// The rows are the strain in a fixed orthonormal basis Q of Voigt space, s' = Q s (c' = Q c,
// N' = Q N Qᵀ), and each carries the diagonal compliance e_k = 1/N'_kk, floored at a small
// fraction of the rest stiffness (a diagonal matrix's projection onto the positive-definite cone;
// the Neo-Hookean Hessian is indefinite under strong compression, §9.2.2):
//   SoftCompliance::Full: Q = the eigenvectors of the rest stiffness of an isotropic material
//     (hydrostatic (1,1,1)/√3, deviatoric (1,−1,0)/√2 and (1,1,−2)/√6, the three shears). The
//     6×6 block E = (V K_e)⁻¹ of eq. 85 is diagonal in that basis, so the co-rotational element
//     carries its full compliance block exactly (value = s', eq. 80 exact); Neo-Hookean's N' is
//     diagonal there at rest, and its off-diagonal terms at finite strain are dropped.
//   SoftCompliance::Diagonal: Q = I, the Voigt components, e_k = 1/N_kk: §9.2.2's "simple diagonal
//     approximation" (the Poisson coupling is left out of the Newton matrix).
// Damping (stiffness-proportional, β [s]): the force c + β N ṡ with ṡ = (s − s⁻)/h turns the row
// into E c + γ (s' − s'⁻) + E λ = 0, γ = β/h, written divided by (1 + γ) so that its gradient stays
// J: value (E c + γ(s' − s'⁻))/(1 + γ), compliance E/(1 + γ). s'⁻ is the row's bias (the strain at
// q⁻, constraint/tet_rows.cpp setup_tet_damping) and γ its row_bound slot.
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/tet_deformation_kernel.hpp"
#include "kernels/tet_material_kernel.hpp"
#include "kernels/views.hpp"

namespace sim {

inline constexpr int kTetRows = 6;

// The Model's tetrahedra (tet_count).
struct TetView {
  const int* particle;          // 4 per tet, positively oriented at rest
  const Mat3* rest_inverse;     // D_m⁻¹
  const Real* volume;           // rest volume V_e [m³]
  const Real* mu;               // material μ [Pa] (the model's own parameter)
  const Real* lambda;           // material λ [Pa]
  const Real* damping;          // β [s]
  const SoftModel* model;
  const SoftCompliance* compliance;
  int count;
};

// The RowSet's arrays the tet rows read and write besides the gradient view.
struct TetRowsView {
  Real* compliance;              // row_compliance: E of the row at this evaluation
  const Real* reference_strain;  // row_bias: s' at q⁻ (damping), per row
  const Real* damping_ratio;     // row_bound: γ = β/h of the step, <= 0 before the step set it
  int first_row;                 // the first tet row; tet i's rows are first_row + 6 i + k
};

// Row k of the basis Q (see above).
SIM_HD inline Vec6 tet_row_direction(SoftCompliance basis, int k) {
  Vec6 q = Vec6::Zero();
  if (basis == SoftCompliance::Diagonal || k >= 3) {
    q[k] = 1;
    return q;
  }
  const Real r3 = Real(0.57735026918962576), r2 = Real(0.70710678118654752), r6 = Real(0.40824829046386302);
  if (k == 0) q << r3, r3, r3, 0, 0, 0;
  else if (k == 1) q << r2, -r2, 0, 0, 0, 0;
  else q << r6, r6, -2 * r6, 0, 0, 0;
  return q;
}

// The positions of tet i's particles.
SIM_HD inline void tet_positions(const TetView& tets, const ConfigurationView& c, int i, Vec3 x[4]) {
  for (int k = 0; k < 4; ++k) x[k] = c.particle_position[tets.particle[4 * i + k]];
}

// Elastic energy V Ψ of tet i at a configuration [J].
SIM_HD inline Real tet_elastic_energy(const TetView& tets, const Vec3 x[4], int i) {
  TetDeformation d;
  tet_deformation(x[0], x[1], x[2], x[3], tets.rest_inverse[i], d);
  return tets.volume[i] * tet_material(tets.model[i], tets.mu[i], tets.lambda[i], d.strain, d.stretch).energy;
}

// The rows' strains s'_k = q_k·s at a configuration (the damping reference, tests).
SIM_HD inline void tet_row_strains(const TetView& tets, const ConfigurationView& c, int i, Real out[kTetRows]) {
  Vec3 x[4];
  tet_positions(tets, c, i, x);
  TetDeformation d;
  tet_deformation(x[0], x[1], x[2], x[3], tets.rest_inverse[i], d);
  for (int k = 0; k < kTetRows; ++k) out[k] = tet_row_direction(tets.compliance[i], k).dot(d.strain);
}

// Writes tet i's six rows: value (E c' + γ(s' − s'⁻))/(1 + γ), compliance E/(1 + γ), and the
// gradient ∂s'_k/∂x of each of the four particles (slots 0-3, those with an entry).
SIM_HD inline void evaluate_tet_rows(const TetView& tets, const ConfigurationView& c, const RowGradientView& rows,
                                     const TetRowsView& tr, int i) {
  Vec3 x[4];
  tet_positions(tets, c, i, x);
  TetDeformation d;
  tet_deformation(x[0], x[1], x[2], x[3], tets.rest_inverse[i], d);
  const Real volume = tets.volume[i], mu = tets.mu[i];
  const TetMaterial mat = tet_material(tets.model[i], mu, tets.lambda[i], d.strain, d.stretch);
  const Real floor = Real(1e-3) * Real(2) * mu * volume;  // the diagonal's PD projection
  for (int k = 0; k < kTetRows; ++k) {
    const int r = tr.first_row + kTetRows * i + k;
    const Vec6 q = tet_row_direction(tets.compliance[i], k);
    const Real force = volume * q.dot(mat.gradient);              // c'_k (eq. 82)
    const Real stiffness = volume * q.dot(mat.hessian * q);        // N'_kk (eq. 83)
    const Real e = Real(1) / (stiffness > floor ? stiffness : floor);  // eq. 84, diagonal
    const Real gamma = tr.damping_ratio[r] > 0 ? tr.damping_ratio[r] : Real(0);
    const Real strain = q.dot(d.strain);
    rows.value[r] = (e * force + gamma * (strain - tr.reference_strain[r])) / (1 + gamma);
    tr.compliance[r] = e / (1 + gamma);
    Mat3 g = Mat3::Zero();  // ∂s'_k/∂F
    for (int m = 0; m < 6; ++m)
      if (q[m] != 0) g += q[m] * d.dstrain_df[m];
    const Mat34 grad = tet_node_gradient(g, tets.rest_inverse[i]);
    const unsigned mask = rows.row_slot_mask[r];
    Vec6* out = rows.entry_grad + rows.row_entry_first[r];
    for (int slot = 0; slot < 4; ++slot)
      if (mask & (1u << slot)) {
        Vec6& b = *out++;
        b.head<3>() = grad.col(slot);
        b.tail<3>().setZero();
      }
  }
}

}  // namespace sim
