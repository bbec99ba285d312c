// The physical ranges a scene is checked against when it is compiled (issue 19): the time step
// and gravity (sim/load_limits.hpp), every body's and particle's initial position and velocity
// against the blow-up bounds the step enforces (SolverOptions::world_bound, speed_limit,
// angular_speed_limit), so a scene that would be refused at its first step is refused at load,
// and every shape's size against world_bound; each error names the file, line and element.
#pragma once

#include <string>

#include "sim/spec.hpp"

namespace sim::detail {

// An error naming where and what ("scene.xml:12: <body>: 'box': initial speed 1e+06 m/s is above
// solver speed_limit 1000 m/s"), or "" when the scene is within range.
std::string check_scene_ranges(const SceneSpec& spec);

}  // namespace sim::detail
