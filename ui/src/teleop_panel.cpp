#include "ui/teleop_panel.hpp"

#include <imgui.h>

namespace ui {

TeleopPanelEdits teleop_panel(TeleopPanelView& v) {
  TeleopPanelEdits edits;
  if (!ImGui::Begin("Teleop")) {
    ImGui::End();
    return edits;
  }
  if (!v.available) {
    ImGui::TextWrapped("No robot in this scene: no body is on a joint chain with position drives.");
    ImGui::End();
    return edits;
  }
  bool enabled = v.enabled;
  if (ImGui::Checkbox("Teleoperate (T)", &enabled)) edits.toggle_enabled = true;
  int current = 0;
  for (std::size_t i = 0; i < v.bodies.size(); ++i)
    if (v.bodies[i] == v.end_effector) current = static_cast<int>(i);
  if (!v.bodies.empty() &&
      ImGui::BeginCombo("end effector", v.body_names[static_cast<std::size_t>(current)].c_str())) {
    for (std::size_t i = 0; i < v.bodies.size(); ++i) {
      const bool selected = static_cast<int>(i) == current;
      if (ImGui::Selectable(v.body_names[i].c_str(), selected) && !selected) edits.end_effector = v.bodies[i];
    }
    ImGui::EndCombo();
  }
  if (!v.message.empty()) ImGui::TextWrapped("%s", v.message.c_str());
  if (v.enabled) {
    ImGui::Text("target   %7.3f %7.3f %7.3f m", static_cast<double>(v.target_position[0]),
                static_cast<double>(v.target_position[1]), static_cast<double>(v.target_position[2]));
    ImGui::Text("effector %7.3f %7.3f %7.3f m", static_cast<double>(v.effector_position[0]),
                static_cast<double>(v.effector_position[1]), static_cast<double>(v.effector_position[2]));
    if (v.orientation_tracked)
      ImGui::Text("rotation %7.3f %7.3f %7.3f rad", static_cast<double>(v.target_rotation[0]),
                  static_cast<double>(v.target_rotation[1]), static_cast<double>(v.target_rotation[2]));
    else
      ImGui::TextDisabled("orientation: not tracked (< 6 joints)");
    ImGui::Text("IK error %.2f mm  %.3f rad  %s", 1000.0 * static_cast<double>(v.ik_position_error),
                static_cast<double>(v.ik_orientation_error), v.ik_converged ? "converged" : "not converged");
    if (v.has_gripper) {
      ImGui::Text("gripper: %s", v.gripper_closed ? "closed" : "open");
      ImGui::SameLine();
      if (ImGui::Button(v.gripper_closed ? "Open (G)" : "Close (G)")) edits.toggle_gripper = true;
    } else {
      ImGui::TextDisabled("no gripper");
    }
  }
  if (ImGui::SliderFloat("speed m/s", &v.linear_speed, 0.01f, 0.5f, "%.2f")) edits.speeds_changed = true;
  if (ImGui::SliderFloat("turn rad/s", &v.angular_speed, 0.05f, 2.0f, "%.2f")) edits.speeds_changed = true;
  ImGui::TextWrapped("gamepad: %s", v.gamepad_status.c_str());
  if (v.enabled && v.finger_forces && v.finger_forces->series_count() > 0) {
    ImGui::Separator();
    ImGui::TextUnformatted("finger contact force (sum of normal forces)");
    contact_force_plots(*v.finger_forces);
  }
  ImGui::End();
  return edits;
}

}  // namespace ui
