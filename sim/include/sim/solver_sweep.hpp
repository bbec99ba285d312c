// Error against work for every solver kind (issue 18 item 6, `coulomb bench --sweep`): a scene
// run from its initial state for a number of steps once per kind and iteration budget, each
// solve held to exactly its budget (tolerances 0: the same work for every step), measuring the
// process CPU time per step and the constraint error each step leaves. The Primal/Dual Descent
// paper's figures compare its solvers this way (error against iterations and time).
#pragma once

#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/solver_options.hpp"

namespace sim {

struct SolverSweepPoint {
  SolverKind kind = SolverKind::NonSmoothNewton;
  int budget = 0;                  // the iteration cap (Newton iterations, PGS sweeps, dual/primal iterations)
  double cpu_ms_per_step = 0;      // process CPU time per step (every thread's) [ms]
  double constraint_error = 0;     // mean over steps of the largest final normal or bilateral error [m]
  double friction_error = 0;       // mean over steps of the largest final friction residual [m/s]
  double momentum_error = 0;       // mean over steps of the final velocity error max |M⁻¹ g| [m/s]
  int diverged_steps = 0;          // refused steps (divergence, non-finite values)
};

// Runs `model` for `steps` steps per kind of `kinds` and budget of `budgets`, from `base` (the
// scene's options) with the kind, the cap and tolerances 0. Points in kind-major order.
std::vector<SolverSweepPoint> sweep_solvers(const Model& model, const SolverOptions& base, int steps,
                                            const std::vector<SolverKind>& kinds, const std::vector<int>& budgets);

}  // namespace sim
