// Cartesian teleoperation of a jointed robot: keyboard, gamepad or a 6-DoF gizmo move an
// end-effector target; every update solves IK (warm-started at the previous solution) and
// writes the chain's drive position targets; the gripper's drives open or close.
//
// The teleoperation respects contact (TeleopLimits):
// - the target never runs away from the hand: it is held within `tracking_bound` (and
//   `tracking_bound_angle`) of the measured end effector, so a blocked hand stops the target
//   (a drive then pushes with at most its stiffness times that bound);
// - when the net contact force on the robot's links (normal forces after the last step; a grip's
//   squeeze cancels in it) passes `spring_back_fraction` of `link_force_limit`, the target
//   springs back onto the measured hand: the push relaxes instead of growing, and the force stays
//   under the limit (the margin covers the rise within one step); a link whose sum of contact
//   normal forces passes the limit itself (an impact, a push from outside) is flagged as a
//   warning naming the link; below it,
//   the part of the commanded motion that pushes against the net contact force on the robot is
//   slowed in proportion to that force (zero at the spring-back force), so a push settles rather
//   than saw-tooths;
// - the grip force is the fingers' drive effort (Model::joint_max_force), reported in newtons;
// - the arm's weight is compensated (a wrench −m g at each moved body's centre of mass, what a
//   robot's gravity-compensating torque controller applies, τ = Jᵀ(−m g)), so the drives track
//   without sagging and the tracking error measures what blocks the hand;
// - a move (keys, gamepad, goal) that takes the target out of the arm's reach (the IK position
//   residual grows past 1 cm) is undone: the target stops at the edge of the workspace;
// - goals (the gizmo, "move to the selected object") are approached at a bounded speed.
#pragma once

#include <optional>
#include <vector>

#include "sim/inverse_kinematics.hpp"
#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/state.hpp"

namespace sim {

struct Workspace;

struct TeleopCommand {
  Vec3 linear_velocity = Vec3::Zero();   // target translation rate, world [m/s]
  Vec3 angular_velocity = Vec3::Zero();  // target rotation rate, world [rad/s]
  int gripper = 0;                       // +1 close, -1 open, 0 keep
};

struct TeleopLimits {
  Real tracking_bound = Real(0.02);        // largest target-to-hand distance [m]
  Real tracking_bound_angle = Real(0.3);   // largest target-to-hand rotation [rad]
  // Contact force on a robot link that springs the target back [N]; at least 1.5 times the grip
  // force limit (create() raises it), so that a firm grip alone never trips it.
  Real link_force_limit = Real(50);
  Real spring_back_fraction = Real(0.6);   // of link_force_limit
  Real approach_speed = Real(0.15);        // towards a goal [m/s]
  Real approach_turn_rate = Real(1.0);     // towards a goal's orientation [rad/s]
  bool gravity_compensation = true;
};

// What the controller measured at its last update.
struct TeleopFeedback {
  Vec3 effector_position = Vec3::Zero();   // the driven point now, world [m]
  Quat effector_orientation = Quat::Identity();
  Real tracking_error = 0;                 // |target − driven point| before the bound [m]
  Real tracking_angle_error = 0;           // [rad] (0 when orientation is not tracked)
  bool target_held = false;                // the bound held the target back this update
  bool out_of_reach = false;               // this update's move was undone: IK could not reach it
  int pushing_body = -1;                   // the robot body with the largest contact force
  Real pushing_force = 0;                  // its sum of contact normal forces [N]
  Vec3 contact_force = Vec3::Zero();       // net contact force on the robot's bodies, world [N]
  bool sprang_back = false;                // pushing_force > spring_back_fraction × limit: the target sprang back
  bool force_exceeded = false;             // pushing_force > link_force_limit: a warning
  Real largest_force_seen = 0;             // the largest pushing_force since the session began [N]
};

class TeleopController {
 public:
  // `end_effector`: body driven to the target; `point`: in its authored frame; `gripper_joints`:
  // driven joints that close towards the limit that brings their finger nearer the driven point
  // (prismatic fingers; e.g. the workcell's close towards their upper limits, Fetch's towards
  // their lower ones) and open towards the other; revolute ones (a hand's synergy: the other
  // fingers of a dexterous hand) open to their initial target and close 80 % of the way from it
  // to their limit farther from zero (a finger's flexion).
  // Orientation is tracked only if asked and the chain has at least 6 coordinates.
  static Result<TeleopController> create(const Model& model, const State& state, int end_effector,
                                         const Vec3& point, std::vector<int> gripper_joints,
                                         bool use_orientation = true, const TeleopLimits& limits = {});

  // Moves the target by the command over dt (or towards the goal, when one is set and the
  // command is zero), bounds it by the limits against the measured hand and the contact forces of
  // `workspace`'s last step (none: forces not checked), solves IK and writes drive targets (and the
  // gravity-compensating wrenches) into control. Allocates nothing after the first update.
  void update(const Model& model, const State& state, const Workspace* workspace, const TeleopCommand& command,
              Real dt, Control& control);
  // Jumps the target (bounded at the next update like any other move).
  void set_target(const Vec3& position, const Quat& orientation);
  // A pose to move to at the approach speed; a non-zero command cancels it.
  void set_goal(const Vec3& position, const Quat& orientation);
  void cancel_goal() { goal_.reset(); }
  bool has_goal() const { return goal_.has_value(); }

  // Removes the gravity-compensating wrenches this controller wrote (when it stops).
  void clear_wrenches(Control& control) const;

  const IkTarget& target() const { return target_; }
  const IkResult& last_solution() const { return solution_; }
  const TeleopFeedback& feedback() const { return feedback_; }
  const TeleopLimits& limits() const { return limits_; }
  void set_limits(const TeleopLimits& limits) { limits_ = limits; }
  bool gripper_closed() const { return gripper_closed_; }
  const std::vector<int>& gripper_joints() const { return gripper_joints_; }
  // The bodies the chain moves (the arm, the hand, the fingers): weight compensated, forces watched.
  const std::vector<int>& robot_bodies() const { return robot_bodies_; }
  // Sum of the contact normal forces on a robot body at the last update [N] (0 for other bodies).
  Real body_force(int body) const {
    return body >= 0 && body < static_cast<int>(body_force_.size()) ? body_force_[body] : Real(0);
  }
  // The grip force limit: the largest effort of the gripper joints' drives [N] (infinite when unlimited).
  Real grip_force_limit(const Model& model) const;

 private:
  void measure(const Model& model, const State& state, const Workspace* workspace);
  void approach_goal(Real dt);

  IkTarget target_;
  IkOptions options_;
  IkResult solution_;
  IkWorkspace workspace_;
  TeleopLimits limits_;
  TeleopFeedback feedback_;
  std::optional<IkTarget> goal_;
  std::vector<int> gripper_joints_;
  std::vector<Real> gripper_open_, gripper_close_;  // per gripper joint: its open and closed targets
  std::vector<int> robot_bodies_;
  std::vector<Real> body_force_;  // per body, scratch of measure()
  std::vector<char> is_robot_;    // per body: in robot_bodies_
  bool gripper_closed_ = false;
};

// A pose above an object for a top-down grasp ("move to the selected object"): the controller's
// driven point `clearance` above the object's highest point (its shapes' bounding spheres),
// over its centre of mass, the hand turned so that the tool axis (hand origin → driven point)
// points down and the fingers close across one of the object's horizontal axes (the one nearest
// to the hand's present closing direction). Error for a body that is not dynamic or is part of
// the robot.
struct GraspPose {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 grasp_position = Vec3::Zero();  // the driven point at the object's centre (where to close)
};
Result<GraspPose> pre_grasp_pose(const Model& model, const State& state, const TeleopController& controller,
                                 int object, Real clearance = Real(0.05));

}  // namespace sim
