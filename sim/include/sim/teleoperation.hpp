// Cartesian teleoperation of a jointed robot: keyboard, gamepad or a 6-DoF gizmo move an
// end-effector target; every update solves IK (warm-started at the previous solution) and
// writes the chain's drive position targets; the gripper's drives open or close.
#pragma once

#include <vector>

#include "sim/inverse_kinematics.hpp"
#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/state.hpp"

namespace sim {

struct TeleopCommand {
  Vec3 linear_velocity = Vec3::Zero();   // target translation rate, world [m/s]
  Vec3 angular_velocity = Vec3::Zero();  // target rotation rate, world [rad/s]
  int gripper = 0;                       // +1 close, -1 open, 0 keep
};

class TeleopController {
 public:
  // `end_effector`: body driven to the target; `point`: in its authored frame; `gripper_joints`:
  // driven joints that close towards their upper limit and open towards their lower limit.
  // Orientation is tracked only if asked and the chain has at least 6 coordinates.
  static Result<TeleopController> create(const Model& model, const State& state, int end_effector,
                                         const Vec3& point, std::vector<int> gripper_joints,
                                         bool use_orientation = true);

  // Moves the target by the command over dt, solves IK and writes drive targets into control.
  // Allocates nothing after the first update (the IK buffers are kept).
  void update(const Model& model, const State& state, const TeleopCommand& command, Real dt, Control& control);
  // Jumps the target (the viewport gizmo).
  void set_target(const Vec3& position, const Quat& orientation);

  const IkTarget& target() const { return target_; }
  const IkResult& last_solution() const { return solution_; }
  bool gripper_closed() const { return gripper_closed_; }

 private:
  IkTarget target_;
  IkOptions options_;
  IkResult solution_;
  IkWorkspace workspace_;
  std::vector<int> gripper_joints_;
  bool gripper_closed_ = false;
};

}  // namespace sim
