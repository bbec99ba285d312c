#include "sim/teleoperation.hpp"

#include "constraint/joint_rows.hpp"

namespace sim {

Result<TeleopController> TeleopController::create(const Model& model, const State& state, int end_effector,
                                                  const Vec3& point, std::vector<int> gripper_joints,
                                                  bool use_orientation) {
  if (end_effector < 0 || end_effector >= model.body_count)
    return Error{"teleoperation: no body " + std::to_string(end_effector)};
  if (joint_chain(model, end_effector).empty())
    return Error{"teleoperation: body '" + model.body_name[end_effector] + "' is not on a joint chain"};
  for (int j : gripper_joints)
    if (j < 0 || j >= model.joint_count || model.joint_drive[j] != DriveMode::Position)
      return Error{"teleoperation: gripper joint " + std::to_string(j) + " has no position drive"};
  TeleopController t;
  const Pose ee = state.body_pose(end_effector) * model.body_frame_in_com[end_effector];
  t.target_.body = end_effector;
  t.target_.point = point;
  t.target_.position = ee.apply(point);
  t.target_.orientation = ee.rot;
  // A chain with fewer than 6 coordinates cannot hold an arbitrary orientation while it moves:
  // it tracks the position only.
  int coordinates = 0;
  for (int j : joint_chain(model, end_effector)) coordinates += joint_has_coordinate(model.joint_type[j]) ? 1 : 0;
  t.target_.use_orientation = use_orientation && coordinates >= 6;
  t.options_.iterations = 20;  // per update, warm-started: the target moves a little each time
  t.gripper_joints_ = std::move(gripper_joints);
  return t;
}

void TeleopController::set_target(const Vec3& position, const Quat& orientation) {
  target_.position = position;
  target_.orientation = orientation.normalized();
}

void TeleopController::update(const Model& model, const State& state, const TeleopCommand& command, Real dt,
                              Control& control) {
  target_.position += dt * command.linear_velocity;
  const Real angle = dt * command.angular_velocity.norm();
  if (angle > 0)
    target_.orientation = (Quat(Eigen::AngleAxis<Real>(angle, command.angular_velocity.normalized())) *
                           target_.orientation).normalized();
  if (command.gripper > 0) gripper_closed_ = true;
  if (command.gripper < 0) gripper_closed_ = false;

  // IK warm-started at the previous solution rather than the measured pose: the drives lag, and
  // solving from the lagging pose would make the targets chase the robot.
  // In place: no allocation once the first update has sized the buffers.
  if (solve_ik_in_place(model, state, target_, options_, solution_, workspace_)) {
    for (std::size_t k = 0; k < solution_.joints.size(); ++k)
      if (model.joint_drive[solution_.joints[k]] != DriveMode::None)
        control.joint_target[solution_.joints[k]] = solution_.positions[k];
  }
  for (int j : gripper_joints_)
    control.joint_target[j] = gripper_closed_ ? model.joint_upper[j] : model.joint_lower[j];
}

}  // namespace sim
