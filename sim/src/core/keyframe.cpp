#include "sim/keyframe.hpp"

#include <algorithm>
#include <cmath>

namespace sim {

KeyframeSpec make_keyframe(const std::string& name, const State& state, const Control& control) {
  KeyframeSpec k;
  k.name = name;
  k.time = state.time;
  k.q = state.q;
  k.u = state.u;
  k.joint_position = state.joint_position;
  k.joint_target = control.joint_target;
  k.soft_pressure = control.soft_pressure;
  k.warm_contact_key = state.warm_start.contact_key;
  k.warm_contact_lambda = state.warm_start.contact_lambda;
  k.warm_row_lambda = state.warm_start.row_lambda;
  return k;
}

namespace {

std::string where(const KeyframeSpec& k) {
  std::string w = k.source.file.empty() ? std::string() : k.source.file + ":" + std::to_string(k.source.line) + ": ";
  return w + "keyframe '" + k.name + "': ";
}

std::string count_error(const KeyframeSpec& k, const char* what, std::size_t has, std::size_t needs) {
  return where(k) + what + " has " + std::to_string(has) + " values, the model needs " + std::to_string(needs) +
         " (the scene's bodies, joints or particles changed since it was saved)";
}

bool all_finite(const std::vector<Real>& v) {
  for (Real x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace

Result<KeyframeRestore> keyframe_state(const Model& model, const KeyframeSpec& k) {
  const auto coords = static_cast<std::size_t>(model.coord_count());
  const auto dofs = static_cast<std::size_t>(model.dof_count());
  const auto joints = static_cast<std::size_t>(model.joint_count);
  if (k.q.size() != coords) return Error{count_error(k, "q", k.q.size(), coords)};
  if (k.u.size() != dofs) return Error{count_error(k, "u", k.u.size(), dofs)};
  if (!k.joint_position.empty() && k.joint_position.size() != joints)
    return Error{count_error(k, "joints", k.joint_position.size(), joints)};
  if (!k.joint_target.empty() && k.joint_target.size() != joints)
    return Error{count_error(k, "targets", k.joint_target.size(), joints)};
  const auto groups = static_cast<std::size_t>(model.soft_group_count);
  if (!k.soft_pressure.empty() && k.soft_pressure.size() != groups)
    return Error{count_error(k, "pressures", k.soft_pressure.size(), groups)};
  if (k.warm_contact_lambda.size() != 3 * k.warm_contact_key.size())
    return Error{where(k) + "its warm start has " + std::to_string(k.warm_contact_lambda.size()) +
                 " contact multipliers for " + std::to_string(k.warm_contact_key.size()) + " contacts (3 each)"};
  if (!std::is_sorted(k.warm_contact_key.begin(), k.warm_contact_key.end()))
    return Error{where(k) + "its warm start's contact keys are not in ascending order"};
  if (!all_finite(k.q) || !all_finite(k.u) || !all_finite(k.joint_position) || !all_finite(k.joint_target) ||
      !all_finite(k.soft_pressure) ||
      !all_finite(k.warm_contact_lambda) || !all_finite(k.warm_row_lambda) || !std::isfinite(k.time))
    return Error{where(k) + "holds a value that is not finite"};
  for (int b = 0; b < model.body_count; ++b) {
    const auto i = static_cast<std::size_t>(7 * b + 3);
    const Real n = std::sqrt(k.q[i] * k.q[i] + k.q[i + 1] * k.q[i + 1] + k.q[i + 2] * k.q[i + 2] + k.q[i + 3] * k.q[i + 3]);
    if (std::abs(n - 1) > Real(1e-6))
      return Error{where(k) + "the orientation of body '" + model.body_name[static_cast<std::size_t>(b)] +
                   "' is not a unit quaternion (norm " + std::to_string(n) + ")"};
  }
  KeyframeRestore r{make_initial_state(model), make_initial_control(model)};
  r.state.q = k.q;
  r.state.u = k.u;
  r.state.time = k.time;
  r.state.step_index = 0;
  if (!k.joint_position.empty()) r.state.joint_position = k.joint_position;
  else reset_joint_positions(model, r.state);  // an older keyframe: the angles from q
  // The solver's warm start as saved (the row multipliers are used only while the model's rows
  // before the contacts are as many: newton_solver.cpp checks).
  r.state.warm_start.contact_key = k.warm_contact_key;
  r.state.warm_start.contact_lambda = k.warm_contact_lambda;
  r.state.warm_start.row_lambda = k.warm_row_lambda;
  if (!k.joint_target.empty()) r.control.joint_target = k.joint_target;
  if (!k.soft_pressure.empty()) r.control.soft_pressure = k.soft_pressure;
  return r;
}

}  // namespace sim
