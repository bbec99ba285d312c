#include "ui/joint_panel.hpp"

#include <imgui.h>

#include <algorithm>
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
  return v;
}

int joint_panel(JointPanelView& v) {
  int changed = -1;
  if (!ImGui::Begin("Joints")) {
    ImGui::End();
    return changed;
  }
  if (v.joints.empty()) ImGui::TextUnformatted("no driven joints");
  for (std::size_t i = 0; i < v.joints.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SliderFloat(v.names[i].c_str(), &v.target[i], v.lower[i], v.upper[i], "%.3f")) changed = static_cast<int>(i);
    ImGui::SameLine();
    ImGui::TextDisabled("(%.3f)", static_cast<double>(v.position[i]));
    ImGui::PopID();
  }
  ImGui::End();
  return changed;
}

}  // namespace ui
