// Kernel: the seven rows of one FEM tetrahedron in generalized compliance form (paper §9.1-9.2).
//
// The elastic force of the tet, f = −V (∂Ψ/∂s ∂s/∂q)ᵀ (eqs. 81-82), is factored as f = −Jᵀc
// (eq. 75); ∂c/∂q = N J (eq. 83), E = N⁻¹ (eq. 84). With λ = −c (eqs. 77-78) each row is the
// bilateral compliance row of eq. 80, J Δq + E Δλ = −E (c + λ): a RowKind::Bilateral row with
// value E c(q), gradient J and compliance E, whose (value + Eλ)/h is eq. 80's residual.
//
// compliance="full" (SoftCompliance::Full): the energy is split so that every factor is
// quadratic in its row and E is exact, constant and diagonal (the deviatoric/hydrostatic split):
//   co-rotational, Ψ = μ ε:ε + λ/2 (tr ε)² (eq. 85 on the rotated strain ε = S − I):
//     rows 0-5: s = Voigt(ε), E = 1/(2μV) (normal), 1/(4μV) (shear); row 6: tr ε, E = 1/(λV);
//     the 6×6 block (V K_e)⁻¹ of eq. 85 exactly, as seven rows;
//   stable Neo-Hookean, Ψ = μ/2 (tr S² − 3) + λ/2 (det S − α)² (tet_material_kernel.hpp):
//     rows 0-5: Voigt(S), E = 1/(μV) (normal), 1/(2μV) (shear) (tr S² = Σ S_ii² + 2 Σ S_ij²);
//     row 6: det S − α = det F − α, E = 1/(λV). Each row's value is its constraint C itself.
// compliance="diagonal" (SoftCompliance::Diagonal): §9.2.2 as printed, six rows of the strain s
// with the Hessian N = V ∂²Ψ/∂s² approximated by its diagonal, e_k = 1/N_kk floored at 10⁻³·2μV
// (a diagonal block's projection onto the positive-definite cone: Neo-Hookean's N is indefinite
// under strong compression), value e_k c_k; row 6 is unused (no gradient, value 0). Its root is
// still λ = −c (exact forces); only the Newton direction is approximate, which the line search
// pays for on near-incompressible Neo-Hookean (ν → 0.5, where N's off-diagonal terms are λ).
// Damping (stiffness-proportional, β [s]): the force c + β N ṡ with ṡ = (m − m⁻)/h (m: the row's
// measure, C or s_k) turns a row into E c + γ (m − m⁻) + E λ = 0, γ = β/h, written divided by
// (1 + γ) so that its gradient stays J: value (E c + γ(m − m⁻))/(1 + γ), compliance E/(1 + γ).
// m⁻ is the row's bias (constraint/tet_rows.cpp setup_tet_damping) and γ its row_bound slot.
//
// Active pressure p of the tet's group (issue 14 item 5; a volumetric active stress, PneuNet
// inflation): the energy gains the work term −p (J − 1) V, J = det F, so p > 0 expands the tet.
// Stable Neo-Hookean, with δ = p/λ:
//   λ/2 (J − α)² − p (J − 1) = λ/2 (J − α − δ)² − p²/(2λ) − p (α − 1),
// i.e. the hydrostatic row keeps its compliance 1/(λV) and its gradient, and its target moves from
// α to α + δ: c_6 = λV (J − α − δ). Co-rotational, with J − 1 linearised to tr ε (the model's own
// volume measure): λ/2 (tr ε)² − p tr ε = λ/2 (tr ε − δ)² − p²/(2λ), c_6 = λV (tr ε − δ).
// The constants do not change forces. For compliance="diagonal" the term is added to Ψ itself
// (tet_material's `pressure`). A free body then settles where ∂Ψ/∂s = 0 with the term, e.g. at
// F = sI: co-rotational s − 1 = p / (2μ + 3λ); Neo-Hookean μ/s + λ (s³ − α) = p
// (tests/scenes/test_soft_actuation.cpp checks both).
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/tet_deformation_kernel.hpp"
#include "kernels/tet_material_kernel.hpp"
#include "kernels/views.hpp"

namespace sim {

inline constexpr int kTetRows = 7;

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
  const Real* reference_strain;  // row_bias: the row's measure at q⁻ (damping), per row
  const Real* damping_ratio;     // row_bound: γ = β/h of the step, <= 0 before the step set it
  const Real* pressure;          // active pressure per tet [Pa] (RowSet::tet_pressure) or null: none
  int first_row;                 // the first tet row; tet i's rows are first_row + 7 i + k
};

// The positions of tet i's particles.
SIM_HD inline void tet_positions(const TetView& tets, const ConfigurationView& c, int i, Vec3 x[4]) {
  for (int k = 0; k < 4; ++k) x[k] = c.particle_position[tets.particle[4 * i + k]];
}

// One tet's rows at a configuration: per row its measure m_k (C_k, or s_k for diagonal), c_k =
// V ∂Ψ/∂m_k, compliance e_k (eq. 84) and ∂m_k/∂F.
struct TetRowTerms {
  Real measure[kTetRows];
  Real force[kTetRows];
  Real compliance[kTetRows];
  Mat3 dmeasure_df[kTetRows];
};

SIM_HD inline void tet_row_terms(const TetView& tets, const Vec3 x[4], int i, TetRowTerms& out, Real pressure = 0) {
  TetDeformation d;
  tet_deformation(x[0], x[1], x[2], x[3], tets.rest_inverse[i], d);
  const Real volume = tets.volume[i], mu = tets.mu[i];
  const Real lambda = tets.lambda[i] > Real(1e-9) * mu ? tets.lambda[i] : Real(1e-9) * mu;
  const SoftModel model = tets.model[i];
  if (tets.compliance[i] == SoftCompliance::Full) {
    const bool nh = model == SoftModel::NeoHookean;
    for (int k = 0; k < 6; ++k) {
      const Real stiffness = (nh ? mu : 2 * mu) * (k < 3 ? Real(1) : Real(2)) * volume;  // 1/E
      out.measure[k] = d.strain[k] + (nh && k < 3 ? Real(1) : Real(0));               // ε or S
      out.compliance[k] = Real(1) / stiffness;
      out.force[k] = stiffness * out.measure[k];
      out.dmeasure_df[k] = d.dstrain_df[k];
    }
    if (nh) {  // det F − α, ∂ det F/∂F = cof F (columns f1×f2, f2×f0, f0×f1)
      const Real alpha = 1 + mu / lambda;
      out.measure[6] = d.f.determinant() - alpha;
      out.dmeasure_df[6].col(0) = d.f.col(1).cross(d.f.col(2));
      out.dmeasure_df[6].col(1) = d.f.col(2).cross(d.f.col(0));
      out.dmeasure_df[6].col(2) = d.f.col(0).cross(d.f.col(1));
    } else {  // tr ε
      out.measure[6] = d.strain[0] + d.strain[1] + d.strain[2];
      out.dmeasure_df[6] = d.dstrain_df[0] + d.dstrain_df[1] + d.dstrain_df[2];
    }
    out.compliance[6] = Real(1) / (lambda * volume);
    out.force[6] = lambda * volume * (out.measure[6] - pressure / lambda);  // target shifted by p/λ
    return;
  }
  const TetMaterial mat = tet_material(model, mu, tets.lambda[i], d.strain, d.stretch, pressure);
  const Real floor = Real(1e-3) * Real(2) * mu * volume;
  for (int k = 0; k < 6; ++k) {
    const Real stiffness = volume * mat.hessian(k, k);  // N_kk (eq. 83)
    out.measure[k] = d.strain[k];
    out.force[k] = volume * mat.gradient[k];            // c_k (eq. 82)
    out.compliance[k] = Real(1) / (stiffness > floor ? stiffness : floor);
    out.dmeasure_df[k] = d.dstrain_df[k];
  }
  out.measure[6] = 0;
  out.force[6] = 0;
  out.compliance[6] = 1;
  out.dmeasure_df[6].setZero();
}

// Elastic energy V Ψ of tet i at particle positions x [J].
SIM_HD inline Real tet_elastic_energy(const TetView& tets, const Vec3 x[4], int i) {
  TetDeformation d;
  tet_deformation(x[0], x[1], x[2], x[3], tets.rest_inverse[i], d);
  return tets.volume[i] * tet_material(tets.model[i], tets.mu[i], tets.lambda[i], d.strain, d.stretch).energy;
}

// The rows' measures m_k at a configuration (the damping reference, tests).
SIM_HD inline void tet_row_strains(const TetView& tets, const ConfigurationView& c, int i, Real out[kTetRows]) {
  Vec3 x[4];
  tet_positions(tets, c, i, x);
  TetRowTerms t;
  tet_row_terms(tets, x, i, t);
  for (int k = 0; k < kTetRows; ++k) out[k] = t.measure[k];
}

// Writes tet i's seven rows: value (E c + γ(m − m⁻))/(1 + γ), compliance E/(1 + γ), and the
// gradient ∂m_k/∂x of each of the four particles (slots 0-3, those with an entry).
SIM_HD inline void evaluate_tet_rows(const TetView& tets, const ConfigurationView& c, const RowGradientView& rows,
                                     const TetRowsView& tr, int i) {
  Vec3 x[4];
  tet_positions(tets, c, i, x);
  TetRowTerms t;
  tet_row_terms(tets, x, i, t, tr.pressure ? tr.pressure[i] : Real(0));
  for (int k = 0; k < kTetRows; ++k) {
    const int r = tr.first_row + kTetRows * i + k;
    const Real e = t.compliance[k];
    const Real gamma = tr.damping_ratio[r] > 0 ? tr.damping_ratio[r] : Real(0);
    rows.value[r] = (e * t.force[k] + gamma * (t.measure[k] - tr.reference_strain[r])) / (1 + gamma);
    tr.compliance[r] = e / (1 + gamma);
    const Mat34 grad = tet_node_gradient(t.dmeasure_df[k], tets.rest_inverse[i]);
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
