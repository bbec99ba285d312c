// A failed step, solved again with a capture (issue 15 item 6). When a step fails (diverged,
// non-finite, blew up: StepReport flags), sim::step has already undone it; the simulation thread
// pauses, rolls back to the history's last good state (the one the step started from) and solves
// the step again from it with Workspace::capture set, so the Solve capture panel can show every
// Newton iterate of the failure, its offending rows and a one-line explanation
// (ui/solve_diagnosis.hpp). The re-run is deterministic (the whole step input is in the State and
// the Control), so it fails the same way; `reproduced` says whether it did.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/model.hpp"
#include "sim/solve_capture.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "gui/capture_ring.hpp"
#include "ui/solve_diagnosis.hpp"

namespace coulomb::gui {

// Also the shape of any capture opened in the Solve capture panel (one the ring kept on a
// trigger: `trigger`, `ring_id`; for those report == original and the diagnosis describes the
// worst row, ui::describe_captured_step).
struct FailedStep {
  std::uint64_t id = 0;           // increases with every capture opened in a run (a failure or one picked)
  CaptureTrigger trigger = CaptureTrigger::Failure;
  std::uint64_t ring_id = 0;      // its CaptureSummary::id in the ring (0: not kept there)
  sim::SolveCapture capture;      // the re-run's solve (capture.filled false: refused before the solve)
  std::vector<sim::Contact> contacts;  // the solved step's contacts (the viewport replay places them)
  sim::StepReport report;         // the re-run's report
  sim::StepReport original;       // the failed step's own report
  ui::SolveDiagnosis diagnosis;
  bool reproduced = false;        // the re-run failed with the same flags
  long history_index = -1;        // the history entry rolled back to (-1: none)
  double time = 0;                // the simulated time of the step's start [s]
};

// Solves the step from `start` with `control` again, capturing it, in `workspace` (its solver
// scratch is reused; its cancel flag applies). `start` is not changed.
FailedStep capture_failed_step(const sim::Model& model, const sim::SolverOptions& options, const sim::State& start,
                               const sim::Control& control, sim::Workspace& workspace, const sim::StepReport& original);

// A solve the ring kept, opened: a copy of its slot with its diagnosis (a failure's, else its
// worst row with why it was kept).
FailedStep open_kept_capture(const sim::Model& model, const CaptureRing::Slot& slot);

}  // namespace coulomb::gui
