// The Convergence panel (a solver debugger beyond MuJoCo's solver plots; issue 15 item 3): the
// last step's residual per Newton iteration with one series per row kind (normal [m], friction
// [m/s], bilateral [m]), the linear solver's residual |b - A x| per linear iteration of each Newton
// iteration, and a timeline of the last seconds of per-step figures (final residuals, Newton and
// linear iterations, contacts, ms per step) against simulated time that doubles as the history
// scrubber's track: clicking or dragging on it asks for the recorded state at that time. Over
// the last steps (iteration_quartiles.hpp, the paper's Fig. 16): per Newton iteration the median
// and the 25/75 % quartiles of the residual across them, on a log axis. Plots
// have axes with ticks in plain numbers (plot_axis.hpp) and hover read-outs (plot.hpp).
#pragma once

#include <cmath>
#include <optional>
#include <vector>

#include "sim/trace.hpp"
#include "ui/iteration_quartiles.hpp"

namespace ui {

// Recent steps' figures, a fixed-capacity ring (no allocation once full). A step earlier in time
// than the newest entries (a run resumed from the history) drops them first.
class ConvergenceHistory {
 public:
  explicit ConvergenceHistory(int capacity = 600);
  void push(const sim::StepReport& report, const sim::SolverTrace& trace, double time);
  void clear() { size_ = 0; }
  int size() const { return size_; }
  int capacity() const { return capacity_; }
  // i = 0 is the oldest kept step.
  double time(int i) const { return time_[index(i)]; }               // simulated time after the step [s]
  float normal(int i) const { return normal_[index(i)]; }           // final max residuals
  float friction(int i) const { return friction_[index(i)]; }
  float bilateral(int i) const { return bilateral_[index(i)]; }
  float ms(int i) const { return ms_[index(i)]; }                   // wall time of the step [ms]
  float newton_iterations(int i) const { return newton_[index(i)]; }
  float linear_iterations(int i) const { return linear_[index(i)]; }
  float contacts(int i) const { return contacts_[index(i)]; }

 private:
  int index(int i) const { return (head_ - size_ + i + 2 * capacity_) % capacity_; }
  int capacity_, head_ = 0, size_ = 0;
  std::vector<double> time_;
  std::vector<float> normal_, friction_, bilateral_, ms_, newton_, linear_, contacts_;
};

// What one iteration of the solver kind is called on the plots' x axes and in the counts
// ("Newton iteration", "PGS sweep", "dual iteration", "primal iteration").
const char* iteration_noun(sim::SolverKind kind);
// Iterations the traced step took: the trace's entries less the start (StepReport::newton_iterations).
int iterations_taken(const sim::SolverTrace& trace);
// Iterations of the trace that ran a linear solve (the linear plot's curves).
int linear_solves(const sim::SolverTrace& trace);

// The timeline's second plot.
enum class TimelineStat : int { NewtonIterations = 0, LinearIterations, Contacts, Milliseconds };

struct ConvergenceView {
  const sim::SolverTrace* trace = nullptr;       // last step
  const ConvergenceHistory* history = nullptr;
  const IterationTraces* traces = nullptr;       // the last steps' residual per iterate (quartile plot)
  int selected_newton_iteration = -1;            // linear curve shown; -1: all overlaid
  // Kept between frames (caller-owned).
  int timeline_window = 1;                       // index into kTimelineSeconds
  TimelineStat timeline_stat = TimelineStat::NewtonIterations;
  double cursor_time = NAN;                      // the history state shown (NaN: live), marked on the timeline
  IterationQuartiles quartiles;                  // scratch of the quartile plot
  std::vector<double> quartile_scratch;
};

struct ConvergenceEdits {
  std::optional<double> seek_time;               // the timeline was clicked at this simulated time [s]
};

inline constexpr double kTimelineSeconds[] = {2, 10, HUGE_VAL};  // the window choices (the last: all kept)

// log10 of a residual, clamped so zeros plot at the floor.
float log_residual(double value);

ConvergenceEdits convergence_panel(ConvergenceView& view);

}  // namespace ui
