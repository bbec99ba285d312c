// The Solver panel: which solver runs (SolverKind: the next step re-creates the running
// simulation's solver) and every option of that solver, live. The panel edits a copy of the
// options owned by the caller and reports whether it changed; the app applies it between steps.
#pragma once

#include "sim/solver_options.hpp"

namespace ui {

struct SolverPanelView {
  sim::SolverOptions options;  // edited in place
  float dt = 1.0f / 120.0f;    // time step [s], edited in place
  // The backend: the device the app found (null: none, `device_missing` says why) and whether the
  // steps use it (edited in place; only offered when there is a device).
  const char* device = nullptr;
  const char* device_missing = nullptr;
  bool use_device = false;
};

// Draws the panel; returns true when the user changed an option or dt this frame.
bool solver_panel(SolverPanelView& view);

// The choices the panel's combo boxes offer, and the setters they call: the same code path as a
// click, for tests and scripting.
const char* const* solver_kind_choices(int& count);
const char* const* ncp_choices(int& count);
const char* const* preconditioner_choices(int& count);
const char* const* linear_solver_choices(int& count);
void choose_solver_kind(sim::SolverOptions& options, int index);
void choose_ncp(sim::SolverOptions& options, int index);
void choose_preconditioner(sim::SolverOptions& options, int index);
void choose_linear_solver(sim::SolverOptions& options, int index);

}  // namespace ui
