// Forcing terms of the inexact Newton loop (SolverOptions::linear_forcing_max): how accurately
// each Newton direction's linear system is solved.
//
// Eisenstat & Walker, "Choosing the forcing terms in an inexact Newton method" (SIAM J. Sci.
// Comput. 17, 1996), choice 2 with γ = 0.9, α = 2: the linear solve of iteration k stops once
//   ‖b − A x‖ ≤ η_k ‖b‖,   η_k = γ (‖F_k‖ / ‖F_{k−1}‖)^α,
// safeguarded against a sudden drop by η_k ≥ γ η_{k−1}^α whenever γ η_{k−1}^α > 0.1, and kept in
// [η_min, η_max]. ‖F‖ is the Newton residual's norm; here F = √merit (the line search's merit
// ½gᵀM⁻¹g + ½Σh²/k, solver/newton_residuals.hpp), so (‖F_k‖/‖F_{k−1}‖)² is the merit ratio.
// Far from the solution (the ratio near 1) a loose solve suffices and the Krylov iterations it
// would spend are saved; as the residual falls fast the tolerance tightens with it, which keeps
// Newton's superlinear convergence where the non-smooth Newton has it.
//
// A direction that no step length accepted (a watchdog step) is not trusted to have been solved
// well enough: the next solve runs to η_min (the linear budget, SolverOptions::linear_iterations,
// bounds every solve either way).
#pragma once

#include <algorithm>
#include <cmath>

#include "sim/math.hpp"

namespace sim {

class InexactNewtonForcing {
 public:
  static constexpr Real kGamma = Real(0.9);
  static constexpr Real kSafeguard = Real(0.1);

  // eta_max <= 0: forcing off, every solve to eta_min (SolverOptions::linear_tolerance).
  InexactNewtonForcing(Real eta_max, Real eta_min)
      : eta_min_(std::max(eta_min, Real(0))),
        eta_max_(std::max(eta_max, eta_min_)),
        enabled_(eta_max > 0),
        eta_(enabled_ ? eta_max_ : eta_min_) {}

  // The relative tolerance for the next linear solve.
  Real tolerance() const { return eta_; }
  bool enabled() const { return enabled_; }

  // After a Newton step: the merit at the iterate the direction was solved at and at the iterate
  // the step reached; `rejected`: no step length was accepted (the step taken was a watchdog's).
  void update(Real merit_before, Real merit_after, bool rejected) {
    if (!enabled_) return;
    if (rejected || !(merit_before > 0) || !std::isfinite(merit_after)) {
      eta_ = eta_min_;
      return;
    }
    Real eta = kGamma * std::max(merit_after, Real(0)) / merit_before;  // γ (‖F_k‖/‖F_{k−1}‖)²
    const Real floor = kGamma * eta_ * eta_;                             // γ η_{k−1}²
    if (floor > kSafeguard) eta = std::max(eta, floor);
    eta_ = std::clamp(eta, eta_min_, eta_max_);
  }

 private:
  Real eta_min_;
  Real eta_max_;
  bool enabled_;
  Real eta_;
};

}  // namespace sim
