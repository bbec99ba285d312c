// The Schur complement system of one Newton iteration (eq. 59):
//   A x = b,   A = J H⁻¹ Jᵀ + C + ε I,   b = J H⁻¹ g − h,   x = h Δλ,
// and the velocity update Δu = H⁻¹(Jᵀ x − g) (eq. 60). A is never formed by the iterative
// solvers: apply() runs Jᵀ, H⁻¹, J and C in turn. H = M − h² K̃ (eq. 72) is block diagonal:
// per body diag(m I, I_world), per particle (m + shift) I. J's rows are the RowSet's (node, block)
// entries (any number per row); products go through kernels/row_entry_kernels.hpp.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "constraint/rows.hpp"
#include "kernels/row_entry_kernels.hpp"
#include "kernels/views.hpp"
#include "sim/model.hpp"

namespace sim {

using VecX = Eigen::Matrix<Real, Eigen::Dynamic, 1>;

// H⁻¹ per node, evaluated at the step's start (§5: M at q⁻) plus the geometric stiffness shift.
struct InverseMass {
  std::vector<Real> body_inv_mass;        // (body_count)
  std::vector<Mat3> body_inv_inertia;     // world frame (body_count)
  std::vector<Real> particle_inv_mass;    // 1/(m + shift) per particle dof (3 * particle_count)

  // out = H⁻¹ in for the node's dofs (kernels/inverse_mass_kernel.hpp).
  void apply_node(const Model& m, int node, const Real* in, Real* out) const;
  // The plain view the kernels read (valid while these vectors keep their size).
  InverseMassView view(const Model& m) const;
  // sum += bᵀ H⁻¹ b for a block b of the node (its first width entries): an entry's effective
  // inverse mass, added term by term (a row's sum over its entries has one fixed order).
  void add_quadratic(const Model& m, int node, const Vec6& b, Real& sum) const {
    Real tmp[6];
    apply_node(m, node, b.data(), tmp);
    for (int k = 0; k < node_width(m, node); ++k) sum += b[k] * tmp[k];
  }
};

class ElasticCondensation;

class SchurSystem {
 public:
  SchurSystem(const Model& model, const RowSet& rows, const InverseMass& inv_mass, Real epsilon,
              std::vector<int>& node_entry_first, std::vector<int>& node_entries,
              std::vector<int>& node_entry_rows);

  int size() const { return rows_.count; }
  // Builds the node -> entries adjacency (CSR) used by the deterministic gather in jt().
  void build_adjacency();
  // out (dofs) = Jᵀ x, gathered per node in row order (no write races, thread-count independent).
  void jt(const Real* x, VecX& out) const;
  void jt(const VecX& x, VecX& out) const { jt(x.data(), out); }
  // out (dofs) = ∇Cᵀ x with the rows' unscaled gradients ∇C G (the true constraint forces).
  void gradient_t(const Real* x, VecX& out) const;
  // out (dofs) = H⁻¹ in.
  void inv_h(const VecX& in, VecX& out) const;
  // out (rows) = J z.
  void j(const VecX& z, VecX& out) const;
  // out = A x, with `dof_scratch` of dof size.
  void apply(const VecX& x, VecX& out, VecX& dof_scratch, VecX& dof_scratch2) const;
  // Diagonal of A: Σ_entries J_e H⁻¹ J_eᵀ + C_ii + ε.
  void diagonal(VecX& out) const;
  // Adds H⁻¹ J_iᵀ δ into the dof vector z (Gauss–Seidel's incremental update).
  void add_inv_h_jt_row(int row, Real delta, VecX& z) const;
  // J_i · z for a single row (the innermost loop of every solver: fixed-size dot products).
  Real j_row(int i, const VecX& z) const { return row_times(jac_view(), i, z.data()); }
  Real diag_c(int row) const { return rows_.row_diag_c[row] + epsilon_; }

  // With a factorised condensation (solver/elastic_condensation.hpp): H is H̃ (particles coupled
  // through the elastic rows, inv_h solves with its factor) and the condensed rows drop out of A
  // (A_ii = 1, no coupling, b_i = 0 by the caller, so their x stays 0 in every Krylov vector).
  // Only the Krylov solvers run on it (Gauss–Seidel's row updates and the direct solver's
  // assembly read the block-diagonal H). Null: the plain system.
  void set_condensation(const ElasticCondensation* c) { condensation_ = c; }
  const ElasticCondensation* condensation() const { return condensation_; }

  const Model& model() const { return model_; }
  const RowSet& rows() const { return rows_; }
  const InverseMass& inverse_mass() const { return inv_mass_; }

 private:
  RowBlocksView jac_view() const {
    return {rows_.row_entry_first.data(), rows_.entry_dof.data(), rows_.entry_width.data(), rows_.entry_jac.data()};
  }
  void gather(const std::vector<Vec6>& blocks, const Real* x, VecX& out) const;

  const Model& model_;
  const RowSet& rows_;
  const InverseMass& inv_mass_;
  Real epsilon_;
  const ElasticCondensation* condensation_ = nullptr;
  std::vector<int>& node_entry_first_;  // (node_count + 1)
  std::vector<int>& node_entries_;      // entry indices, grouped by node, in row order
  std::vector<int>& node_entry_rows_;   // the row of each of node_entries_
};

}  // namespace sim
