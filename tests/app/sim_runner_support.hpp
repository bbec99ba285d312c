// Shared pieces of the tests that drive the simulation thread (app/gui/sim_runner.hpp) without
// Qt: loading a shipped scene into the shared spec/model pair the runner takes, and polling the
// runner the way the UI does until a condition holds or a number of steps is published.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "gui/sim_runner.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "support/shipped_scenes.hpp"

namespace runner_test {

struct Loaded {
  std::shared_ptr<const sim::SceneSpec> spec;
  std::shared_ptr<const sim::Model> model;
};

// A shipped scene, optionally edited before it is compiled.
inline Loaded load(const std::string& name, const std::function<void(sim::SceneSpec&)>& edit = {}) {
  auto spec = sim::load_scene_file(test::scene_path(name));
  REQUIRE(spec.ok());
  if (edit) edit(spec.value());
  auto model = sim::compile_model(spec.value());
  REQUIRE(model.ok());
  return {std::make_shared<const sim::SceneSpec>(std::move(spec.value())),
          std::make_shared<const sim::Model>(std::move(model.value()))};
}

// Polls the runner (as the UI does) until `done` or the timeout; returns whether `done` held.
template <class F>
bool wait_for(coulomb::gui::SimRunner& runner, F done, double seconds = 60) {
  using Clock = std::chrono::steady_clock;
  const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (Clock::now() < end) {
    if (done(runner.latest())) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done(runner.latest());
}

// Runs exactly `steps` steps of a paused runner as fast as possible and returns when they are
// published.
inline void run_steps(coulomb::gui::SimRunner& runner, int steps) {
  const std::int64_t target = runner.latest().state.step_index + steps;
  runner.single_step(steps);
  REQUIRE(wait_for(runner, [&](const coulomb::gui::Snapshot& s) { return s.state.step_index >= target; }));
  CHECK(runner.latest().state.step_index == target);
}

}  // namespace runner_test
