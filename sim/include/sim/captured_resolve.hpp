// Solving a captured step again (the solver debugger's A/B and sweep, issue 15 item 4): the
// step's input (the State at its start and the Control, SolveCapture::start/control) solved with
// given solver options, captured. One function for `coulomb solve-captured --set` and the app's
// Solve capture panel, so both compare the same thing. Allocates (a fresh Workspace and capture):
// a user's request, not the step loop.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/model.hpp"
#include "sim/solve_capture.hpp"
#include "sim/solver_options.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"

namespace sim {

struct ResolvedStep {
  SolveCapture capture;
  StepReport report;
};

// Solves the step starting at `start` with `control` under `options`, capturing the solve (and
// the Newton system of `system_iteration`, -1: none). `start` is not changed.
ResolvedStep resolve_captured_step(const Model& model, const SolverOptions& options, const State& start,
                                   const Control& control, int system_iteration = -1);

// The largest residual (normal, friction, bilateral) at a captured iterate (its trace's *_max).
Real iterate_residual(const IterationTrace& t);

// One solve of a sweep: the swept option's value, the work it took and the error it left.
struct SweepPoint {
  double value = 0;            // the option's value
  int newton_iterations = 0;   // Newton iterations taken
  int linear_iterations = 0;   // linear iterations over all Newton iterations (the work)
  Real residual = 0;           // iterate_residual of the last iterate (the error)
  Real merit = 0;              // the last iterate's merit [J]
  bool ok = false;             // the step did not fail
};

// Solves the step once per value of the numeric solver option `key` (set_solver_option's keys:
// "linear_iterations", "newton_iterations", "jacobi_weight", ...), the other options `base`.
// Returns "" or the first refused value's message (then `out` holds the points before it).
std::string sweep_captured_step(const Model& model, const SolverOptions& base, const State& start, const Control& control,
                                std::string_view key, const std::vector<double>& values, std::vector<SweepPoint>& out);

// `count` values from `from` to `to`, evenly spaced, rounded to whole numbers when `integer`
// (repeats dropped): 5..80 in 6 gives 5 20 35 50 65 80.
std::vector<double> sweep_values(double from, double to, int count, bool integer);

}  // namespace sim
