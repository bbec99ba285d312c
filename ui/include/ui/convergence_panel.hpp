// The Convergence panel (a solver debugger, like MuJoCo's solver plots): the last step's residual
// per Newton iteration for normal, friction and bilateral rows on a log scale, the linear solver's
// residual curve of each Newton iteration, and a history strip over recent steps.
#pragma once

#include <vector>

#include "sim/trace.hpp"

namespace ui {

// Recent steps' figures, a fixed-capacity ring (no allocation once full).
class ConvergenceHistory {
 public:
  explicit ConvergenceHistory(int capacity = 600);
  void push(const sim::StepReport& report, const sim::SolverTrace& trace);
  int size() const { return size_; }
  int capacity() const { return capacity_; }
  // i = 0 is the oldest kept step.
  float normal(int i) const { return normal_[index(i)]; }
  float friction(int i) const { return friction_[index(i)]; }
  float bilateral(int i) const { return bilateral_[index(i)]; }
  float ms(int i) const { return ms_[index(i)]; }
  float linear_iterations(int i) const { return linear_[index(i)]; }

 private:
  int index(int i) const { return (head_ - size_ + i + capacity_) % capacity_; }
  int capacity_, head_ = 0, size_ = 0;
  std::vector<float> normal_, friction_, bilateral_, ms_, linear_;
};

struct ConvergenceView {
  const sim::SolverTrace* trace = nullptr;       // last step
  const ConvergenceHistory* history = nullptr;
  int selected_newton_iteration = -1;            // linear curve shown; -1: all overlaid
};

// log10 of a residual, clamped so zeros plot at the floor.
float log_residual(double value);

void convergence_panel(ConvergenceView& view);

}  // namespace ui
