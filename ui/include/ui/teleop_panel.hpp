// The Teleop panel: teleoperation on/off, which body is driven (the end effector), the target
// pose and the IK error, the gripper, the gamepad's status, the speeds, and the per-finger contact
// force strip charts (sum of the contact normal forces λ_n on each finger link over time).
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
  float ik_position_error = 0;          // [m]
  float ik_orientation_error = 0;       // [rad]
  bool ik_converged = false;
  bool has_gripper = false;
  bool gripper_closed = false;
  std::string gamepad_status;
  float linear_speed = 0.1f;            // [m/s]
  float angular_speed = 0.5f;           // [rad/s]
  std::string message;                  // why teleoperation is not running, else empty
  const ForceHistory* finger_forces = nullptr;
};

struct TeleopPanelEdits {
  bool toggle_enabled = false;
  int end_effector = -1;                // the combo picked this body
  bool speeds_changed = false;          // view.linear_speed / angular_speed edited
  bool toggle_gripper = false;
  bool any() const { return toggle_enabled || end_effector >= 0 || speeds_changed || toggle_gripper; }
};

TeleopPanelEdits teleop_panel(TeleopPanelView& view);

}  // namespace ui
