// A shipped scene (assets/scenes) compiled and run for a number of steps (at least 1) with its
// initial control: the model, the state at the last step's start (q⁻ of its contacts) and after
// it, and the workspace of the last step (its contacts, the collision scratch), for tests that
// look at a step in progress.
#pragma once

#include <string>
#include <utility>

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
  sim::State start;  // before the last step
  sim::State state;  // after it
  sim::Workspace ws;
  ShippedRun(const std::string& name, int steps) : ShippedRun(load_shipped_model(name), steps) {}
  // A scene of the test's own, run the same way.
  ShippedRun(sim::Model compiled, int steps) : model(std::move(compiled)), start(sim::make_initial_state(model)) {
    const sim::Control control = sim::make_initial_control(model);
    run_steps(model, start, control, ws, steps - 1);
    state = start;
    run_steps(model, state, control, ws, 1);
  }
};

}  // namespace test
