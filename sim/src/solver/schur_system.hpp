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
#include "kernels/inverse_mass_kernel.hpp"
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
    add_inverse_mass_quadratic(view(m), node, b, sum);
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
  // out = A x, with `dof_scratch` of dof size: jt_inv_h, then apply_row for every row.
  void apply(const VecX& x, VecX& out, VecX& dof_scratch, VecX& dof_scratch2) const;
  // The node half of A x: out = H⁻¹ Jᵀ x (jt_out = Jᵀ x on the way), one pass over the nodes
  // (each node's gather followed by its H⁻¹ block; with a condensation the particles' H̃⁻¹ solve
  // follows the pass). The fused Krylov solvers (linear_solvers.cpp) run it, then their own row
  // pass with apply_row.
  void jt_inv_h(const Real* x, VecX& jt_out, VecX& out) const;
  // The row half: (A x)_i from hinv_jt_x = H⁻¹ Jᵀ x (jt_inv_h): J_i · H⁻¹Jᵀx + C_ii x_i, or x_i
  // for a condensed row (A_ii = 1, no coupling).
  Real apply_row(int i, const VecX& hinv_jt_x, const Real* x) const {
    if (condensation_ && condensed_row(i)) return x[i];
    return j_row(i, hinv_jt_x) + diag_c(i) * x[i];
  }
  // Diagonal of A: Σ_entries J_e H⁻¹ J_eᵀ + C_ii + ε (1 for a condensed row); diagonal_row(i) is
  // row i's, so a solver computes it in the pass that first reads the row (linear_solvers.cpp).
  void diagonal(VecX& out) const;
  Real diagonal_row(int i) const;
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
  // The node -> entries adjacency of build_adjacency (each node's entries in row order).
  NodeEntriesView node_entries() const {
    return {node_entry_first_.data(), node_entries_.data(), node_entry_rows_.data()};
  }

 private:
  RowBlocksView jac_view() const {
    return {rows_.row_entry_first.data(), rows_.entry_dof.data(), rows_.entry_width.data(), rows_.entry_jac.data()};
  }
  void gather(const std::vector<Vec6>& blocks, const Real* x, VecX& out) const;
  bool condensed_row(int i) const;
  // Runs body(n) for every node: in parallel (node ranges, the split may follow the thread
  // count: each node's sum has its own fixed order) once the row entries reach
  // gather_parallel_entries().
  template <class F>
  void for_each_node(int nodes, F&& body) const;

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
