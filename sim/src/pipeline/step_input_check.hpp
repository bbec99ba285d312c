// The check at the entry of step(): a state or control holding NaN or inf is refused before
// collision detection runs (issue 13: a NaN in a recorded state became NaN separations and a
// face index of -1 in the polyhedron narrowphase). Nothing throws and nothing is allocated on
// the good path; a refusal names what and where ("state q[9] = nan (body 'box')"). Options
// whose counts would make the step reserve without bound are refused too.
#pragma once

#include "sim/model.hpp"
#include "sim/solver_options.hpp"
#include "sim/state.hpp"
#include "sim/trace.hpp"

namespace sim::detail {

// True when every entry of state.q, state.u and the control is finite and the options' counts
// are within sim/load_limits.hpp (the trace is reserved from them); otherwise sets
// kStepInvalidInput (with kStepNonFinite for a non-finite value) and the message in `report`
// and returns false. Then the state's bounds (pipeline/state_bounds_check.hpp): a body or
// particle beyond them is refused with kStepOutOfBounds.
bool check_step_input(const Model& model, const SolverOptions& options, const State& state, const Control& control,
                      StepReport& report);

}  // namespace sim::detail
