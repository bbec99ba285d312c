#include "ui/joint_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ui {

JointPanelView make_joint_panel_view(const sim::Model& m) {
  JointPanelView v;
  for (int j = 0; j < m.joint_count; ++j) {
    if (m.joint_drive[j] == sim::DriveMode::None) continue;
    const bool angular = m.joint_type[j] == sim::JointType::Revolute;
    const float range = angular ? std::numbers::pi_v<float> : 1.0f;
    v.joints.push_back(j);
    v.names.push_back(m.joint_name[j].empty() ? "joint " + std::to_string(j) : m.joint_name[j]);
    float lower = m.joint_limited[j] ? static_cast<float>(m.joint_lower[j]) : -range;
    float upper = m.joint_limited[j] ? static_cast<float>(m.joint_upper[j]) : range;
    // A position drive's control range (MJCF ctrlrange) bounds the target the step will use.
    const bool ranged = std::size_t(j) < m.joint_target_limited.size() && m.joint_target_limited[j] &&
                        m.joint_drive[j] == sim::DriveMode::Position;
    if (ranged) {
      lower = std::max(lower, static_cast<float>(m.joint_target_lower[j]));
      upper = std::min(upper, static_cast<float>(m.joint_target_upper[j]));
      if (lower > upper) lower = upper = static_cast<float>(m.joint_target_lower[j]);  // disjoint: the range wins
    }
    v.lower.push_back(lower);
    v.upper.push_back(upper);
    v.target.push_back(static_cast<float>(m.joint_initial_target[j]));
    v.position.push_back(0.0f);
  }
  // Pressure groups: the range is the largest of 10 kPa and twice the |initial pressure|.
  for (int g = 0; g < m.soft_group_count; ++g) {
    const float initial = static_cast<float>(m.soft_group_pressure[static_cast<std::size_t>(g)] / 1000);
    v.groups.push_back(m.soft_group_name[static_cast<std::size_t>(g)].empty() ? "group " + std::to_string(g)
                                                                            : m.soft_group_name[static_cast<std::size_t>(g)]);
    v.pressure_kpa.push_back(initial);
    v.pressure_range_kpa.push_back(std::max(10.0f, 2 * std::abs(initial)));
  }
  return v;
}

int joint_panel(JointPanelView& v) {
  int changed = -1;
  if (!ImGui::Begin("Joints")) {
    ImGui::End();
    return changed;
  }
  if (v.joints.empty() && v.groups.empty()) ImGui::TextUnformatted("no driven joints");
  for (std::size_t i = 0; i < v.joints.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SliderFloat(v.names[i].c_str(), &v.target[i], v.lower[i], v.upper[i], "%.3f")) changed = static_cast<int>(i);
    ImGui::SameLine();
    ImGui::TextDisabled("(%.3f)", static_cast<double>(v.position[i]));
    ImGui::PopID();
  }
  v.pressure_changed = -1;
  for (std::size_t g = 0; g < v.groups.size(); ++g) {
    ImGui::PushID(static_cast<int>(v.joints.size() + g));
    const std::string label = v.groups[g] + " (kPa)";
    if (ImGui::SliderFloat(label.c_str(), &v.pressure_kpa[g], -v.pressure_range_kpa[g], v.pressure_range_kpa[g], "%.2f"))
      v.pressure_changed = static_cast<int>(g);
    ImGui::PopID();
  }
  ImGui::End();
  return changed;
}

}  // namespace ui
