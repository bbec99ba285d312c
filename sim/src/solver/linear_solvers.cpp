#include "solver/linear_solvers.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>

#include "core/parallel.hpp"
#include "solver/row_capacity.hpp"

namespace sim {

const char* to_string(LinearBreakdown b) {
  switch (b) {
    case LinearBreakdown::None: return "none";
    case LinearBreakdown::NotPositive: return "non-positive curvature";
    case LinearBreakdown::NonFinite: return "non-finite values";
    case LinearBreakdown::Stagnated: return "stagnation";
    case LinearBreakdown::Factorisation: return "factorisation failed";
    case LinearBreakdown::Cancelled: return "cancelled";
  }
  return "?";
}

void LinearScratch::resize(int rows, int dofs) {
  for (VecX* v : {&diag, &inv_diag, &r, &z, &p, &ap, &az, &tmp_rows}) grow_rows(*v, rows);
  // Two sums per pass at most (deterministic_sums<2>), one partial per chunk of the rows.
  partials.reserve(2 * static_cast<std::size_t>((rows + kChunkSize - 1) / kChunkSize));
  for (VecX* v : {&dofs1, &dofs2, &dofs3}) v->resize(dofs);
}

namespace {

// ‖r‖_P with P = diag(A)⁻¹.
Real p_norm(int n, const VecX& r, const VecX& inv_diag, std::vector<Real>& partials) {
  return std::sqrt(deterministic_sum(n, partials, [&](int i) { return r[i] * r[i] * inv_diag[i]; }));
}

// A Krylov quantity (ρ = zᵀAz, pᵀAp, ...) that is not positive: NaN is a non-finite breakdown;
// a value <= 0 once the residual is at round-off (1e-10 of ‖b‖_P) is convergence, before that it
// is non-positive curvature (A not positive definite).
LinearBreakdown krylov_breakdown(Real value, const LinearSolveStats& st) {
  if (!std::isfinite(value)) return LinearBreakdown::NonFinite;
  if (st.final_residual <= Real(1e-10) * st.initial_residual) return LinearBreakdown::None;
  return LinearBreakdown::NotPositive;
}

// The pass every solver starts with, one pass over the rows: the diagonal of A (the Jacobi
// preconditioner P = diag(A)⁻¹, computed from the rows' entries as the pass reads them) and the
// start of the Krylov recurrences, x = 0, r = b, z = P r, p = z. Returns {‖r‖²_P, rᵀz} and sets
// `bad` when a diagonal entry is not positive.
std::array<Real, 2> setup_pass(const SchurSystem& A, const VecX& b, VecX& x, LinearScratch& s, bool& bad) {
  std::atomic<bool> flag{false};  // only ever set: the same outcome in any order
  const auto sums = deterministic_sums<2>(A.size(), s.partials, [&](int i, Real* acc) {
    const Real d = A.diagonal_row(i);
    if (!(d > 0)) flag.store(true, std::memory_order_relaxed);
    s.diag[i] = d;
    s.inv_diag[i] = d > 0 ? Real(1) / d : Real(0);
    x[i] = 0;
    s.r[i] = b[i];
    s.z[i] = s.inv_diag[i] * s.r[i];
    s.p[i] = s.z[i];
    acc[0] += s.r[i] * s.r[i] * s.inv_diag[i];
    acc[1] += s.r[i] * s.z[i];
  });
  bad = flag.load(std::memory_order_relaxed);
  return sums;
}

// Every iterative solver's exit test, before each iteration: the residual is within `stop`, or
// the step was cancelled (LinearScratch::cancel; the iterate so far is returned).
bool converged_or_cancelled(LinearSolveStats& st, Real stop, const LinearScratch& s) {
  if (st.final_residual <= stop) return true;
  if (!s.cancelled()) return false;
  st.breakdown = LinearBreakdown::Cancelled;
  return true;
}

// Preconditioned conjugate residual (§8.2, notes/nsn-solver.md): minimises ‖b − A x‖_P over the
// Krylov space, one A-product per iteration. Fused: an iteration is the node pass of the product
// (SchurSystem::jt_inv_h) and three row passes, each with its reduction (chunked, added in chunk
// order: the same bits on any thread count):
//   1. x += α p, r −= α Ap, z −= α P Ap; ‖r‖²_P           (needs α = ρ / ‖Ap‖²_P)
//   2. Az = J H⁻¹Jᵀz + C z;               ρ' = zᵀAz       (needs the node pass over z)
//   3. p = z + β p, Ap = Az + β Ap;       ‖Ap‖²_P         (needs β = ρ' / ρ)
// The arithmetic of each quantity is that of the textbook loop (the test's reference PCR).
LinearSolveStats pcr(const SchurSystem& A, const VecX& b, VecX& x, int iterations, Real tol,
                     LinearScratch& s, std::vector<Real>* history, Real r_norm2) {
  const int n = A.size();
  auto& parts = s.partials;
  A.jt_inv_h(s.z.data(), s.dofs1, s.dofs2);
  auto [rho, denom] = deterministic_sums<2>(n, parts, [&](int i, Real* acc) {
    s.az[i] = A.apply_row(i, s.dofs2, s.z.data());
    s.ap[i] = s.az[i];
    acc[0] += s.z[i] * s.az[i];
    acc[1] += s.ap[i] * s.ap[i] * s.inv_diag[i];
  });
  LinearSolveStats st;
  st.initial_residual = st.final_residual = std::sqrt(r_norm2);
  const Real stop = tol * st.initial_residual;
  for (int k = 0; k < iterations; ++k) {
    if (converged_or_cancelled(st, stop, s)) break;
    if (!(rho > 0)) {  // z ≠ 0 here (r ≠ 0): zᵀAz <= 0 means A is not positive definite
      st.breakdown = krylov_breakdown(rho, st);
      break;
    }
    if (!(denom > 0)) {
      st.breakdown = krylov_breakdown(denom, st);
      break;
    }
    const Real alpha = rho / denom;
    const Real r2 = deterministic_sum(n, parts, [&](int i) {
      x[i] += alpha * s.p[i];
      s.r[i] -= alpha * s.ap[i];
      s.z[i] -= alpha * s.inv_diag[i] * s.ap[i];
      return s.r[i] * s.r[i] * s.inv_diag[i];
    });
    A.jt_inv_h(s.z.data(), s.dofs1, s.dofs2);
    const Real rho_new = deterministic_sum(n, parts, [&](int i) {
      s.az[i] = A.apply_row(i, s.dofs2, s.z.data());
      return s.z[i] * s.az[i];
    });
    const Real beta = rho_new / rho;
    rho = rho_new;
    denom = deterministic_sum(n, parts, [&](int i) {
      s.p[i] = s.z[i] + beta * s.p[i];
      s.ap[i] = s.az[i] + beta * s.ap[i];
      return s.ap[i] * s.ap[i] * s.inv_diag[i];
    });
    st.iterations = k + 1;
    st.final_residual = std::sqrt(r2);
    if (history) history->push_back(st.final_residual);
  }
  return st;
}

// Jacobi-preconditioned conjugate gradient (the comparison of §8.2). Fused as PCR: the node pass
// over p, then two row passes:
//   1. Ap = J H⁻¹Jᵀp + C p;                        pᵀAp
//   2. x += α p, r −= α Ap, z = P r;                rᵀz     (needs α = rᵀz / pᵀAp)
//   3. p = z + β p                                          (needs β = rᵀz' / rᵀz)
LinearSolveStats pcg(const SchurSystem& A, const VecX& b, VecX& x, int iterations, Real tol,
                     LinearScratch& s, std::vector<Real>* history, Real rz) {
  const int n = A.size();
  auto& parts = s.partials;
  LinearSolveStats st;
  st.initial_residual = st.final_residual = std::sqrt(std::max(rz, Real(0)));
  const Real stop = tol * st.initial_residual;
  for (int k = 0; k < iterations; ++k) {
    if (converged_or_cancelled(st, stop, s)) break;
    if (!(rz > 0)) {
      st.breakdown = krylov_breakdown(rz, st);
      break;
    }
    A.jt_inv_h(s.p.data(), s.dofs1, s.dofs2);
    const Real pap = deterministic_sum(n, parts, [&](int i) {
      s.ap[i] = A.apply_row(i, s.dofs2, s.p.data());
      return s.p[i] * s.ap[i];
    });
    if (!(pap > 0)) {
      st.breakdown = krylov_breakdown(pap, st);
      break;
    }
    const Real alpha = rz / pap;
    const Real rz_new = deterministic_sum(n, parts, [&](int i) {
      x[i] += alpha * s.p[i];
      s.r[i] -= alpha * s.ap[i];
      s.z[i] = s.inv_diag[i] * s.r[i];
      return s.r[i] * s.z[i];
    });
    const Real beta = rz_new / rz;
    rz = rz_new;
    parallel_for(n, [&](int i) { s.p[i] = s.z[i] + beta * s.p[i]; });
    st.iterations = k + 1;
    st.final_residual = std::sqrt(std::max(rz, Real(0)));
    if (history) history->push_back(st.final_residual);
  }
  return st;
}

// Damped Jacobi: x += ω D⁻¹ (b − A x).
LinearSolveStats jacobi(const SchurSystem& A, const VecX& b, VecX& x, int iterations, Real tol,
                        Real omega, LinearScratch& s, std::vector<Real>* history) {
  const int n = A.size();
  auto& parts = s.partials;
  x.setZero();
  s.r.head(n) = b.head(n);
  LinearSolveStats st;
  st.initial_residual = st.final_residual = p_norm(n, s.r, s.inv_diag, parts);
  const Real stop = tol * st.initial_residual;
  for (int k = 0; k < iterations; ++k) {
    if (converged_or_cancelled(st, stop, s)) break;
    parallel_for(n, [&](int i) { x[i] += omega * s.inv_diag[i] * s.r[i]; });
    A.apply(x, s.ap, s.dofs1, s.dofs2);
    parallel_for(n, [&](int i) { s.r[i] = b[i] - s.ap[i]; });
    st.iterations = k + 1;
    st.final_residual = p_norm(n, s.r, s.inv_diag, parts);
    if (history) history->push_back(st.final_residual);
  }
  return st;
}

// Gauss–Seidel sweeps in row order, keeping z = H⁻¹ Jᵀ x up to date row by row (sequential).
LinearSolveStats gauss_seidel(const SchurSystem& A, const VecX& b, VecX& x, int iterations, Real tol,
                              LinearScratch& s, std::vector<Real>* history) {
  const int n = A.size();
  auto& parts = s.partials;
  x.setZero();
  VecX& z = s.dofs3;
  z.setZero();
  LinearSolveStats st;
  st.initial_residual = st.final_residual = p_norm(n, b, s.inv_diag, parts);
  const Real stop = tol * st.initial_residual;
  for (int k = 0; k < iterations; ++k) {
    if (converged_or_cancelled(st, stop, s)) break;
    for (int i = 0; i < n; ++i) {
      if (!(s.diag[i] > 0)) continue;
      const Real ax = A.j_row(i, z) + A.diag_c(i) * x[i];
      const Real delta = (b[i] - ax) * s.inv_diag[i];
      x[i] += delta;
      A.add_inv_h_jt_row(i, delta, z);
    }
    A.apply(x, s.ap, s.dofs1, s.dofs2);
    parallel_for(n, [&](int i) { s.r[i] = b[i] - s.ap[i]; });
    st.iterations = k + 1;
    st.final_residual = p_norm(n, s.r, s.inv_diag, parts);
    if (history) history->push_back(st.final_residual);
  }
  return st;
}

// Direct: an exact solve with a sparse LDLᵀ (solver/direct_factor.hpp: the saddle-point form along
// the joint tree, or A assembled; patterns, orderings and analyses kept while the rows' nodes do
// not change). One "iteration": the exact solve, its residual recorded like the iterative
// solvers'. The tree form's pivots mix body masses and inertias with the rows' compliances, so
// its x can carry more round-off than A's (a workcell system: 1e-10 of ‖b‖ against 1e-14): above
// 1e-12 · ‖b‖_P (double) one step of iterative refinement follows, and a solution still above
// √(machine ε) · ‖b‖_P (1.5e-8: a badly scaled pivot) is solved again with A's own factor.
const Real kTreeRefineAbove = 1e4 * std::numeric_limits<Real>::epsilon();
const Real kTreeResidualLimit = std::sqrt(std::numeric_limits<Real>::epsilon());

LinearSolveStats direct(const SchurSystem& A, const VecX& b, VecX& x, LinearScratch& s,
                        std::vector<Real>* history) {
  const int n = A.size();
  LinearSolveStats st;
  st.initial_residual = p_norm(n, b, s.inv_diag, s.partials);
  auto solve_and_measure = [&](bool factorised) {
    if (factorised) {
      s.direct.solve(b, x);
    } else {
      x.setZero();
      st.breakdown = LinearBreakdown::Factorisation;
    }
    A.apply(x, s.ap, s.dofs1, s.dofs2);
    parallel_for(n, [&](int i) { s.r[i] = b[i] - s.ap[i]; });
    st.final_residual = p_norm(n, s.r, s.inv_diag, s.partials);
  };
  solve_and_measure(s.direct.factorize(A));
  if (s.direct.elimination() == DirectElimination::Tree && !(st.final_residual <= kTreeRefineAbove * st.initial_residual)) {
    // One step of iterative refinement with the same factor: x += K⁻¹(b − A x).
    VecX& correction = s.tmp_rows;
    s.direct.solve(s.r, correction);
    for (int i = 0; i < n; ++i) x[i] += correction[i];
    A.apply(x, s.ap, s.dofs1, s.dofs2);
    parallel_for(n, [&](int i) { s.r[i] = b[i] - s.ap[i]; });
    st.final_residual = p_norm(n, s.r, s.inv_diag, s.partials);
  }
  if (s.direct.elimination() == DirectElimination::Tree && !(st.final_residual <= kTreeResidualLimit * st.initial_residual)) {
    st.breakdown = LinearBreakdown::None;
    solve_and_measure(s.direct.factorize_row_space(A));
  }
  st.iterations = 1;
  if (history) history->push_back(st.final_residual);
  return st;
}

}  // namespace

namespace {

LinearSolveStats dispatch(LinearSolver solver, const SchurSystem& A, const VecX& b, VecX& x, int iterations,
                          Real tolerance, Real jacobi_weight, LinearScratch& s, std::vector<Real>* history,
                          const std::array<Real, 2>& start) {
  switch (solver) {
    case LinearSolver::PCR: return pcr(A, b, x, iterations, tolerance, s, history, start[0]);
    case LinearSolver::PCG: return pcg(A, b, x, iterations, tolerance, s, history, start[1]);
    case LinearSolver::Jacobi: return jacobi(A, b, x, iterations, tolerance, jacobi_weight, s, history);
    case LinearSolver::GaussSeidel: return gauss_seidel(A, b, x, iterations, tolerance, s, history);
    case LinearSolver::Direct: return direct(A, b, x, s, history);
    case LinearSolver::Auto: break;  // resolved by the caller (resolve_linear_solver)
  }
  return {};
}

}  // namespace

LinearSolver resolve_linear_solver(LinearSolver chosen, const SchurSystem& A, int linear_budget, DirectFactor& direct) {
  if (chosen != LinearSolver::Auto) return chosen;
  const RowSet& rows = A.rows();
  const bool articulated = A.model().particle_count == 0 && rows.first_normal > 0;
  if (!articulated || rows.count > kAutoDirectRows) return LinearSolver::PCR;
  const double krylov_cost = 72.0 * std::max(linear_budget, 1) * rows.entry_count;
  return direct.analyse(A) <= kAutoDirectCost * krylov_cost ? LinearSolver::Direct : LinearSolver::PCR;
}

LinearSolveStats solve_linear(LinearSolver solver, const SchurSystem& A, const VecX& b, VecX& x,
                              int iterations, Real tolerance, Real jacobi_weight,
                              LinearScratch& s, std::vector<Real>* history) {
  // The row buffers take the rows' capacity (row_capacity.hpp), not only this step's rows.
  const int room = std::max(A.size(), static_cast<int>(A.rows().row_lambda.capacity()));
  s.resize(room, A.model().dof_count());
  grow_rows(x, room);
  bool bad_diagonal = false;
  const std::array<Real, 2> start = setup_pass(A, b, x, s, bad_diagonal);
  // A = J H⁻¹ Jᵀ + C + εI has a positive diagonal when it is positive definite; a row whose
  // diagonal is not (a negative compliance, say) would be invisible to the P-norm (P = diag⁻¹
  // is 0 there) and to every solver: a breakdown before any iteration.
  if (bad_diagonal)
    for (int i = 0; i < A.size(); ++i)
      if (!(s.diag[i] > 0)) {
        LinearSolveStats st;
        st.breakdown = std::isfinite(s.diag[i]) ? LinearBreakdown::NotPositive : LinearBreakdown::NonFinite;
        x.setZero();
        return st;
      }
  LinearSolveStats st = dispatch(solver, A, b, x, iterations, tolerance, jacobi_weight, s, history, start);
  // What every solver is checked for, whatever its own loop noticed: a non-finite input or
  // result, and a residual that did not fall although iterations ran.
  if (st.breakdown == LinearBreakdown::None) {
    if (!std::isfinite(st.initial_residual) || !std::isfinite(st.final_residual) || !x.head(A.size()).allFinite())
      st.breakdown = LinearBreakdown::NonFinite;
    else if (st.iterations > 0 && st.initial_residual > 0 && !(st.final_residual < st.initial_residual))
      st.breakdown = LinearBreakdown::Stagnated;
  }
  return st;
}

}  // namespace sim
