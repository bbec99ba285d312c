// The history scrubber's memory (app/gui/state_history.hpp) and its use by the simulation thread:
// the ring is bounded by its byte budget and keeps the newest states; scrubbing back to a step
// and resuming reproduces the original run bit for bit (same state hash at every later step).
// Scenes of the test's own: a tumbling pile on a plane and a driven pendulum hitting a box.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "app/sim_runner_support.hpp"
#include "gui/sim_runner.hpp"
#include "gui/state_history.hpp"
#include "support/chamber_scene.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"

using namespace coulomb::gui;

namespace {

sim::State numbered_state(int n, int bodies) {
  sim::State s;
  s.q.assign(static_cast<std::size_t>(7 * bodies), sim::Real(n));
  s.u.assign(static_cast<std::size_t>(6 * bodies), sim::Real(-n));
  s.time = sim::Real(n) * sim::Real(0.01);
  s.step_index = n;
  return s;
}

// Contact-rich and jointed: three boxes dropped turned onto a plane and each other, a hinged arm
// driven towards a target through a box on the ground.
constexpr const char* kTumbleScene = R"(<?xml version="1.0"?>
<scene name="tumble" dt="0.01">
  <material name="m" friction="0.6"/>
  <world material="m"><plane/></world>
  <body name="a" pos="0 0 0.2" euler="20 10 0" mass="1" material="m"><box size="0.2 0.1 0.1"/></body>
  <body name="b" pos="0.05 0.02 0.45" euler="0 35 15" mass="0.5" material="m"><box size="0.1 0.1 0.1"/></body>
  <body name="c" pos="-0.04 0 0.7" euler="45 0 30" mass="2" material="m"><box size="0.15 0.15 0.05"/></body>
  <body name="arm" pos="0.6 0 0.3" mass="1" material="m"><box size="0.4 0.05 0.05"/></body>
  <body name="block" pos="0.75 0 0.05" mass="0.3" material="m"><box size="0.1 0.1 0.1"/></body>
  <joint name="hinge" type="revolute" parent="world" child="arm" pos="0.4 0 0.3" axis="0 1 0">
    <drive mode="position" stiffness="60" damping="4" target="0.8"/>
  </joint>
</scene>
)";

runner_test::Loaded load_text(const char* text, bool warm_start = true) {
  auto spec = sim::parse_scene_xml(text, "tumble.xml");
  REQUIRE(spec.ok());
  spec.value().solver.warm_start = warm_start;
  auto model = sim::compile_model(spec.value());
  REQUIRE(model.ok());
  return {std::make_shared<const sim::SceneSpec>(std::move(spec.value())),
          std::make_shared<const sim::Model>(std::move(model.value()))};
}

}  // namespace

TEST_CASE("the history ring holds the newest states within its byte budget", "[app][history]") {
  const int bodies = 10;
  sim::Control control;
  control.joint_target.assign(4, 0.5);
  control.joint_target_velocity.assign(4, 0.0);
  const std::size_t entry = history_entry_bytes(numbered_state(0, bodies), control);
  // 13 per-body reals x 8 bytes x 10 bodies + 8 targets x 8 bytes + the entry's own vectors.
  CHECK(entry == sizeof(HistoryEntry) + (130 + 8) * sizeof(sim::Real));
  StateHistory history(25 * entry + entry / 2);  // room for 25 entries, not 26
  for (int n = 0; n < 100; ++n) {
    history.push(numbered_state(n, bodies), control);
    REQUIRE(history.bytes() <= history.budget());
  }
  CHECK(history.capacity() == 25);
  REQUIRE(history.size() == 25);
  CHECK(history.bytes() <= history.budget());
  CHECK(history.at(0).state.step_index == 75);   // the oldest kept
  CHECK(history.at(24).state.step_index == 99);  // the newest
  CHECK(history.at(24).state.q[0] == 99);
  CHECK(history.at(24).control.joint_target == control.joint_target);

  // Resuming from an earlier entry drops the ones after it; the next push follows it.
  history.truncate_after(9);
  CHECK(history.size() == 10);
  history.push(numbered_state(500, bodies), control);
  CHECK(history.at(10).state.step_index == 500);
  CHECK(history.at(9).state.step_index == 84);

  // Larger states (more bodies: another model's) are counted by their own size.
  StateHistory mixed(8 * entry);
  for (int n = 0; n < 5; ++n) mixed.push(numbered_state(n, bodies), control);
  mixed.push(numbered_state(5, 4 * bodies), control);  // about 4 entries' worth
  CHECK(mixed.bytes() <= mixed.budget());
  CHECK(mixed.size() < 6);
  CHECK(mixed.at(mixed.size() - 1).state.q.size() == std::size_t(7 * 4 * bodies));
  // A budget below two states still keeps the two newest (scrubbing needs a step back).
  mixed.set_budget(1);
  CHECK(mixed.size() == 2);

  // A smaller budget keeps the newest that fit.
  history.set_budget(4 * entry);
  CHECK(history.capacity() == 4);
  REQUIRE(history.size() == 4);
  CHECK(history.bytes() == 4 * entry);
  CHECK(history.at(3).state.step_index == 500);
  CHECK(history.at(0).state.step_index == 82);
  CHECK(history.bytes() <= history.budget());
}

TEST_CASE("scrubbing back and resuming reproduces the original run bit for bit", "[app][history]") {
  // The whole State is recorded (warm-start multipliers and unwrapped joint angles included), so
  // the resumed run is the original one with the solver warm started (the default) or not.
  const bool warm_start = GENERATE(true, false);
  INFO("warm start " << warm_start);
  const runner_test::Loaded scene = load_text(kTumbleScene, warm_start);
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));

  // The original run, one step at a time, its hash after every step (index = step).
  const int steps = 90;
  std::vector<std::uint64_t> hash{sim::state_hash(runner.latest().state)};
  for (int i = 0; i < steps; ++i) {
    runner_test::run_steps(runner, 1);
    hash.push_back(sim::state_hash(runner.latest().state));
  }
  const Snapshot& after = runner.latest();
  CHECK(after.history.size == static_cast<std::size_t>(steps + 1));  // the initial state and every step
  CHECK(after.history.cursor == -1);
  CHECK(after.history.bytes <= after.history.budget);
  CHECK(after.report.contact_count > 0);  // the pile is in contact

  for (const int from : {0, 30, 61}) {
    INFO("resumed from step " << from);
    runner.seek_history(from);
    REQUIRE(runner_test::wait_for(runner, [&](const Snapshot& s) { return s.history.cursor == from || (from == steps && s.history.cursor == -1); }));
    CHECK(sim::state_hash(runner.latest().state) == hash[static_cast<std::size_t>(from)]);
    CHECK(runner.latest().state.step_index == from);
    // Step back and forward through the history.
    runner.history_step(-1);
    if (from > 0) {
      REQUIRE(runner_test::wait_for(runner, [&](const Snapshot& s) { return s.history.cursor == from - 1; }));
      CHECK(sim::state_hash(runner.latest().state) == hash[static_cast<std::size_t>(from - 1)]);
      runner.history_step(1);
      REQUIRE(runner_test::wait_for(runner, [&](const Snapshot& s) { return s.history.cursor == from; }));
    }
    // Resume: every later step equals the original one.
    for (int i = from + 1; i <= steps; ++i) {
      runner_test::run_steps(runner, 1);
      if (sim::state_hash(runner.latest().state) != hash[static_cast<std::size_t>(i)]) {
        FAIL_CHECK("step " << i << " differs from the original run");
        break;
      }
    }
    CHECK(sim::state_hash(runner.latest().state) == hash.back());
    // The states after the resume point were replaced by the resumed run's (same count).
    CHECK(runner.latest().history.size == static_cast<std::size_t>(steps + 1));
    CHECK(runner.latest().history.cursor == -1);
  }
}

TEST_CASE("restoring a state is recorded as a jump in the history", "[app][history]") {
  const runner_test::Loaded scene = load_text(kTumbleScene);
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
  runner_test::run_steps(runner, 20);
  const sim::State at20 = runner.latest().state;
  sim::Control control = sim::make_initial_control(*scene.model);
  control.joint_target[0] = -0.3;
  runner_test::run_steps(runner, 10);
  runner.restore(at20, control);
  REQUIRE(runner_test::wait_for(runner, [&](const Snapshot& s) { return s.history.size == 32; }));
  CHECK(sim::state_hash(runner.latest().state) == sim::state_hash(at20));
  CHECK(runner.latest().joint_target[0] == Approx(-0.3));
  // A state of another model is refused (nothing changes).
  sim::State wrong = at20;
  wrong.q.pop_back();
  runner.restore(wrong, control);
  runner_test::run_steps(runner, 1);
  CHECK(runner.latest().history.size == 33);
}

TEST_CASE("scrubbing the history restores the soft groups' chamber pressure with the state", "[app][history][fem]") {
  // The pressure a step was taken with is part of its history entry: scrubbed back to a step
  // taken inflated, the next step inflates again (the Joints panel's chamber slider shows it).
  const runner_test::Loaded scene = load_text(test::kChamberBarScene);
  REQUIRE(scene.model->soft_group_count == 1);
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
  runner.set_soft_pressure(0, 2e4);
  runner_test::run_steps(runner, 10);  // entries 1..10 stepped at 20 kPa
  runner.set_soft_pressure(0, 0);
  runner_test::run_steps(runner, 10);  // entries 11..20 at 0
  REQUIRE(runner.latest().soft_pressure[0] == 0);
  runner.seek_history(5);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.history.cursor == 5; }));
  CHECK(runner.latest().soft_pressure[0] == Approx(2e4));
  runner.seek_history(15);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.history.cursor == 15; }));
  CHECK(runner.latest().soft_pressure[0] == 0);
}
