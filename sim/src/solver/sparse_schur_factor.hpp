// The direct linear solver: the Schur system A = J H⁻¹ Jᵀ + C + εI (eq. 59) assembled in its
// sparsity pattern and factorised, A = P Lᵀ D L Pᵀ (sparse LDLᵀ, Eigen's simplicial up-looking
// factorisation on a fill-reducing AMD ordering P).
//
// Why: on articulated bodies in maximal coordinates (a MuJoCo humanoid: chains of joints through
// light frames, mass ratios of 100) A is ill-conditioned and 40 PCR iterations leave the joint
// rows unresolved, so every step runs the Newton cap; with exact directions the same steps
// converge in 2-5 Newton iterations (docs/benchmarks.md). A row couples only the nodes it names,
// so A_ij ≠ 0 only for rows that share a node: for a jointed tree and its contacts the factor
// stays sparse.
//
// Ordering: the rows before the contacts (joints, distances, FEM, shells, drives, limits: the
// same from step to step) take a fill-reducing AMD ordering, computed again only when their
// pattern changes; the contact rows follow in their own order, so a new contact set needs only a
// new symbolic analysis. Eliminated last, the contact rows form at most a dense trailing block:
// the direct solver is for systems with few contacts (LinearSolver::Auto picks it there,
// solver/linear_solvers.cpp). The matrix is padded to a capacity with identity rows so that
// its size, and Eigen's buffers, do not change with the contact count: after the largest
// pattern has been seen, a step allocates nothing (tests/alloc).
#pragma once

#include <vector>

#include "solver/ordered_ldlt.hpp"
#include "solver/schur_system.hpp"

namespace sim {

class SparseSchurFactor {
 public:
  // The ordering and symbolic analysis for A's rows, redone only when the rows' node pattern
  // changed since the last call; true when it was redone.
  bool prepare(const SchurSystem& A);
  // Assembles A (the pattern of the last prepare) and factorises it. False when the
  // factorisation failed (a zero pivot: A not positive definite to working precision).
  bool factorize_prepared(const SchurSystem& A);
  // x = A⁻¹ b with the last successful factorisation (x sized by the caller to A's rows).
  void solve(const VecX& b, VecX& x);

  // For reports and tests.
  int rows() const { return rows_; }
  long long factor_nonzeros() const { return ldlt_.factor_nonzeros(); }
  double factor_operations() const { return ldlt_.factor_operations(); }
  int analyses() const { return analyses_; }  // how many times the pattern was (re)analysed

 private:
  bool same_pattern(const RowSet& rows, int entries) const;
  void order_head(const SchurSystem& A);
  void analyse(const SchurSystem& A);
  void assemble(const SchurSystem& A);

  // The pattern key: each entry's row and node when the pattern was analysed (and the head's,
  // the rows before the contacts, when it was ordered).
  int rows_ = -1, head_rows_ = -1;
  std::vector<int> key_entry_row_, key_entry_node_;
  std::vector<int> head_entry_row_, head_entry_node_;
  int capacity_ = 0;  // the factorised size: rows_ plus identity rows
  // Position of each row in the factorised matrix: the head's AMD order, then the contacts.
  std::vector<int> position_;
  std::vector<long long> pattern_;  // analyse(): the ordered upper triangle's (col, row) keys
  // Where each node's entry pair (a, b), b <= a in the node's entry list, adds its term
  // J_a H⁻¹ J_bᵀ in upper_'s values, in the order assemble() visits them; and each row's diagonal.
  std::vector<int> pair_slot_;
  std::vector<int> diagonal_slot_;
  std::vector<Vec6> hinv_jt_;  // H⁻¹ J_eᵀ of the entries of the node being assembled
  OrderedUpper upper_;         // A, ordered, upper triangle
  VecX ordered_b_, ordered_x_;
  OrderedLdlt ldlt_;
  int analyses_ = 0;
};

}  // namespace sim
