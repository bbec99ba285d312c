// A shipped scene (assets/scenes) compiled and run for a number of steps with its initial control:
// the model, the state after the steps and the workspace of the last step (its contacts, the
// state at its start, the collision scratch), for tests that look at a step in progress.
#pragma once

#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_scenes.hpp"

namespace test {

inline sim::Model load_shipped_model(const std::string& name) {
  auto spec = sim::load_scene_file(scene_path(name));
  INFO(name << ": " << (spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  return compile(*spec);
}

struct ShippedRun {
  sim::Model model;
  sim::State state;
  sim::Workspace ws;
  ShippedRun(const std::string& name, int steps)
      : model(load_shipped_model(name)), state(sim::make_initial_state(model)) {
    run_steps(model, state, sim::make_initial_control(model), ws, steps);
  }
};

}  // namespace test
