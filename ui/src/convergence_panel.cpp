#include "ui/convergence_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

#include "ui/plot.hpp"
#include "ui/plot_axis.hpp"

namespace ui {

namespace {
constexpr float kLogFloor = -16.0f;
constexpr ImU32 kNormal = IM_COL32(90, 170, 255, 255);
constexpr ImU32 kFriction = IM_COL32(255, 160, 60, 255);
constexpr ImU32 kBilateral = IM_COL32(120, 220, 120, 255);
constexpr ImU32 kCycle[] = {IM_COL32(90, 170, 255, 255), IM_COL32(255, 160, 60, 255), IM_COL32(120, 220, 120, 255),
                            IM_COL32(230, 100, 220, 255), IM_COL32(240, 230, 90, 255), IM_COL32(100, 230, 230, 255)};
}  // namespace

float log_residual(double value) {
  if (!(value > 0) || !std::isfinite(value)) return value > 0 ? 16.0f : kLogFloor;
  return std::max(kLogFloor, static_cast<float>(std::log10(value)));
}

ConvergenceHistory::ConvergenceHistory(int capacity)
    : capacity_(std::max(1, capacity)), time_(capacity_), normal_(capacity_), friction_(capacity_), bilateral_(capacity_),
      ms_(capacity_), newton_(capacity_), linear_(capacity_), contacts_(capacity_) {}

void ConvergenceHistory::push(const sim::StepReport& report, const sim::SolverTrace& trace, double time) {
  while (size_ > 0 && time_[index(size_ - 1)] >= time) {  // resumed earlier: a new branch
    head_ = (head_ - 1 + capacity_) % capacity_;
    --size_;
  }
  time_[head_] = time;
  normal_[head_] = static_cast<float>(trace.final_normal_max);
  friction_[head_] = static_cast<float>(trace.final_friction_max);
  bilateral_[head_] = static_cast<float>(trace.final_bilateral_max);
  ms_[head_] = static_cast<float>(report.timings.total);
  newton_[head_] = static_cast<float>(report.newton_iterations);
  linear_[head_] = static_cast<float>(report.linear_iterations);
  contacts_[head_] = static_cast<float>(report.contact_count);
  head_ = (head_ + 1) % capacity_;
  size_ = std::min(size_ + 1, capacity_);
}

const char* iteration_noun(sim::SolverKind kind) {
  switch (kind) {
    case sim::SolverKind::NonSmoothNewton: return "Newton iteration";
    case sim::SolverKind::ProjectedGaussSeidel: return "PGS sweep";
    case sim::SolverKind::DualAscent: return "dual iteration";
    case sim::SolverKind::PrimalDescent: return "primal iteration";
  }
  return "iteration";
}

int iterations_taken(const sim::SolverTrace& trace) {
  // The trace holds the start and the iterate after each iteration.
  return trace.iterations.empty() ? 0 : static_cast<int>(trace.iterations.size()) - 1;
}

int linear_solves(const sim::SolverTrace& trace) {
  int solves = 0;
  for (const sim::IterationTrace& it : trace.iterations) solves += it.linear_iterations > 0 ? 1 : 0;
  return solves;
}

namespace {

// A log plot over whole iterations.
void plot_over_iterations(const char* id, const char* x_label, const char* y_label, float height,
                          const std::vector<PlotSeries>& series) {
  PlotSpec spec;
  spec.id = id;
  spec.x_label = x_label;
  spec.y_label = y_label;
  spec.integer_x = true;
  spec.height = height;
  plot(spec, series);
}

// The last step's residual per iteration (point k: after k iterations; 0: the start), one series
// per row kind that has rows.
void newton_plot(const sim::SolverTrace& t) {
  PlotSeries normal{"normal [m]", kNormal, {}}, friction{"friction [m/s]", kFriction, {}},
      bilateral{"bilateral [m]", kBilateral, {}};
  bool any_normal = false, any_friction = false, any_bilateral = false;
  for (const sim::IterationTrace& it : t.iterations) {
    normal.y.push_back(it.normal_max);
    friction.y.push_back(it.friction_max);
    bilateral.y.push_back(it.bilateral_max);
    any_normal |= it.normal_max > 0;
    any_friction |= it.friction_max > 0;
    any_bilateral |= it.bilateral_max > 0;
  }
  std::vector<PlotSeries> series;
  if (any_normal) series.push_back(std::move(normal));
  if (any_friction) series.push_back(std::move(friction));
  if (any_bilateral) series.push_back(std::move(bilateral));
  plot_over_iterations("newton", iteration_noun(t.kind), "max residual", 130, series);
}

void linear_plot(const sim::SolverTrace& t, int selected) {
  const int newton = static_cast<int>(t.iterations.size());
  std::vector<PlotSeries> series;
  for (int k = 0; k < newton; ++k) {
    if (selected >= 0 && k != selected) continue;
    const sim::IterationTrace& it = t.iterations[static_cast<std::size_t>(k)];
    if (it.linear_iterations <= 0) continue;
    PlotSeries s{"N" + std::to_string(k), kCycle[k % std::size(kCycle)], {}};
    for (int j = 0; j < it.linear_iterations; ++j) {
      const std::size_t idx = static_cast<std::size_t>(it.linear_residual_offset + j);
      s.y.push_back(idx < t.linear_residuals.size() ? static_cast<double>(t.linear_residuals[idx]) : NAN);
    }
    series.push_back(std::move(s));
  }
  if (selected < 0 && series.size() > 6) {  // the legend names the first and the last few
    for (std::size_t i = 1; i + 3 < series.size(); ++i) series[i].name.clear();
  }
  plot_over_iterations("linear", "linear iteration", "|b - A x| per Newton iteration N", 110, series);
}

// Per Newton iteration the median and quartiles of the residual over the last steps (Fig. 16).
void quartile_plot(ConvergenceView& view, sim::SolverKind kind) {
  const IterationTraces& traces = *view.traces;
  iteration_quartiles(traces, view.quartiles, view.quartile_scratch);
  char header[96];
  std::snprintf(header, sizeof header, "Last %d steps: median, 25/75 %%###quartiles", view.quartiles.steps);
  if (!ImGui::CollapsingHeader(header, ImGuiTreeNodeFlags_DefaultOpen)) return;
  const std::vector<PlotSeries> series{{"75 %", IM_COL32(150, 150, 150, 255), view.quartiles.q75},
                                       {"median", IM_COL32(240, 230, 90, 255), view.quartiles.median},
                                       {"25 %", IM_COL32(150, 150, 150, 255), view.quartiles.q25}};
  plot_over_iterations("quartiles", iteration_noun(kind), "max residual across steps", 120, series);
  ImGui::TextDisabled("residual: the largest of normal [m], friction [m/s], bilateral [m]; a step that stopped "
                      "earlier counts with its last value");
  if (traces.iterations() >= traces.iterate_capacity())
    ImGui::TextDisabled("each step's first %d iterates are kept (a longer step is cut there)", traces.iterate_capacity());
}

}  // namespace

ConvergenceEdits convergence_panel(ConvergenceView& view) {
  ConvergenceEdits edits;
  if (!ImGui::Begin("Convergence")) {
    ImGui::End();
    return edits;
  }
  if (view.trace != nullptr && !view.trace->iterations.empty()) {
    const sim::SolverTrace& t = *view.trace;
    const int taken = iterations_taken(t);
    ImGui::Text("last step: %d %s%s", taken, iteration_noun(t.kind), taken == 1 ? "" : "s");
    newton_plot(t);
    // The final residuals of the kinds the step has rows of.
    std::string final_text = "final:";
    if (t.final_normal_max > 0) final_text += "  normal " + readout(t.final_normal_max) + " m";
    if (t.final_friction_max > 0) final_text += "  friction " + readout(t.final_friction_max) + " m/s";
    if (t.final_bilateral_max > 0) final_text += "  bilateral " + readout(t.final_bilateral_max) + " m";
    if (final_text == "final:") final_text += " every residual 0";
    ImGui::TextUnformatted(final_text.c_str());
    const int newton = t.kind == sim::SolverKind::NonSmoothNewton ? static_cast<int>(t.iterations.size()) : 0;
    if (newton == 0) {  // a solver without inner linear solves: its active-set changes per iteration
      int changes = 0;
      for (const sim::IterationTrace& it : t.iterations) changes += it.active_set_changes;
      ImGui::Text("%d active-set changes over the step", changes);
    } else {
      ImGui::Separator();
      ImGui::SetNextItemWidth(-1);
      char label[96];
      if (view.selected_newton_iteration >= 0) {
        const sim::IterationTrace& it = t.iterations[static_cast<std::size_t>(std::min(view.selected_newton_iteration, newton - 1))];
        if (it.linear_forcing > 0)  // the Eisenstat–Walker tolerance the solve stopped at (or its budget)
          std::snprintf(label, sizeof label, "linear solve of Newton %d: %d its to eta %.1e, t = %.2f",
                        view.selected_newton_iteration, it.linear_iterations, static_cast<double>(it.linear_forcing),
                        static_cast<double>(it.step_size));
        else
          std::snprintf(label, sizeof label, "linear solve of Newton %d: %d its, t = %.2f", view.selected_newton_iteration,
                        it.linear_iterations, static_cast<double>(it.step_size));
      } else {
        std::snprintf(label, sizeof label, "linear solves: all %d of the step", linear_solves(t));
      }
      ImGui::SliderInt("##newton", &view.selected_newton_iteration, -1, newton - 1, label);
      linear_plot(t, view.selected_newton_iteration);
    }
  } else {
    ImGui::TextUnformatted("no step yet");
  }
  if (view.traces != nullptr && view.traces->size() > 1 && view.traces->iterations() > 0) {
    ImGui::Separator();
    quartile_plot(view, view.trace != nullptr ? view.trace->kind : sim::SolverKind::NonSmoothNewton);
  }
  const ConvergenceHistory* h = view.history;
  if (h != nullptr && h->size() > 0) {
    ImGui::Separator();
    const char* windows[] = {"last 2 s", "last 10 s", "all kept"};
    view.timeline_window = std::clamp(view.timeline_window, 0, 2);
    ImGui::SetNextItemWidth(100);
    ImGui::Combo("##window", &view.timeline_window, windows, IM_ARRAYSIZE(windows));
    ImGui::SameLine();
    ImGui::TextDisabled("timeline: click or drag to scrub");
    // The steps in the window, oldest first.
    const double newest = h->time(h->size() - 1), from = newest - kTimelineSeconds[view.timeline_window];
    int first = h->size() - 1;
    while (first > 0 && h->time(first - 1) >= from) --first;
    std::vector<double> x;
    PlotSeries normal{"normal [m]", kNormal, {}}, friction{"friction [m/s]", kFriction, {}},
        bilateral{"bilateral [m]", kBilateral, {}};
    const char* stats[] = {"Newton iterations", "linear iterations", "contacts", "ms per step"};
    const int stat = std::clamp(static_cast<int>(view.timeline_stat), 0, 3);
    PlotSeries figure{stats[stat], IM_COL32(230, 230, 230, 255), {}};
    bool any_normal = false, any_bilateral = false, any_friction = false;
    for (int i = first; i < h->size(); ++i) {
      x.push_back(h->time(i));
      normal.y.push_back(h->normal(i));
      friction.y.push_back(h->friction(i));
      bilateral.y.push_back(h->bilateral(i));
      any_normal |= h->normal(i) > 0;
      any_friction |= h->friction(i) > 0;
      any_bilateral |= h->bilateral(i) > 0;
      const float values[] = {h->newton_iterations(i), h->linear_iterations(i), h->contacts(i), h->ms(i)};
      figure.y.push_back(values[stat]);
    }
    std::vector<PlotSeries> residuals;
    if (any_normal || (!any_friction && !any_bilateral)) residuals.push_back(normal);
    if (any_friction) residuals.push_back(friction);
    if (any_bilateral) residuals.push_back(bilateral);
    PlotSpec spec;
    spec.id = "timeline_residual";
    spec.x = &x;
    spec.x_label = "simulated time [s]";
    spec.y_label = "final residual per step";
    spec.height = 120;
    spec.marker = std::isfinite(view.cursor_time);
    spec.marker_x = spec.marker ? view.cursor_time : 0;
    const PlotResult a = plot(spec, residuals);
    ImGui::SetNextItemWidth(160);
    int chosen = stat;
    if (ImGui::Combo("##stat", &chosen, stats, IM_ARRAYSIZE(stats))) view.timeline_stat = static_cast<TimelineStat>(chosen);
    spec.id = "timeline_stat";
    spec.y_label = stats[stat];
    spec.log_y = false;
    spec.height = 100;
    const PlotResult b = plot(spec, {figure});
    if (a.clicked) edits.seek_time = x[static_cast<std::size_t>(a.clicked_index)];
    else if (b.clicked) edits.seek_time = x[static_cast<std::size_t>(b.clicked_index)];
  }
  ImGui::End();
  return edits;
}

}  // namespace ui
