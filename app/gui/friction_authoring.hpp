// Between the ImGui Friction panel (ui/friction_panel.hpp) and the document: the panel's view
// filled from the scene's materials and the last step's contacts, and its edits turned into
// property edits (the property path of scene_properties.hpp / friction_properties.hpp, so every
// change is undoable and reaches the running model between two steps). No Qt here.
#pragma once

#include <utility>
#include <vector>

#include "gui/scene_properties.hpp"
#include "sim/step.hpp"
#include "ui/friction_panel.hpp"

namespace coulomb::gui {

// Refreshes the view from the spec (keeping the selected material) and, when given, the contacts
// of the last step.
void fill_friction_view(const sim::SceneSpec& spec, const sim::Workspace* workspace, ui::FrictionPanelView& view);

// The panel's edits as (key, value) pairs for SceneDocument::set_property, in order.
std::vector<std::pair<PropertyKey, PropertyValue>> friction_property_edits(const ui::FrictionPanelEdits& edits);

}  // namespace coulomb::gui
