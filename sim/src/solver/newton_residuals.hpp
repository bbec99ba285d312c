// What the Newton loop measures at an iterate (u, λ): residuals per row kind for the trace, the
// convergence test and the merit function of the line search.
//
// Residual vector F = [g; h] with g = M(u − ũ) − h Jᵀλ (eq. 57) and h the rows' residuals
// (eq. 58). Merit (an energy, J):
//   Φ = ½ gᵀ M⁻¹ g + ½ Σ_i h_i² / k_i,   k_i = [J M⁻¹ Jᵀ]_ii at q⁻ (row_inv_mass)
// g [N s] weighted by M⁻¹ and h [m/s] by the effective mass 1/k: both terms are kinetic
// energies, so no row kind or body dominates by its units. M⁻¹ and k are fixed for the step, so Φ
// is one function along the whole iteration; for an exact Newton direction d, dΦ/dt = −2Φ at t = 0
// and the Armijo test Φ(t) <= (1 − 2σt) Φ(0) accepts t = 1 near a solution.
//
// Friction at the cone's tip (SolverOptions::friction_merit_natural_map). A friction row's h_i is
// its residual φ_f = Dᵀu + Wλ_f, or rλ_f in the inactive set (μλ_n <= 0). As μλ_n leaves 0 with
// λ_f still 0 (a new contact, warm-started at λ_n = 0, sliding at v), W is at its cap and φ_f
// jumps from 0 to v: Φ is discontinuous there. Measured on a Fetch grasp step (55 contacts):
// Φ(0) = 1.13e-2, Φ(1e-6) = 3.08e-2 along the Newton direction, from six friction rows at 0.43 m/s
// of slip; no t passed Armijo and the step ended where it started. With the option the rows'
// h_i is the contact's natural-map error e/√2 (the convergence test's friction residual; e → r|λ_f|
// as μλ_n → 0, continuous), and the same direction fell at dΦ/dt = −2.04 Φ, the exact-Newton rate.
// The descent solvers' merit measures friction that way already (solver/iterate_measure.cpp).
// φ_f also misleads where a sliding contact's load moves: W is frozen in the system (eq. 101), so
// a direction that shifts λ_n between the contacts of a box sliding flat leaves λ_f as it was,
// and φ_f, with W evaluated again, moves by about the slip times Δλ_n/λ_n: on a 0.2 m cube at
// 2 m/s (μ 0.5) that outweighed the last 1e-5 rad/s of momentum residual and no t passed Armijo
// (59 of 60 steps unconverged); e moves by rμΔλ_n, and every step converges. So the option is on
// by default (since 8 Dec 2026; tests/scenes/test_friction_merit.cpp).
//
// Convergence (SolverOptions::newton_tolerance, newton_velocity_tolerance):
//   position rows (joints, distances, limits, contact normals): |c + eλ|, |φ_n| [m or rad]  <= tol
//   complementarity |min(C, rλ)| over limits and contact normals [m]                     <= tol
//   velocity rows (drives, friction: r|λ_f − proj(λ_f − Dᵀu/r)|) [m/s or rad/s]          <= tol_v
//   the momentum error |M⁻¹ g| per dof [m/s or rad/s]                                    <= tol_v
#pragma once

#include "constraint/rows.hpp"
#include "sim/model.hpp"
#include "sim/trace.hpp"
#include "solver/schur_system.hpp"

namespace sim {

inline constexpr Real kArmijoFraction = Real(1e-4);  // σ of the sufficient-decrease test
inline constexpr Real kMinStep = Real(1) / 16;       // smallest t the line search tries

// Fills the residual fields of `t` (normal, friction, bilateral, momentum, complementarity,
// position_error_max, velocity_error_max, merit). Returns false if any row value, residual, multiplier or g is not finite
// (a NaN never hides behind a max).
// With `friction_natural_map` (SolverOptions::friction_merit_natural_map) a friction row's h_i in
// the merit is its contact's natural-map error e over √2 (the contact's two rows together: e²),
// not its residual φ_f: continuous where μλ_n leaves 0, where φ_f jumps from rλ_f to the slip.
bool measure_iterate(const Model& model, const RowSet& rows, const InverseMass& inv_mass, const VecX& g,
                     NewtonIterationTrace& t, bool friction_natural_map = false);

// True when every residual of `t` is within the tolerances as described above.
bool newton_converged(const NewtonIterationTrace& t, Real tolerance, Real velocity_tolerance);
// How far the iterate is from that test, as one number: the largest of its residuals each divided
// by its tolerance (position rows and complementarity by `tolerance`, velocity rows and the
// momentum error by `velocity_tolerance`); <= 1 exactly when newton_converged; infinite with a
// zero tolerance and a non-zero residual.
Real newton_tolerance_ratio(const NewtonIterationTrace& t, Real tolerance, Real velocity_tolerance);

}  // namespace sim
