#include "ui/teleop_panel.hpp"

#include <imgui.h>

#include <algorithm>

namespace ui {

namespace {

const ImVec4 kHint(0.55f, 0.85f, 1.0f, 1.0f);
const ImVec4 kCurrent(1.0f, 0.9f, 0.3f, 1.0f);
const ImVec4 kWarning(1.0f, 0.35f, 0.25f, 1.0f);

// The pick-and-place steps, the current one highlighted (from the gripper state).
void hints(const TeleopPanelView& v) {
  if (!v.enabled) {
    ImGui::TextColored(kCurrent, "Press T (or tick the box) to drive the robot.");
    return;
  }
  const bool holding = v.gripper_closed;
  const ImVec4 first = holding ? kHint : kCurrent;
  const ImVec4 second = holding ? kCurrent : kHint;
  ImGui::TextColored(first, "1. Pick an object below, press M:");
  ImGui::TextColored(first, "   the hand moves above it (or steer:");
  ImGui::TextColored(first, "   arrows x/y, Page Up/Down z).");
  ImGui::TextColored(first, "2. Page Down until the open fingers are");
  ImGui::TextColored(first, "   either side of it, G grips.");
  ImGui::TextColored(second, "3. Page Up lifts, arrows carry it over");
  ImGui::TextColored(second, "   the scale, Page Down sets it on the");
  ImGui::TextColored(second, "   platform, G lets go.");
  if (v.orientation_tracked) ImGui::TextColored(kHint, "   U/O I/K J/L turn the hand.");
}

}  // namespace

void teleop_hint_bar(const TeleopPanelView& v) {
  if (!v.available) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y - 8.0f), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.6f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##teleop_hints", nullptr, flags)) {
    if (!v.enabled) {
      ImGui::TextColored(kCurrent, "T: teleoperate the robot (steps in the Teleop panel)");
    } else {
      ImGui::TextColored(kHint, "arrows: x/y   PgUp/PgDn: up/down   M: above object   G: grip   U/O I/K J/L: turn   T: stop");
      if (!v.soft_groups.empty()) ImGui::TextColored(kHint, "] / [ held: inflate / deflate the soft bodies' pressure");
      const char* next = v.gripper_closed
                             ? "next: PgUp lifts, Up arrow to the scale, PgDn onto it, G releases"
                             : (v.moving_to_goal ? "moving above the object..."
                                                 : "next: M moves above the object, PgDn lowers the open fingers around it, G grips");
      ImGui::TextColored(kCurrent, "%s", next);
      if (!v.force_warning.empty()) ImGui::TextColored(kWarning, "WARNING: %s", v.force_warning.c_str());
    }
  }
  ImGui::End();
}

TeleopPanelEdits teleop_panel(TeleopPanelView& v) {
  TeleopPanelEdits edits;
  if (v.enabled && !v.shown_enabled) {
    // Teleoperation just started: open the panel, tall enough for the hints and read-outs.
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float height = 520.0f;
    ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(360.0f, height), ImGuiCond_Always);
    ImGui::SetNextWindowPos(ImVec2(std::max(8.0f, display.x - 368.0f), std::max(8.0f, display.y - height - 60.0f)),
                            ImGuiCond_Always);
  }
  v.shown_enabled = v.enabled;
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
  hints(v);
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
    if (!v.objects.empty()) {
      int chosen = -1;
      for (std::size_t i = 0; i < v.objects.size(); ++i)
        if (v.objects[i] == v.object) chosen = static_cast<int>(i);
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      if (ImGui::BeginCombo("##object", chosen >= 0 ? v.object_names[static_cast<std::size_t>(chosen)].c_str() : "object")) {
        for (std::size_t i = 0; i < v.objects.size(); ++i)
          if (ImGui::Selectable(v.object_names[i].c_str(), static_cast<int>(i) == chosen)) edits.object = v.objects[i];
        ImGui::EndCombo();
      }
      ImGui::SameLine();
      if (ImGui::Button("Move above (M)")) edits.move_to_object = true;
      if (v.moving_to_goal) {
        ImGui::SameLine();
        ImGui::TextColored(kHint, "moving...");
      }
    }
    ImGui::Text("target   %7.3f %7.3f %7.3f m", static_cast<double>(v.target_position[0]),
                static_cast<double>(v.target_position[1]), static_cast<double>(v.target_position[2]));
    ImGui::Text("effector %7.3f %7.3f %7.3f m", static_cast<double>(v.effector_position[0]),
                static_cast<double>(v.effector_position[1]), static_cast<double>(v.effector_position[2]));
    if (v.orientation_tracked)
      ImGui::Text("rotation %7.3f %7.3f %7.3f rad", static_cast<double>(v.target_rotation[0]),
                  static_cast<double>(v.target_rotation[1]), static_cast<double>(v.target_rotation[2]));
    else
      ImGui::TextDisabled("orientation: not tracked (< 6 joints)");
    // The real tracking error (target against the measured hand), then the IK residual.
    ImGui::Text("tracking error %.1f mm %.3f rad (max %.0f mm)", 1000.0 * static_cast<double>(v.tracking_error),
                static_cast<double>(v.tracking_angle_error), 1000.0 * static_cast<double>(v.tracking_bound));
    if (v.target_held) ImGui::TextColored(kWarning, "hand blocked or lagging: target waits");
    if (v.out_of_reach) ImGui::TextColored(kWarning, "out of reach: the target stops here");
    ImGui::TextDisabled("IK residual on drive targets %.2f mm %s", 1000.0 * static_cast<double>(v.ik_position_error),
                        v.ik_converged ? "(converged)" : "(not converged)");
    if (v.has_gripper) {
      ImGui::Text("gripper: %s", v.gripper_closed ? "closed" : "open");
      ImGui::SameLine();
      if (ImGui::Button(v.gripper_closed ? "Open (G)" : "Close (G)")) edits.toggle_gripper = true;
      ImGui::Text("grip limit %.1f N, fingers", static_cast<double>(v.grip_force_limit));
      for (std::size_t i = 0; i < v.finger_force.size() && i < 4; ++i) {
        ImGui::SameLine();
        ImGui::Text("%.1f N", static_cast<double>(v.finger_force[i]));
      }
      if (v.finger_force.size() > 4) {
        ImGui::SameLine();
        ImGui::TextUnformatted("...");
      }
    } else {
      ImGui::TextDisabled("no gripper");
    }
    ImGui::Text("link force %.1f N%s%s (limit %.0f N)", static_cast<double>(v.pushing_force),
                v.pushing_body.empty() ? "" : " on ", v.pushing_body.c_str(), static_cast<double>(v.link_force_limit));
    if (!v.force_warning.empty()) ImGui::TextColored(kWarning, "WARNING: %s", v.force_warning.c_str());
  }
  if (!v.soft_groups.empty()) {  // the soft fingers' inflation, beside the gripper
    ImGui::Separator();
    ImGui::Text("soft pressure%s", v.soft_direction > 0 ? ": inflating" : v.soft_direction < 0 ? ": deflating" : "");
    ImGui::TextDisabled(v.enabled ? "hold ] inflate, [ deflate (gamepad X / Y)" : "keys ] / [ while teleoperating");
    for (std::size_t g = 0; g < v.soft_groups.size() && g < v.soft_pressure_kpa.size(); ++g) {
      ImGui::PushID(static_cast<int>(1000 + g));
      const std::string label = v.soft_groups[g] + " kPa";
      const float range = v.soft_pressure_range_kpa[g];
      if (ImGui::SliderFloat(label.c_str(), &v.soft_pressure_kpa[g], -range, range, "%.2f")) {
        edits.soft_group = static_cast<int>(g);
        edits.soft_pressure_kpa = v.soft_pressure_kpa[g];
      }
      ImGui::PopID();
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
