// The Joints panel: one slider per driven joint, editing its position (or velocity) target, and one
// per soft-body active-pressure group (Control::soft_pressure, issue 14 item 5).
#pragma once

#include <string>
#include <vector>

#include "sim/model.hpp"

namespace ui {

struct JointPanelView {
  std::vector<int> joints;          // driven joints shown, in order
  std::vector<std::string> names;   // (joints)
  std::vector<float> lower, upper;  // slider range (joint limits, or ±π / ±1 m) (joints)
  std::vector<float> target;        // drive target, edited in place (joints)
  std::vector<float> position;      // current coordinate, shown beside the slider (joints)
  // Soft-body active-pressure groups: names, slider range and the pressure edited in place [kPa].
  std::vector<std::string> groups;
  std::vector<float> pressure_kpa, pressure_range_kpa;  // (groups)
  int pressure_changed = -1;        // set by joint_panel: the group whose slider moved, or -1
};

// The driven joints of a model with their limits (π or 1 m when unlimited) and initial targets.
JointPanelView make_joint_panel_view(const sim::Model& model);

// Draws the panel; returns the index (into view.joints) of the slider changed this frame, or -1
// (a pressure slider sets view.pressure_changed instead).
int joint_panel(JointPanelView& view);

}  // namespace ui
