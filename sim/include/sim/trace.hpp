// SolverTrace and StepReport: what one step did, for tests, the CLI and the debugger panels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/solver_options.hpp"

namespace sim {

// One iteration of whichever solver ran (SolverTrace::kind): its residuals per row kind, measured
// at the iterate the iteration starts from, in the rows' units (normal and bilateral rows in
// metres, friction rows in m/s; solver/newton_residuals.hpp), and the step it took. Every solver
// behind the seam (solver/step_solver.hpp) fills the residual fields, step_size and
// active_set_changes; the linear_* and line-search fields are the Newton solver's (0 for others).
struct IterationTrace {
  Real normal_max = 0, normal_l2 = 0;        // |φ_n| over contact rows
  Real friction_max = 0, friction_l2 = 0;    // |φ_f| over friction rows
  Real bilateral_max = 0, bilateral_l2 = 0;  // |c_b + E λ_b| over joint/distance rows (and drives)
  Real momentum_l2 = 0;                      // |g| (eq. 57) [N s]
  Real momentum_max = 0;                     // max |M⁻¹ g| per dof: the velocity error [m/s or rad/s]
  Real complementarity_max = 0;              // max |min(C, rλ)| over limits and contact normals [m]
  Real position_error_max = 0;               // max row error over position rows [m or rad]
  Real velocity_error_max = 0;               // max row error over drives and friction [m/s or rad/s]
  Real merit = 0;                            // ½ gᵀM⁻¹g + ½ Σ h_i²/k_i (solver/newton_residuals.hpp) [J]
  int linear_iterations = 0;
  Real linear_initial_residual = 0;          // |b - A x0|
  Real linear_final_residual = 0;            // |b - A x|
  int linear_residual_offset = 0;            // first entry in SolverTrace::linear_residuals
  Real linear_forcing = 0;                   // the relative tolerance η the linear solve was given
                                             // (SolverOptions::linear_forcing_max; 0: none)
  Real step_size = 0;                        // t (eqs. 61-62) the iteration took; PGS: its relaxation ω
  int line_search_trials = 0;                // evaluations the step length took (1: the first t)
  bool watchdog = false;                     // no t lowered the merit: an exploratory step t = damping
  int linear_breakdown = 0;                  // LinearBreakdown of the solve (0: none; see linear_solvers.hpp)
  bool linear_fallback = false;              // the solve broke down and was redone with Gauss–Seidel
  int active_set_changes = 0;                // contact rows that switched active/inactive, plus friction stick/slip switches
};
using NewtonIterationTrace = IterationTrace;  // the Newton solver's name for it

// What the solver of the last step did: one IterationTrace per iteration (over all substeps), each
// solve's list ending with the measurement of its result (so a solve of n iterations adds n + 1).

struct SolverTrace {
  SolverKind kind = SolverKind::NonSmoothNewton;  // the solver that filled this trace
  LinearSolver linear_solver = LinearSolver::PCR; // the Newton solver's linear solver in the last
                                                  // solve (SolverOptions::linear_solver, auto resolved)
  std::vector<IterationTrace> iterations;
  std::vector<Real> linear_residuals;       // per linear iteration |r|, all Newton iterations in order
  Real final_normal_max = 0;                // after the last update
  Real final_friction_max = 0;
  Real final_bilateral_max = 0;
  Real final_complementarity_max = 0;       // max over contacts of |min(C_n, λ_n r)| style error, see residual.hpp
  Real final_joint_angle_error_max = 0;     // max |c + eλ| over joints' rotational rows after the solve [rad]
  Real final_joint_position_error_max = 0;  // max |c + eλ| / bounding radius over joints' positional rows
  Real final_momentum_max = 0;              // max |M⁻¹ g| after the last update [m/s or rad/s]
  int newton_iterations = 0;                // iterations taken over all substeps (Newton: directions
                                            // solved; PGS: sweeps)
  bool returned_to_best = false;            // the result is an earlier iterate (a watchdog step ended worse)
  bool stalled = false;                     // stopped early: the best merit stopped falling at the full
                                            // linear budget (SolverOptions::newton_stall_iterations)
  int direct_analyses = 0;                  // the direct solver's orderings / symbolic analyses this
                                            // step (a new row pattern; 0 while the pattern is kept)
  void clear() {
    iterations.clear();
    linear_residuals.clear();
    final_normal_max = final_friction_max = final_bilateral_max = final_complementarity_max = 0;
    final_joint_angle_error_max = final_joint_position_error_max = final_momentum_max = 0;
    newton_iterations = 0;
    returned_to_best = false;
    stalled = false;
    direct_analyses = 0;
  }
};

// A step with any of these flags failed: step() leaves the State as it was at the step's start
// (every substep undone) and the message says what and where.
enum StepFlags : std::uint32_t {
  kStepOk = 0,
  kStepNonFinite = 1u << 0,        // NaN or Inf in a row value, residual, λ, g, u or the direction
  kStepResidualExploded = 1u << 1, // residual above SolverOptions::divergence_limit
  kStepLinearSolveFailed = 1u << 2,// the linear solve and its Gauss–Seidel fallback both broke down
  kStepInvalidInput = 1u << 3,     // state or control sized for another model
  kStepJointViolated = 1u << 4,    // a joint row violated after the solve beyond
                                   // SolverOptions::joint_{angle,position}_error_limit (blow-up)
  kStepOutOfBounds = 1u << 5,      // a body or particle beyond SolverOptions::world_bound or faster
                                   // than speed_limit / angular_speed_limit (blow-up)
  kStepCancelled = 1u << 6,        // Workspace::cancel was raised: stopped between iterations
};

// A step with warnings was taken, but not as asked: the CLI and the app count and show them.
enum StepWarnings : std::uint32_t {
  kStepNoWarning = 0,
  kStepNotConverged = 1u << 0,     // residuals above newton_tolerance at the iteration cap (any solver kind)
  kStepLinearFallback = 1u << 1,   // a linear solve broke down and was redone with Gauss–Seidel, or the device failed and it ran on the CPU
  kStepRetried = 1u << 2,          // the step failed and was taken again with more substeps (SolverOptions::step_retries);
                                   // StepReport::retries says how often, the message what failed
};

struct StepTimings {                 // [ms]
  double collision = 0, assembly = 0, solve = 0, integrate = 0, total = 0;
};

struct StepReport {
  std::uint32_t flags = kStepOk;
  std::uint32_t warnings = kStepNoWarning;
  std::vector<int> offending_rows;   // rows with non-finite, exploding or violated values (first few)
  std::string message;               // human-readable reason when flags != 0
  int contact_count = 0;
  int row_count = 0;
  int newton_iterations = 0;         // the solver's iterations (Newton directions, PGS sweeps)
  int linear_iterations = 0;         // summed over Newton iterations
  int unconverged_solves = 0;        // substeps that ended above the tolerances (any solver kind)
  int linear_fallbacks = 0;          // linear solves redone after a breakdown
  int condensed_iterations = 0;      // Newton iterations solved with the elastic rows condensed
  int retries = 0;                   // times the step was undone and taken again (kStepRetried)
  int substeps = 1;                  // substeps of the attempt reported: more than asked on a retry that passed;
                                     // a failure that stands reports the step as asked
  StepTimings timings;
  bool ok() const { return flags == kStepOk; }
};

}  // namespace sim
