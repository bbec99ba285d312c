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
// direct solver (sparse LDLᵀ, solver/sparse_schur_factor.hpp) on a system of rigid bodies with
// joint rows whose contact rows are few (at most kAutoDirectContactRows, and not more than twice
// the joint rows): there chains of joints through light links leave A ill-conditioned, the
// Krylov solvers' inexact directions cost the Newton loop its convergence, and the factor stays
// small (MuJoCo's humanoid: 3 Newton iterations a step instead of the cap, 7x faster; allegro,
// fetch, workcell faster at lower residuals; docs/benchmarks.md). PCR, the paper's, everywhere
// else: contact-dominated systems (stacks, piles, an SDF bowl: no faster and no better
// converged with exact directions) and particle systems (the FEM rows' condensation needs a
// Krylov solver).
inline constexpr int kAutoDirectContactRows = 300;
inline constexpr int kAutoDirectRows = 3000;
LinearSolver resolve_linear_solver(LinearSolver chosen, const Model& m, const RowSet& rows);

// Solves A x = b with `solver` for at most `iterations` iterations (or until the residual falls
// below tolerance·‖b‖_P). Appends per-iteration residuals to `history` (may be null). b and x may
// be longer than A.size() (row_capacity.hpp); x is grown to it when shorter.
LinearSolveStats solve_linear(LinearSolver solver, const SchurSystem& A, const VecX& b, VecX& x,
                              int iterations, Real tolerance, Real jacobi_weight,
                              LinearScratch& s, std::vector<Real>* history);

}  // namespace sim
