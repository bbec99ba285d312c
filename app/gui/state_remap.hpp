// Carrying a running simulation over a structural edit (recompiled Model): bodies and joints are
// matched by name, particles by index; what has no match starts from the new model's initial
// state. No Qt here.
#pragma once

#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace coulomb::gui {

// The state of `new_model` continuing `old_state` of `old_model`. A matched body keeps the world
// pose and velocity of its authored frame (its centre of mass may have moved within the body when
// its shapes changed); bodies named in `restart_bodies` (e.g. whose pose was edited) and bodies
// without a match take their initial pose and velocity. Time and step index carry over.
sim::State remap_state(const sim::Model& old_model, const sim::State& old_state, const sim::Model& new_model,
                       const std::vector<std::string>& restart_bodies = {});

// Drive targets carried over by joint name; wrenches and forces are cleared.
sim::Control remap_control(const sim::Model& old_model, const sim::Control& old_control, const sim::Model& new_model);

}  // namespace coulomb::gui
