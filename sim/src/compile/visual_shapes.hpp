// Render-only visual shapes (VisualSpec) into the Model: placed in their body's com frame, checked
// (finite pose, positive sizes, a mesh where one is named), never touching mass or contacts.
#pragma once

#include <string>

#include "sim/model.hpp"
#include "sim/spec.hpp"

namespace sim::detail {

// Appends the world's and every body's visuals to `model` (after its bodies are compiled:
// body_frame_in_com is read). Returns an error "file:line: <visual>: what", or "".
std::string add_visual_shapes(const SceneSpec& spec, Model& model);

}  // namespace sim::detail
