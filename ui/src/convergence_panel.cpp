#include "ui/convergence_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cfloat>
#include <cstdio>
#include <string>

namespace ui {

namespace {
constexpr float kLogFloor = -16.0f;
}

float log_residual(double value) {
  if (!(value > 0) || !std::isfinite(value)) return value > 0 ? 16.0f : kLogFloor;
  return std::max(kLogFloor, static_cast<float>(std::log10(value)));
}

ConvergenceHistory::ConvergenceHistory(int capacity)
    : capacity_(std::max(1, capacity)), normal_(capacity_), friction_(capacity_), bilateral_(capacity_),
      ms_(capacity_), linear_(capacity_) {}

void ConvergenceHistory::push(const sim::StepReport& report, const sim::SolverTrace& trace) {
  normal_[head_] = log_residual(trace.final_normal_max);
  friction_[head_] = log_residual(trace.final_friction_max);
  bilateral_[head_] = log_residual(trace.final_bilateral_max);
  ms_[head_] = static_cast<float>(report.timings.total);
  linear_[head_] = static_cast<float>(report.linear_iterations);
  head_ = (head_ + 1) % capacity_;
  size_ = std::min(size_ + 1, capacity_);
}

namespace {

// Plots through a callback so the ring needs no copy.
struct Series {
  const ConvergenceHistory* h;
  float (ConvergenceHistory::*get)(int) const;
};
float series_value(void* data, int i) {
  const Series* s = static_cast<const Series*>(data);
  return (s->h->*(s->get))(i);
}

void plot_newton_series(const char* label, const sim::SolverTrace& t, sim::Real sim::IterationTrace::*field) {
  float values[64];
  const int n = std::min<int>(64, static_cast<int>(t.iterations.size()));
  for (int i = 0; i < n; ++i) values[i] = log_residual(t.iterations[i].*field);
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%s: 1e%.1f", label, n ? values[n - 1] : kLogFloor);
  ImGui::PlotLines(label, values, n, 0, overlay, kLogFloor, 2.0f, ImVec2(0, 60));
}

}  // namespace

void convergence_panel(ConvergenceView& view) {
  if (!ImGui::Begin("Convergence")) {
    ImGui::End();
    return;
  }
  if (view.trace != nullptr && !view.trace->iterations.empty()) {
    const sim::SolverTrace& t = *view.trace;
    ImGui::Text("last step: %d %s iterations (log10 max residual per iteration)",
                static_cast<int>(t.iterations.size()), std::string(sim::to_string(t.kind)).c_str());
    plot_newton_series("normal [m]", t, &sim::IterationTrace::normal_max);
    plot_newton_series("friction [m/s]", t, &sim::IterationTrace::friction_max);
    plot_newton_series("bilateral [m]", t, &sim::IterationTrace::bilateral_max);
    ImGui::Text("final: normal 1e%.1f  friction 1e%.1f  bilateral 1e%.1f  complementarity 1e%.1f",
                log_residual(t.final_normal_max), log_residual(t.final_friction_max),
                log_residual(t.final_bilateral_max), log_residual(t.final_complementarity_max));
    ImGui::Separator();
    const int newton = t.kind == sim::SolverKind::NonSmoothNewton ? static_cast<int>(t.iterations.size()) : 0;
    if (newton == 0) {  // a solver without inner linear solves: its active-set changes per iteration
      int changes = 0;
      for (const sim::IterationTrace& it : t.iterations) changes += it.active_set_changes;
      ImGui::Text("%d active-set changes over the step", changes);
    } else {
      ImGui::SliderInt("Newton iteration", &view.selected_newton_iteration, -1, newton - 1,
                       view.selected_newton_iteration < 0 ? "all" : "%d");
    }
    for (int k = 0; k < newton; ++k) {
      if (view.selected_newton_iteration >= 0 && k != view.selected_newton_iteration) continue;
      const sim::IterationTrace& it = t.iterations[k];
      float curve[256];
      const int n = std::min(256, it.linear_iterations);
      for (int j = 0; j < n; ++j) {
        const std::size_t idx = static_cast<std::size_t>(it.linear_residual_offset + j);
        curve[j] = idx < t.linear_residuals.size() ? log_residual(t.linear_residuals[idx]) : kLogFloor;
      }
      char label[48], overlay[64];
      std::snprintf(label, sizeof label, "linear %d", k);
      std::snprintf(overlay, sizeof overlay, "Newton %d: %d its, t=%.2f, %d set changes", k, it.linear_iterations,
                    static_cast<double>(it.step_size), it.active_set_changes);
      ImGui::PlotLines(label, curve, n, 0, overlay, kLogFloor, 2.0f, ImVec2(0, 40));
    }
  } else {
    ImGui::TextUnformatted("no step yet");
  }
  if (view.history != nullptr && view.history->size() > 0) {
    ImGui::Separator();
    ImGui::Text("history: last %d steps", view.history->size());
    Series normal{view.history, &ConvergenceHistory::normal};
    Series friction{view.history, &ConvergenceHistory::friction};
    Series ms{view.history, &ConvergenceHistory::ms};
    ImGui::PlotLines("normal (log10)", series_value, &normal, view.history->size(), 0, nullptr, kLogFloor, 2.0f, ImVec2(0, 50));
    ImGui::PlotLines("friction (log10)", series_value, &friction, view.history->size(), 0, nullptr, kLogFloor, 2.0f, ImVec2(0, 50));
    ImGui::PlotLines("ms / step", series_value, &ms, view.history->size(), 0, nullptr, 0.0f, FLT_MAX, ImVec2(0, 50));
  }
  ImGui::End();
}

}  // namespace ui
