#include "gui/failed_step.hpp"

#include <cstdio>
#include <string>

#include "ui/plot_axis.hpp"

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
  f.contacts = workspace.contacts.contacts;
  f.reproduced = f.report.flags == original.flags;
  f.diagnosis = ui::diagnose_failed_step(model, f.capture, f.report);
  return f;
}

FailedStep open_kept_capture(const sim::Model& model, const CaptureRing::Slot& slot) {
  FailedStep f;
  copy_solve(slot.capture, f.capture);
  f.contacts = slot.contacts;
  f.report = f.original = slot.report;
  f.trigger = slot.summary.trigger;
  f.ring_id = slot.summary.id;
  f.time = slot.summary.time;
  f.reproduced = true;
  if (!slot.report.ok()) {
    f.diagnosis = ui::diagnose_failed_step(model, f.capture, f.report);
    return f;
  }
  char why[160];
  switch (slot.summary.trigger) {
    case CaptureTrigger::Residual:
      std::snprintf(why, sizeof why, "kept: its final residual %s is above the trigger's threshold",
                    ui::readout(slot.summary.residual).c_str());
      break;
    case CaptureTrigger::ContactChange:
      std::snprintf(why, sizeof why, "kept: the contact count changed (now %d)", slot.summary.contacts);
      break;
    case CaptureTrigger::Key: std::snprintf(why, sizeof why, "kept on request (F9)"); break;
    default: std::snprintf(why, sizeof why, "kept by the continuous capture"); break;
  }
  f.diagnosis = ui::describe_captured_step(model, f.capture, why);
  return f;
}

}  // namespace coulomb::gui
