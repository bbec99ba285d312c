// The Joints panel: one slider per driven joint, editing its position (or velocity) target.
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
};

// The driven joints of a model with their limits (π or 1 m when unlimited) and initial targets.
JointPanelView make_joint_panel_view(const sim::Model& model);

// Draws the panel; returns the index (into view.joints) of the slider changed this frame, or -1.
int joint_panel(JointPanelView& view);

}  // namespace ui
