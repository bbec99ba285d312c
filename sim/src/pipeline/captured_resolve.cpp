#include "sim/captured_resolve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sim {

ResolvedStep resolve_captured_step(const Model& model, const SolverOptions& options, const State& start,
                                   const Control& control, int system_iteration) {
  ResolvedStep out;
  out.capture.system_iteration = system_iteration;
  State state = start;
  Workspace ws;
  ws.capture = &out.capture;
  out.report = step(model, options, state, control, ws);
  return out;
}

Real iterate_residual(const IterationTrace& t) { return std::max({t.normal_max, t.friction_max, t.bilateral_max}); }

std::string sweep_captured_step(const Model& model, const SolverOptions& base, const State& start, const Control& control,
                                std::string_view key, const std::vector<double>& values, std::vector<SweepPoint>& out) {
  out.clear();
  for (double v : values) {
    SolverOptions o = base;
    char text[64];
    if (v == std::floor(v) && std::abs(v) < 1e15) std::snprintf(text, sizeof text, "%.0f", v);
    else std::snprintf(text, sizeof text, "%.17g", v);
    if (std::string e = set_solver_option(o, key, text); !e.empty()) return e;
    const ResolvedStep r = resolve_captured_step(model, o, start, control);
    SweepPoint p;
    p.value = v;
    p.ok = r.report.ok();
    p.newton_iterations = r.report.newton_iterations;
    for (const CapturedIterate& k : r.capture.iterates) p.linear_iterations += k.trace.linear_iterations;
    if (!r.capture.iterates.empty()) {
      p.residual = iterate_residual(r.capture.iterates.back().trace);
      p.merit = r.capture.iterates.back().trace.merit;
    } else {
      p.residual = std::numeric_limits<Real>::quiet_NaN();
      p.merit = std::numeric_limits<Real>::quiet_NaN();
    }
    out.push_back(p);
  }
  return {};
}

std::vector<double> sweep_values(double from, double to, int count, bool integer) {
  std::vector<double> v;
  count = std::max(count, 1);
  for (int i = 0; i < count; ++i) {
    double x = count == 1 ? from : from + (to - from) * i / (count - 1);
    if (integer) x = std::round(x);
    if (v.empty() || x != v.back()) v.push_back(x);
  }
  return v;
}

}  // namespace sim
