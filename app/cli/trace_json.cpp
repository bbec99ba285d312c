#include "cli/trace_json.hpp"

#include <cmath>
#include <cstdio>

namespace coulomb {

namespace {

// JSON has no NaN/Inf: write them as null.
void num(std::ostream& out, double v) {
  if (!std::isfinite(v)) {
    out << "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  out << buf;
}

}  // namespace

void write_trace_json(std::ostream& out, int step, double time, const sim::StepReport& r,
                      const sim::SolverTrace& t) {
  out << "{\"step\":" << step << ",\"time\":";
  num(out, time);
  out << ",\"ok\":" << (r.ok() ? "true" : "false") << ",\"flags\":" << r.flags << ",\"warnings\":" << r.warnings
      << ",\"returned_to_best\":" << (t.returned_to_best ? "true" : "false") << ",\"stalled\":" << (t.stalled ? "true" : "false") << ",\"linear_fallbacks\":" << r.linear_fallbacks
      << ",\"contacts\":" << r.contact_count
      << ",\"rows\":" << r.row_count << ",\"newton_iterations\":" << r.newton_iterations
      << ",\"linear_iterations\":" << r.linear_iterations << ",\"ms\":{\"collision\":";
  num(out, r.timings.collision);
  out << ",\"assembly\":";
  num(out, r.timings.assembly);
  out << ",\"solve\":";
  num(out, r.timings.solve);
  out << ",\"total\":";
  num(out, r.timings.total);
  out << "},\"final\":{\"normal_max\":";
  num(out, t.final_normal_max);
  out << ",\"friction_max\":";
  num(out, t.final_friction_max);
  out << ",\"bilateral_max\":";
  num(out, t.final_bilateral_max);
  out << ",\"complementarity_max\":";
  num(out, t.final_complementarity_max);
  out << ",\"joint_angle_error_max\":";
  num(out, t.final_joint_angle_error_max);
  out << ",\"joint_position_error_max\":";
  num(out, t.final_joint_position_error_max);
  out << ",\"momentum_max\":";
  num(out, t.final_momentum_max);
  out << "},\"iterations\":[";
  for (std::size_t k = 0; k < t.iterations.size(); ++k) {
    const sim::NewtonIterationTrace& it = t.iterations[k];
    if (k) out << ",";
    out << "{\"normal_max\":";
    num(out, it.normal_max);
    out << ",\"normal_l2\":";
    num(out, it.normal_l2);
    out << ",\"friction_max\":";
    num(out, it.friction_max);
    out << ",\"friction_l2\":";
    num(out, it.friction_l2);
    out << ",\"bilateral_max\":";
    num(out, it.bilateral_max);
    out << ",\"bilateral_l2\":";
    num(out, it.bilateral_l2);
    out << ",\"momentum_l2\":";
    num(out, it.momentum_l2);
    out << ",\"momentum_max\":";
    num(out, it.momentum_max);
    out << ",\"complementarity_max\":";
    num(out, it.complementarity_max);
    out << ",\"position_error_max\":";
    num(out, it.position_error_max);
    out << ",\"velocity_error_max\":";
    num(out, it.velocity_error_max);
    out << ",\"merit\":";
    num(out, it.merit);
    out << ",\"linear_iterations\":" << it.linear_iterations << ",\"linear_breakdown\":" << it.linear_breakdown
        << ",\"linear_fallback\":" << (it.linear_fallback ? "true" : "false")
        << ",\"line_search_trials\":" << it.line_search_trials << ",\"watchdog\":" << (it.watchdog ? "true" : "false") << ",\"step_size\":";
    num(out, it.step_size);
    out << ",\"active_set_changes\":" << it.active_set_changes << ",\"linear_residuals\":[";
    for (int j = 0; j < it.linear_iterations; ++j) {
      const std::size_t idx = static_cast<std::size_t>(it.linear_residual_offset + j);
      if (idx >= t.linear_residuals.size()) break;
      if (j) out << ",";
      num(out, t.linear_residuals[idx]);
    }
    out << "]}";
  }
  out << "]}";
}

}  // namespace coulomb
