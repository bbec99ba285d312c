// The blow-up detector for free motion (issue 19): a body or particle far outside any sane scene
// (SolverOptions::world_bound), or moving faster than any sane scene moves it (speed_limit,
// angular_speed_limit), flags the step. step() runs it on the state entering the step (refused,
// not taken) and on the state it produced (undone: the state as at the step's start). Joint rows
// have their own detector (solver/joint_error_check.hpp); this one sees what no row does: a box
// under gravity 1e9 at z = −69,527 m, a body at 10⁶ m/s tunnelling through the ground.
// Nothing throws; nothing is allocated on the good path.
#pragma once

#include <string>

#include "sim/model.hpp"
#include "sim/solver_options.hpp"
#include "sim/state.hpp"
#include "sim/trace.hpp"

namespace sim::detail {

enum class BoundsCheckAt { StepInput, StepResult };

// True when every body's centre of mass and every particle lies within world_bound of the origin
// on each axis and moves within speed_limit (bodies also within angular_speed_limit); otherwise
// sets kStepOutOfBounds (with kStepInvalidInput at the step's input) and a message naming the
// first such body or particle, the value and the bound, and returns false. Assumes q and u
// finite and sized for the model (check_step_input runs first; the solvers flag non-finite
// results themselves).
bool check_state_bounds(const Model& model, const SolverOptions& options, const State& state, BoundsCheckAt at,
                        StepReport& report);

// "body 'name'" (or "body 3" when unnamed) for body < model.body_count, else "particle k" for
// particle k = body - body_count: the element a message names.
std::string element_name(const Model& model, int body_or_particle);

}  // namespace sim::detail
