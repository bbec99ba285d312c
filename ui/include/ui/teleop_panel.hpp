// The Teleop panel: teleoperation on/off, step-by-step hints for a pick and place, which body is
// driven (the end effector), the "move above an object" helper, the target pose, the real
// tracking error (target against the measured hand) and the IK residual, the gripper and its force
// limit in newtons, the largest link contact force with a warning beyond the limit, the gamepad's
// status, the speeds, and the per-finger contact force strip charts (sum of the contact normal
// forces λ_n on each finger link over time).
#pragma once

#include <string>
#include <vector>

#include "ui/contact_force_panel.hpp"

namespace ui {

struct TeleopPanelView {
  bool available = false;               // the scene has a body on a driven joint chain
  bool enabled = false;
  std::vector<int> bodies;              // end-effector choices (bodies on driven chains)
  std::vector<std::string> body_names;  // (bodies)
  int end_effector = -1;                // body index (into the model), -1: none
  float target_position[3] = {0, 0, 0};  // [m]
  float target_rotation[3] = {0, 0, 0};  // rotation vector of the target orientation [rad]
  float effector_position[3] = {0, 0, 0};
  bool orientation_tracked = false;
  // Hints and the "move to object" helper.
  std::vector<int> objects;             // bodies a gripper can pick (free bodies)
  std::vector<std::string> object_names;
  int object = -1;                      // the object M moves to (body index), -1: none
  bool moving_to_goal = false;          // the hand is on its way to a goal
  // Tracking: the target against the measured end effector.
  float tracking_error = 0;             // [m]
  float tracking_angle_error = 0;       // [rad]
  float tracking_bound = 0;             // [m]
  bool target_held = false;             // the bound holds the target back
  bool out_of_reach = false;            // the target stopped at the edge of the arm's reach
  // Forces.
  float grip_force_limit = 0;           // the finger drives' effort [N]
  std::vector<float> finger_force;      // per finger: sum of contact normal forces [N]
  std::string pushing_body;             // the robot link with the largest contact force
  float pushing_force = 0;              // [N]
  float link_force_limit = 0;           // [N]
  bool force_exceeded = false;
  float largest_force = 0;              // since the session began [N]
  std::string force_warning;            // shown while not empty
  float ik_position_error = 0;          // on the drive targets [m]
  float ik_orientation_error = 0;       // [rad]
  bool ik_converged = false;
  bool has_gripper = false;
  bool gripper_closed = false;
  std::string gamepad_status;
  // Soft bodies' active-pressure groups (Control::soft_pressure; ] / [ or the gamepad's X / Y
  // ramp them all while held): names, the pressure now and its slider's range [kPa].
  std::vector<std::string> soft_groups;
  std::vector<float> soft_pressure_kpa, soft_pressure_range_kpa;
  int soft_direction = 0;               // +1 inflating, −1 deflating now
  float linear_speed = 0.1f;            // [m/s]
  float angular_speed = 0.5f;           // [rad/s]
  std::string message;                  // why teleoperation is not running, else empty
  const ForceHistory* finger_forces = nullptr;
  bool shown_enabled = false;           // UI state: the panel opens itself when teleoperation starts
};

struct TeleopPanelEdits {
  bool toggle_enabled = false;
  int end_effector = -1;                // the combo picked this body
  bool speeds_changed = false;          // view.linear_speed / angular_speed edited
  bool toggle_gripper = false;
  int object = -1;                      // the object combo picked this body
  bool move_to_object = false;          // "Move above" pressed
  int soft_group = -1;                  // this group's pressure slider moved ...
  float soft_pressure_kpa = 0;          // ... to this [kPa]
  bool any() const {
    return toggle_enabled || end_effector >= 0 || speeds_changed || toggle_gripper || object >= 0 || move_to_object ||
           soft_group >= 0;
  }
};

// The panel; it opens (and grows to show everything) when teleoperation is switched on.
TeleopPanelEdits teleop_panel(TeleopPanelView& view);

// A one-line key legend at the bottom of the viewport, over the scene, for a scene with a robot:
// "T teleoperates" while off; the keys and the next step of a pick and place while on.
void teleop_hint_bar(const TeleopPanelView& view);

}  // namespace ui
