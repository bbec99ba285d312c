// The URDF and MJCF targets' shared second half: an imported robot appended to an empty scene
// (what a scene's <robot> element and the CLI do) and compiled when small.
#pragma once

#include "fuzz_support.hpp"
#include "sim/robot_import.hpp"

namespace fuzz {

inline void append_and_compile(const sim::ImportResult& robot) {
  sim::SceneSpec scene;
  if (!sim::append_robot(scene, robot, sim::Pose{}, /*fixed_base=*/true)) return;
  compile_if_small(scene);
}

}  // namespace fuzz
