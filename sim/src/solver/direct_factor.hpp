// The direct linear solver's two eliminations of the Schur system (eq. 59) and the choice between
// them: the saddle-point form eliminated along the tree the rows make of the nodes
// (solver/tree_kkt_factor.hpp) and A = J H⁻¹ Jᵀ + C + εI itself on a fill-reducing ordering
// (solver/sparse_schur_factor.hpp).
//
// Which one, per row pattern (decided when the pattern changes, kept while it does not): the one
// whose symbolic analysis counts fewer operations (Σ c_j² over the factor's columns). The tree
// form wins where bodies carry several joints or contacts (a humanoid's torso and hips, a
// gripper's palm: dense blocks of A, none of K) and A's where the rows make chains (a pendulum,
// a flexible beam, a finger: A is banded and has fewer unknowns than K). If the tree form cannot
// be factorised (a zero pivot, a moving body without an invertible inertia), A's, for the rest
// of the pattern.
// A tree solution whose residual misses (direct() in linear_solvers.cpp) is solved again with
// A's factor (factorize_row_space).
#pragma once

#include "solver/sparse_schur_factor.hpp"
#include "solver/tree_kkt_factor.hpp"

namespace sim {

enum class DirectElimination : int { Tree, RowSpace };
const char* to_string(DirectElimination e);

class DirectFactor {
 public:
  // Both eliminations' orderings and symbolic analyses for A's row pattern (redone only when it
  // changed) and the choice between them; returns the chosen one's operation count (Σ c_j²).
  double analyse(const SchurSystem& A);
  // Factorises the system with the elimination its pattern calls for (analysing it first where
  // it is new). False when no factorisation succeeded.
  bool factorize(const SchurSystem& A);
  // Factorises with A's own elimination.
  bool factorize_row_space(const SchurSystem& A);
  // x = A⁻¹ b with the last successful factorisation (x sized by the caller to A's rows).
  void solve(const VecX& b, VecX& x);

  DirectElimination elimination() const { return used_; }  // of the last factorisation
  // Row patterns analysed (each analysis runs both eliminations' ordering and symbolic steps).
  int analyses() const { return tree_.analyses(); }
  long long factor_nonzeros() const {
    return used_ == DirectElimination::Tree ? tree_.factor_nonzeros() : row_space_.factor_nonzeros();
  }
  const TreeKktFactor& tree() const { return tree_; }
  const SparseSchurFactor& row_space() const { return row_space_; }

 private:
  TreeKktFactor tree_;
  SparseSchurFactor row_space_;
  bool prefer_tree_ = true;  // for the current pattern
  DirectElimination used_ = DirectElimination::RowSpace;
};

}  // namespace sim
