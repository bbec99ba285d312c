// Record and replay: a session with changing controls replays to the identical state hash;
// damaged files and other models are refused with a message.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "sim/recording.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// A driven hinge plus a free box pushed around: drive targets and wrenches change every step.
sim::SceneSpec driven_scene() {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 120;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "arm", Vec3(0.25, 0, 1), 1.0, test::box_shape(Vec3(0.25, 0.03, 0.03)));
  test::add_body(spec, "box", Vec3(1, 0, 0.1), 2.0, test::box_shape(Vec3(0.1, 0.1, 0.1)));
  sim::JointSpec j;
  j.type = sim::JointType::Revolute;
  j.body_a = -1;
  j.body_b = 0;
  j.frame_a.pos = Vec3(0, 0, 1);
  j.frame_b.pos = Vec3(-0.25, 0, 0);
  j.axis = Vec3::UnitY();
  j.drive = sim::DriveMode::Position;
  j.stiffness = 100;
  j.damping = 5;
  spec.joints.push_back(j);
  return spec;
}

sim::Control control_at(const sim::Model& model, int step) {
  sim::Control c = sim::make_initial_control(model);
  c.joint_target[0] = 0.5 * std::sin(0.05 * step);
  c.body_wrench[1].head<3>() = Vec3(3 * std::cos(0.03 * step), 2, 0);
  return c;
}

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() / name).string();
}

}  // namespace

TEST_CASE("a replayed session ends on the recorded state hash", "[unit][recording]") {
  const sim::Model model = test::compile(driven_scene());
  sim::State state = sim::make_initial_state(model);
  sim::Recording rec;
  rec.begin("driven", model, model.solver, state);
  sim::Workspace ws;
  for (int i = 0; i < 200; ++i) {
    const sim::Control c = control_at(model, i);
    rec.record(c);
    REQUIRE(sim::step(model, state, c, ws).ok());
  }
  rec.final_hash = sim::state_hash(state);
  const std::string path = temp_path("coulomb_test_session.rec");
  REQUIRE(sim::save_recording(rec, path).ok());
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));

  auto loaded = sim::load_recording(path);
  REQUIRE(loaded.ok());
  CHECK(loaded->controls.size() == 200);
  CHECK(loaded->mismatch(model).empty());
  sim::State replay = loaded->initial;
  sim::Workspace ws2;
  for (const sim::Control& c : loaded->controls) REQUIRE(sim::step(model, loaded->options, replay, c, ws2).ok());
  CHECK(sim::state_hash(replay) == loaded->final_hash);
  CHECK(sim::state_hash(replay) == rec.final_hash);

  // A different control sequence ends elsewhere: the hash is a real check.
  sim::State other = loaded->initial;
  sim::Workspace ws3;
  for (int i = 0; i < 200; ++i) sim::step(model, loaded->options, other, sim::make_initial_control(model), ws3);
  CHECK(sim::state_hash(other) != loaded->final_hash);
  std::filesystem::remove(path);
}

TEST_CASE("a session recorded from the middle of a run replays bit for bit from its saved state",
          "[unit][recording]") {
  // The state at step 120 carries warm-start multipliers (the box's contacts, the hinge's rows)
  // and the hinge's unwrapped angle: a replay in a fresh Workspace must continue exactly as the
  // live run did.
  const sim::Model model = test::compile(driven_scene());
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  for (int i = 0; i < 120; ++i) REQUIRE(sim::step(model, state, control_at(model, i), ws).ok());
  REQUIRE_FALSE(state.warm_start.contact_key.empty());
  REQUIRE(state.joint_position.size() == 1);
  sim::Recording rec;
  rec.begin("driven", model, model.solver, state);
  for (int i = 120; i < 200; ++i) {
    const sim::Control c = control_at(model, i);
    rec.record(c);
    REQUIRE(sim::step(model, state, c, ws).ok());
  }
  rec.final_hash = sim::state_hash(state);
  const std::string path = temp_path("coulomb_test_session_mid.rec");
  REQUIRE(sim::save_recording(rec, path).ok());
  auto loaded = sim::load_recording(path);
  REQUIRE(loaded.ok());
  CHECK(loaded->initial.warm_start.contact_key == rec.initial.warm_start.contact_key);
  CHECK(loaded->initial.warm_start.contact_lambda == rec.initial.warm_start.contact_lambda);
  CHECK(loaded->initial.joint_position == rec.initial.joint_position);
  sim::State replay = loaded->initial;
  sim::Workspace fresh;
  for (const sim::Control& c : loaded->controls) REQUIRE(sim::step(model, loaded->options, replay, c, fresh).ok());
  CHECK(sim::state_hash(replay) == rec.final_hash);
  // Without the warm-start record the same replay ends elsewhere: the record is what the future
  // depended on.
  sim::State cold = loaded->initial;
  cold.warm_start.clear();
  sim::Workspace fresh2;
  for (const sim::Control& c : loaded->controls) sim::step(model, loaded->options, cold, c, fresh2);
  CHECK(sim::state_hash(cold) != rec.final_hash);
  std::filesystem::remove(path);
}

TEST_CASE("damaged recordings and other models are refused", "[unit][recording]") {
  const sim::Model model = test::compile(driven_scene());
  sim::Recording rec;
  rec.begin("driven", model, model.solver, sim::make_initial_state(model));
  rec.record(sim::make_initial_control(model));
  const std::string path = temp_path("coulomb_test_damaged.rec");
  REQUIRE(sim::save_recording(rec, path).ok());
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  auto truncated = sim::load_recording(path);
  REQUIRE_FALSE(truncated.ok());
  CHECK(truncated.error().find(path) != std::string::npos);
  {
    std::ofstream junk(path, std::ios::trunc);
    junk << "not a recording";
  }
  auto junk = sim::load_recording(path);
  REQUIRE_FALSE(junk.ok());
  CHECK(junk.error().find("not a Coulomb recording") != std::string::npos);
  std::filesystem::remove(path);

  sim::SceneSpec bigger = driven_scene();
  test::add_body(bigger, "extra", Vec3(3, 0, 0.1), 1.0, test::box_shape(Vec3(0.1, 0.1, 0.1)));
  CHECK_FALSE(rec.mismatch(test::compile(bigger)).empty());
}

TEST_CASE("a recording keeps the solver as it was: options it predates replay as they ran then", "[unit][recording]") {
  // tests/fuzz/corpus/recording/three_steps.rec was written before rope_geometric_stiffness
  // existed: it ran ropes on the diagonal secant alone, so it loads with that, not with today's
  // default.
  auto old = sim::load_recording(
      (std::filesystem::path(COULOMB_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / "recording" / "three_steps.rec").string());
  REQUIRE(old.ok());
  CHECK_FALSE(old->options.rope_geometric_stiffness);
  CHECK(sim::SolverOptions{}.rope_geometric_stiffness);  // today's default differs
  // Likewise the natural-map friction merit (on by default since 8 Dec 2026).
  CHECK_FALSE(old->options.friction_merit_natural_map);
  CHECK(sim::SolverOptions{}.friction_merit_natural_map);
  // A recording made now stores the key either way.
  const sim::Model model = test::compile(driven_scene());
  for (const bool exact : {true, false}) {
    sim::SolverOptions o = model.solver;
    o.rope_geometric_stiffness = exact;
    o.friction_merit_natural_map = exact;
    sim::Recording rec;
    rec.begin("driven", model, o, sim::make_initial_state(model));
    const std::string path = temp_path("coulomb_test_options.rec");
    REQUIRE(sim::save_recording(rec, path).ok());
    auto loaded = sim::load_recording(path);
    REQUIRE(loaded.ok());
    CHECK(loaded->options.rope_geometric_stiffness == exact);
    CHECK(loaded->options.friction_merit_natural_map == exact);
    std::filesystem::remove(path);
  }
}
