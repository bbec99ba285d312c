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
bool measure_iterate(const Model& model, const RowSet& rows, const InverseMass& inv_mass, const VecX& g,
                     NewtonIterationTrace& t);

// True when every residual of `t` is within the tolerances as described above.
bool newton_converged(const NewtonIterationTrace& t, Real tolerance, Real velocity_tolerance);
// How far the iterate is from that test, as one number: the largest of its residuals each divided
// by its tolerance (position rows and complementarity by `tolerance`, velocity rows and the
// momentum error by `velocity_tolerance`); <= 1 exactly when newton_converged; infinite with a
// zero tolerance and a non-zero residual.
Real newton_tolerance_ratio(const NewtonIterationTrace& t, Real tolerance, Real velocity_tolerance);

}  // namespace sim
