// Linear solvers for the Schur system A x = b (eq. 59), §8.2.
//
// Every solver starts from x = 0 and records, per iteration, the Jacobi-preconditioned residual
// norm ‖b − A x‖_P = sqrt(rᵀ P r), P = diag(A)⁻¹: the norm that preconditioned CR minimises
// (so PCR's record is monotone, eq. 69) and the same measure for every solver, so they compare.
#pragma once

#include <atomic>
#include <vector>

#include "sim/solver_options.hpp"
#include "solver/schur_system.hpp"
#include "solver/direct_factor.hpp"

namespace sim {

// Why a linear solve could not make progress. NotPositive: a Krylov solver met a direction of
// non-positive curvature (ρ = zᵀAz <= 0 or pᵀAp <= 0 with a non-zero residual: A is not
// positive definite, e.g. negative compliance, or lost it to round-off); NonFinite: NaN or Inf in
// b, A or the iterate; Stagnated: iterations ran but the residual did not fall below ‖b‖_P;
// Factorisation: the direct solver's LDLᵀ failed; Cancelled: LinearScratch::cancel was raised.
enum class LinearBreakdown : int { None = 0, NotPositive, NonFinite, Stagnated, Factorisation, Cancelled };
const char* to_string(LinearBreakdown b);

struct LinearSolveStats {
  int iterations = 0;
  Real initial_residual = 0;  // ‖b‖_P
  Real final_residual = 0;    // ‖b − A x‖_P
  LinearBreakdown breakdown = LinearBreakdown::None;
};

// Scratch vectors, sized on first use and reused: the row-sized ones keep their capacity
// (solver/row_capacity.hpp: size() >= the rows, indexed [0, A.size())), the dof-sized ones the model's dofs.
struct LinearScratch {
  VecX diag, inv_diag, r, z, p, ap, az, tmp_rows;
  VecX dofs1, dofs2, dofs3;
  std::vector<Real> partials;
  DirectFactor direct;  // the direct solver's patterns, orderings and factors, kept across solves
  // Workspace::cancel (null: none): read each iteration; once raised the solve returns early with
  // the iterate so far (breakdown Cancelled).
  const std::atomic<bool>* cancel = nullptr;
  void resize(int rows, int dofs);
  bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

// LinearSolver::Auto resolved for one step's rows (any other choice is returned as it is): the
// direct solver (sparse LDLᵀ, solver/direct_factor.hpp) on a system of rigid bodies with joint
// rows of at most kAutoDirectRows rows whose factorisation costs at most kAutoDirectCost times
// what a linear budget of PCR iterations does (its operation count, Σ c_j² over the factor's
// columns, against budget · 72 · J's entries: two passes over each entry's 6 values and their
// products per iteration). There chains of joints through light links leave A ill-conditioned,
// the Krylov solvers' inexact directions cost the Newton loop its convergence (MuJoCo's humanoid:
// 3 Newton iterations a step instead of the cap, 7x faster; humanoid100, a humanoid among 100
// objects: 0 failed steps in 2,000 where PCR's joint rows drifted until a shoulder came apart at
// step 1,133), and the factor is cheap (humanoid100: 0.15–0.3 M operations against PCR's 2–3 M).
// PCR, the paper's, everywhere else: contact piles (table_pile's factor costs 6–13 M operations
// against PCR's 3 M, and took 117 against 6.6 ms a step), and particle systems (the FEM rows'
// condensation needs a Krylov solver). Runs the direct solver's analysis of the pattern (kept for
// its factorisations) where the scene qualifies otherwise.
inline constexpr int kAutoDirectRows = 3000;
inline constexpr double kAutoDirectCost = 0.5;
LinearSolver resolve_linear_solver(LinearSolver chosen, const SchurSystem& A, int linear_budget, DirectFactor& direct);

// Solves A x = b with `solver` for at most `iterations` iterations (or until the residual falls
// below tolerance·‖b‖_P). Appends per-iteration residuals to `history` (may be null). b and x may
// be longer than A.size() (row_capacity.hpp); x is grown to it when shorter.
LinearSolveStats solve_linear(LinearSolver solver, const SchurSystem& A, const VecX& b, VecX& x,
                              int iterations, Real tolerance, Real jacobi_weight,
                              LinearScratch& s, std::vector<Real>* history);

}  // namespace sim
