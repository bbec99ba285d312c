#include "pipeline/state_bounds_check.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"

namespace sim::detail {

std::string element_name(const Model& m, int index) {
  if (index < m.body_count) {
    const std::string name = index < static_cast<int>(m.body_name.size()) ? m.body_name[index] : std::string();
    return "body " + (name.empty() ? std::to_string(index) : "'" + name + "'");
  }
  return "particle " + std::to_string(index - m.body_count);
}

namespace {

// The largest |component| of a 3-vector and the Euclidean norm.
Real max_abs(const Real* v) { return std::max({std::abs(v[0]), std::abs(v[1]), std::abs(v[2])}); }
Real norm(const Real* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

bool flag(const Model& m, int element, const std::string& what, BoundsCheckAt at, StepReport& report) {
  report.flags |= kStepOutOfBounds;
  if (at == BoundsCheckAt::StepInput) report.flags |= kStepInvalidInput;
  report.message = element_name(m, element) + ": " + what +
                   (at == BoundsCheckAt::StepInput ? " entering the step: the step was not taken"
                                                   : " after the step (a blow-up): the step was undone");
  return false;
}

}  // namespace

bool check_state_bounds(const Model& m, const SolverOptions& o, const State& s, BoundsCheckAt at,
                        StepReport& report) {
  const int elements = m.body_count + m.particle_count;
  for (int e = 0; e < elements; ++e) {
    const bool body = e < m.body_count;
    const int p = e - m.body_count;
    const Real* x = body ? &s.q[7 * e] : &s.q[7 * m.body_count + 3 * p];
    const Real* v = body ? &s.u[6 * e] : &s.u[6 * m.body_count + 3 * p];
    if (max_abs(x) > o.world_bound)
      return flag(m, e,
                  "position (" + number_text(x[0]) + ", " + number_text(x[1]) + ", " + number_text(x[2]) + ") m beyond world_bound " +
                      number_text(o.world_bound) + " m",
                  at, report);
    if (const Real speed = norm(v); speed > o.speed_limit)
      return flag(m, e, "speed " + number_text(speed) + " m/s above speed_limit " + number_text(o.speed_limit) + " m/s", at, report);
    if (const Real spin = body ? norm(v + 3) : Real(0); spin > o.angular_speed_limit)
      return flag(m, e,
                  "angular speed " + number_text(spin) + " rad/s above angular_speed_limit " + number_text(o.angular_speed_limit) +
                      " rad/s",
                  at, report);
  }
  return true;
}

}  // namespace sim::detail
