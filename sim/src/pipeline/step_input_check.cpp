#include "pipeline/step_input_check.hpp"

#include <cmath>
#include <string>

#include "pipeline/state_bounds_check.hpp"
#include "sim/load_limits.hpp"

namespace sim::detail {

namespace {

// Index of the first non-finite scalar among `count` scalars at `data`, or -1.
long first_non_finite(const Real* data, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (!std::isfinite(data[i])) return static_cast<long>(i);
  return -1;
}

// "body 'name'" or "particle 7" for scalar `index` of a vector with `per_body` scalars per body
// and 3 per particle.
std::string owner(const Model& m, long index, int per_body) {
  const long body_scalars = static_cast<long>(per_body) * m.body_count;
  return element_name(m, static_cast<int>(index < body_scalars ? index / per_body
                                                                : m.body_count + (index - body_scalars) / 3));
}

void refuse(StepReport& report, const std::string& what, Real value, const std::string& where) {
  report.flags |= kStepNonFinite | kStepInvalidInput;
  report.message = what + " = " + (std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf") + " (" + where +
                   "): not finite, the step was not taken";
}

}  // namespace

bool check_step_input(const Model& model, const SolverOptions& options, const State& state, const Control& control,
                      StepReport& report) {
  if (std::string e = check_solver_counts(options); !e.empty()) {
    report.flags |= kStepInvalidInput;
    report.message = e + ": the step was not taken";
    return false;
  }
  if (long i = first_non_finite(state.q.data(), state.q.size()); i >= 0) {
    refuse(report, "state q[" + std::to_string(i) + "]", state.q[i], owner(model, i, 7));
    return false;
  }
  if (long i = first_non_finite(state.u.data(), state.u.size()); i >= 0) {
    refuse(report, "state u[" + std::to_string(i) + "]", state.u[i], owner(model, i, 6));
    return false;
  }
  const auto joint = [&](long j) {
    return j < static_cast<long>(model.joint_name.size()) ? "joint '" + model.joint_name[j] + "'" : "joint " + std::to_string(j);
  };
  if (long i = first_non_finite(control.joint_target.data(), control.joint_target.size()); i >= 0) {
    refuse(report, "control joint_target[" + std::to_string(i) + "]", control.joint_target[i], joint(i));
    return false;
  }
  if (long i = first_non_finite(control.joint_target_velocity.data(), control.joint_target_velocity.size()); i >= 0) {
    refuse(report, "control joint_target_velocity[" + std::to_string(i) + "]", control.joint_target_velocity[i], joint(i));
    return false;
  }
  for (std::size_t b = 0; b < control.body_wrench.size(); ++b)
    if (long k = first_non_finite(control.body_wrench[b].data(), 6); k >= 0) {
      refuse(report, "control body_wrench[" + std::to_string(b) + "][" + std::to_string(k) + "]", control.body_wrench[b][k],
             owner(model, static_cast<long>(b), 1));
      return false;
    }
  for (std::size_t p = 0; p < control.particle_force.size(); ++p)
    if (long k = first_non_finite(control.particle_force[p].data(), 3); k >= 0) {
      refuse(report, "control particle_force[" + std::to_string(p) + "][" + std::to_string(k) + "]",
             control.particle_force[p][k], "particle " + std::to_string(p));
      return false;
    }
  if (long i = first_non_finite(control.soft_pressure.data(), control.soft_pressure.size()); i >= 0) {
    refuse(report, "control soft_pressure[" + std::to_string(i) + "]", control.soft_pressure[i],
           i < static_cast<long>(model.soft_group_name.size()) ? "soft group '" + model.soft_group_name[i] + "'"
                                                               : "soft group " + std::to_string(i));
    return false;
  }
  // A body or particle already beyond the world bound or the speed limits (a file, an edit).
  return check_state_bounds(model, options, state, BoundsCheckAt::StepInput, report);
}

}  // namespace sim::detail
