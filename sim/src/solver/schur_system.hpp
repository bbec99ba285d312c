// The Schur complement system of one Newton iteration (eq. 59):
//   A x = b,   A = J H⁻¹ Jᵀ + C + ε I,   b = J H⁻¹ g − h,   x = h Δλ,
// and the velocity update Δu = H⁻¹(Jᵀ x − g) (eq. 60). A is never formed by the iterative
// solvers: apply() runs Jᵀ, H⁻¹, J and C in turn. H = M − h² K̃ (eq. 72) is block diagonal:
// per body diag(m I, I_world), per particle (m + shift) I.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "constraint/rows.hpp"
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
};

class SchurSystem {
 public:
  SchurSystem(const Model& model, const RowSet& rows, const InverseMass& inv_mass, Real epsilon,
              std::vector<int>& node_row_first, std::vector<int>& node_row_entries);

  int size() const { return rows_.count; }
  // Builds the node -> rows adjacency (CSR) used by the deterministic gather in jt().
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
  // Diagonal of A: Σ_sides J_i H⁻¹ J_iᵀ + C_ii + ε.
  void diagonal(VecX& out) const;
  // Adds H⁻¹ J_iᵀ δ into the dof vector z (Gauss–Seidel's incremental update).
  void add_inv_h_jt_row(int row, Real delta, VecX& z) const;
  // J_i · z for a single row (the innermost loop of every solver: fixed-size dot products).
  Real j_row(int i, const VecX& z) const {
    return side_dot(rows_.row_jac_a[i], rows_.row_dof_a[i], rows_.row_width_a[i], z) +
           side_dot(rows_.row_jac_b[i], rows_.row_dof_b[i], rows_.row_width_b[i], z);
  }
  Real diag_c(int row) const { return rows_.row_diag_c[row] + epsilon_; }

  const Model& model() const { return model_; }
  const RowSet& rows() const { return rows_; }
  const InverseMass& inverse_mass() const { return inv_mass_; }

 private:
  void gather(const std::vector<Vec6>& side_a, const std::vector<Vec6>& side_b, const Real* x, VecX& out) const;
  static Real side_dot(const Vec6& jac, int dof, int width, const VecX& z) {
    if (width == 6) return jac.dot(z.segment<6>(dof));
    if (width == 3) return jac.head<3>().dot(z.segment<3>(dof));
    return 0;
  }

  const Model& model_;
  const RowSet& rows_;
  const InverseMass& inv_mass_;
  Real epsilon_;
  std::vector<int>& node_row_first_;    // (node_count + 1)
  std::vector<int>& node_row_entries_;  // 2 * row + side, grouped by node
};

}  // namespace sim
