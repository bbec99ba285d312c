// compile_model(): validate a SceneSpec and build the immutable Model (mass properties, principal
// frames, convex hulls, dense ids). Errors name the file, line and element.
#pragma once

#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/spec.hpp"

namespace sim {

Result<Model> compile_model(const SceneSpec& spec);

}  // namespace sim
