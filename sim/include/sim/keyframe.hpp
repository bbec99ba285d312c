// Keyframes (spec.hpp KeyframeSpec, the scene's <keyframe> elements): a state saved by name and
// restored later, as in MuJoCo's keyframes. Restoring checks the saved vectors against the model
// they are restored into and says what does not match (the scene's file and line included).
#pragma once

#include <string>

#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/spec.hpp"
#include "sim/state.hpp"

namespace sim {

// The keyframe of `state` and the drive targets of `control`, named `name`.
KeyframeSpec make_keyframe(const std::string& name, const State& state, const Control& control);

// The state and control `keyframe` holds for `model`: q, u, time and the unwrapped joint
// positions and the solver's warm start copied bit for bit, the drive
// targets from the keyframe (the model's initial ones when it has none), the rest of the control
// at its initial value. An error when a vector's length differs from the model's, when a value is
// not finite or a body quaternion is not of unit length.
struct KeyframeRestore {
  State state;
  Control control;
};
Result<KeyframeRestore> keyframe_state(const Model& model, const KeyframeSpec& keyframe);

}  // namespace sim
