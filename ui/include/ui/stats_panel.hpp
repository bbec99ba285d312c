// The Stats panel: timings per stage and the counts of the scene and of the last step.
#pragma once

#include "sim/trace.hpp"

namespace ui {

struct StatsView {
  int bodies = 0, particles = 0, joints = 0, dofs = 0;
  sim::StepReport report;           // last step
  double sim_time = 0;              // [s]
  double real_time_factor = 0;      // simulated seconds per wall second, recent average
  const char* backend = "CPU";      // where the steps' large linear solves run (SimRunner::backend)
  long long retried_steps = 0;      // steps of this run that failed and passed with more substeps (sim::kStepRetried)
  const char* last_retry = "";      // the last one: its time and what it recovered from
};

void stats_panel(const StatsView& view);

}  // namespace ui
