#include "gui/failed_step.hpp"

namespace coulomb::gui {

FailedStep capture_failed_step(const sim::Model& model, const sim::SolverOptions& options, const sim::State& start,
                               const sim::Control& control, sim::Workspace& workspace, const sim::StepReport& original) {
  FailedStep f;
  f.original = original;
  f.time = static_cast<double>(start.time);
  sim::State state = start;
  sim::SolveCapture* const previous = workspace.capture;
  workspace.capture = &f.capture;
  f.report = sim::step(model, options, state, control, workspace);
  workspace.capture = previous;
  f.reproduced = f.report.flags == original.flags;
  f.diagnosis = ui::diagnose_failed_step(model, f.capture, f.report);
  return f;
}

}  // namespace coulomb::gui
