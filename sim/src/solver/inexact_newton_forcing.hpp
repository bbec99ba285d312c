// Forcing terms of the inexact Newton loop (SolverOptions::linear_forcing_max): how accurately
// each Newton direction's linear system is solved by the Krylov solvers (PCR, PCG).
//
// An inexact Newton method solves J Δ = −F only to ‖b − A x‖ ≤ η_k ‖b‖ (Dembo, Eisenstat &
// Steihaug 1982). Solving more accurately than the Newton loop's own stopping test needs is
// "oversolving" (Eisenstat & Walker 1996): to bring an iterate whose residual is ρ times its
// tolerance within it, a direction good to about 1/ρ relative suffices. So, Kelley's safeguard
// against oversolving (Kelley 1995, "Iterative Methods for Linear and Nonlinear Equations",
// eq. 6.20, the 0.5 τ/‖F‖ term) with the margin σ:
//   η_k = clamp(σ / ρ_k, η_min, η_max),   σ = 0.1,
// ρ_k = newton_tolerance_ratio (solver/newton_residuals.hpp): the largest residual of the
// iterate over its tolerance, the quantity the loop stops on. Far from the tolerance (ρ large)
// every solve runs to η_min or its budget, as without forcing; near it the solve stops early:
// resting and slowly moving scenes, the last iterations of every solve.
//
// Eisenstat & Walker's choice 2 for the rest, η_k = 0.9 (‖F_k‖/‖F_{k−1}‖)², loosens the solves
// while the Newton residual falls slowly. Measured here it cost the non-smooth Newton its
// convergence where it was slow for want of exact directions (150 steps at η_max = 0.1:
// table_pile complementarity 1.2e-3 → 5.1e-3 m, friction 2.0e-2 → 3.3e-2 m/s; friction_spread
// 0 → 62 steps not converged; docs/benchmarks.md), so it is not used: far from the tolerance
// the solves stay exact.
//
// With forcing on, η_min is at least kRoundOff: a solve already at round-off stops.
//
// And once a step's line search had to shorten a step (t < 1) or found none (a watchdog step),
// the directions are what limits progress: the rest of that step's solves run to η_min
// (friction_spread: 14 steps not converged of 120 without this rule, 0 with it).
#pragma once

#include <algorithm>

#include "sim/math.hpp"

namespace sim {

class InexactNewtonForcing {
 public:
  static constexpr Real kMargin = Real(0.1);  // σ
  // With forcing on, no solve goes on below this relative residual: round-off in double precision,
  // where a Krylov solve stagnates (a 12-row sliding box: 1.9e-22 from iteration 9 to its 40th).
  static constexpr Real kRoundOff = Real(1e-12);

  // eta_max <= 0: forcing off, every solve to eta_min (SolverOptions::linear_tolerance).
  InexactNewtonForcing(Real eta_max, Real eta_min)
      : eta_min_(eta_max > 0 ? std::max(eta_min, kRoundOff) : std::max(eta_min, Real(0))),
        eta_max_(std::max(eta_max, eta_min_)),
        enabled_(eta_max > 0) {}

  bool enabled() const { return enabled_; }

  // The relative tolerance for the solve of the direction at an iterate whose residuals are
  // `tolerance_ratio` times the Newton tolerances (newton_tolerance_ratio; infinite or NaN: far).
  Real tolerance(Real tolerance_ratio) const {
    if (!enabled_ || exact_ || !(tolerance_ratio > 0)) return eta_min_;
    return std::clamp(kMargin / tolerance_ratio, eta_min_, eta_max_);
  }

  // After the line search: t = 1 taken (`full_step`) or not; after a shortened or watchdog step
  // the rest of the step's solves are exact.
  void step_taken(bool full_step) { exact_ = exact_ || !full_step; }

 private:
  Real eta_min_;
  Real eta_max_;
  bool enabled_;
  bool exact_ = false;
};

}  // namespace sim
