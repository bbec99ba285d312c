// Teleoperation inside the simulation thread: which body is driven (the end effector), at which
// point, with which gripper joints, and the sim::TeleopController that turns the held Cartesian
// velocity command (keyboard, gamepad) or a jumped target (the viewport gizmo) into drive position
// targets before every step (damped-least-squares IK, sim/teleoperation.hpp). SimRunner owns one
// and applies the UI's requests to it between steps; the status goes out with every snapshot.
// No Qt here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "sim/teleoperation.hpp"

namespace coulomb::gui {

struct TeleopSetup {
  int end_effector = -1;               // body driven to the target
  sim::Vec3 point = sim::Vec3::Zero(); // driven point in the body's authored frame [m]
  std::vector<int> gripper_joints;     // close towards their upper limits, open towards the lower
  bool valid() const { return end_effector >= 0; }
};

// The default for a model: the "hand", a body on a joint chain carrying two or more
// position-driven prismatic or revolute joints whose child bodies carry nothing further (the
// fingers), driven at the centre of its fingers; without such a hand, the body at the end of the
// longest driven joint chain (a fingertip of a dexterous hand), with, where that chain leaves a
// palm that other driven chains leave too, the flexing joints of those other fingers as the
// gripper (a synergy grasp: G curls them). Invalid when no body is on a driven joint chain.
// Workcell: the palm, at the point between the two fingers, with finger_left and finger_right.
TeleopSetup default_teleop_setup(const sim::Model& model);

// Driving another body (the user's pick): its origin, with the default gripper joints that are
// not on its own chain. Invalid when the body is not on a joint chain.
TeleopSetup teleop_setup_for_body(const sim::Model& model, int body);

// The bodies the gripper joints move (the fingers), for the contact force read-out.
std::vector<int> gripper_finger_bodies(const sim::Model& model, const std::vector<int>& gripper_joints);

// What the UI sees of the session, copied into every snapshot.
struct TeleopStatus {
  bool active = false;
  std::uint64_t session = 0;            // changes whenever a session starts or stops
  int end_effector = -1;
  sim::Vec3 point = sim::Vec3::Zero();  // in the end effector's authored frame
  std::vector<int> gripper_joints;
  std::vector<int> finger_bodies;
  sim::Vec3 target_position = sim::Vec3::Zero();
  sim::Quat target_orientation = sim::Quat::Identity();
  sim::Vec3 effector_position = sim::Vec3::Zero();  // the driven point now [m]
  bool orientation_tracked = false;     // the chain has 6 coordinates or more
  // The real tracking error: target against the measured driven point (not the IK residual).
  double tracking_error = 0;            // [m]
  double tracking_angle_error = 0;      // [rad]
  bool target_held = false;             // the target is held at the tracking bound (hand blocked or lagging)
  double tracking_bound = 0;            // [m]
  bool out_of_reach = false;            // the last move was undone: beyond the arm's reach
  double ik_position_error = 0;         // of the last IK solve, on the drive targets [m]
  double ik_orientation_error = 0;      // [rad]
  bool ik_converged = false;
  bool gripper_closed = false;
  double grip_force_limit = 0;          // the finger drives' effort [N]
  std::vector<double> finger_force;     // per finger body: sum of contact normal forces [N]
  int pushing_body = -1;                // the robot link with the largest contact force
  double pushing_force = 0;             // [N]
  double link_force_limit = 0;          // [N]
  bool sprang_back = false;             // a link pressed near the limit: the target sprang back onto the hand
  bool force_exceeded = false;          // pushing_force > link_force_limit: a warning
  double largest_force = 0;             // largest link force since the session started [N]
  bool moving_to_goal = false;          // approaching a goal (gizmo, pre-grasp)
  std::string message;                  // why the last start failed, else empty
};

class TeleopSession {
 public:
  // Starts (or restarts) on the model from the state's pose: the target is where the driven point
  // is. False with status().message set when the setup cannot be driven.
  bool start(const sim::Model& model, const sim::State& state, const TeleopSetup& setup);
  void stop();
  bool active() const { return controller_.has_value(); }
  const sim::TeleopController* controller() const { return controller_ ? &*controller_ : nullptr; }

  // The model was replaced (structural edit, reload of the same scene, reset): the setup is found
  // again by body and joint names and the session restarts from the state's pose; it stops when
  // the names are gone.
  void rebind(const sim::Model& model, const sim::State& state);

  // Velocities are held until the next command; a non-zero gripper field closes (+1) or opens (−1)
  // once.
  void set_command(const sim::TeleopCommand& command);
  // A pose to move the end effector to at the approach speed (the gizmo); keys cancel it.
  void set_target(const sim::Vec3& position, const sim::Quat& orientation);
  // "Move to the selected object": a goal above the object for a top-down grasp
  // (sim::pre_grasp_pose). False with the reason in status().message when it cannot.
  bool move_to_object(const sim::Model& model, const sim::State& state, int body);
  void set_gripper(bool closed);
  // The contact limits of the running session (sim::TeleopLimits; the defaults at start).
  void set_limits(const sim::TeleopLimits& limits) {
    if (controller_) controller_->set_limits(limits);
  }
  void toggle_gripper();

  // Before every step (and with dt = 0 after a request): moves the target by the held command over
  // dt, bounds it against the measured hand and the contact forces of `workspace`'s last step
  // (may be null), solves IK and writes the drive targets and the arm's gravity-compensating
  // wrenches into `control` (a stopped session's wrenches are zeroed at the next update).
  // Allocates nothing once running.
  void update(const sim::Model& model, const sim::State& state, const sim::Workspace* workspace, sim::Real dt,
              sim::Control& control);

  // Fills `out` (reusing its capacity).
  void write_status(const sim::Model& model, const sim::State& state, TeleopStatus& out) const;

 private:
  std::optional<sim::TeleopController> controller_;
  TeleopSetup setup_;
  std::string end_effector_name_;
  std::vector<std::string> gripper_joint_names_;
  std::vector<int> finger_bodies_;
  std::vector<int> stale_wrench_bodies_;  // compensated by a stopped controller: zeroed at the next update
  sim::TeleopCommand command_;
  int pending_gripper_ = 0;
  std::uint64_t session_ = 0;
  std::string message_;
};

}  // namespace coulomb::gui
