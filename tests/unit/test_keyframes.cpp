// Keyframes (<keyframe> in scene files, sim/keyframe.hpp): written by the scene writer and read
// back bit for bit, restored into a state that continues exactly as the saved one did (with the
// solver warm started or not: the warm start is part of a keyframe), and
// refused with the file, line and reason when they do not fit the model.
#include <catch2/catch.hpp>

#include <string>

#include "sim/compile.hpp"
#include "sim/keyframe.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/chamber_scene.hpp"

namespace {

constexpr const char* kScene = R"(<?xml version="1.0"?>
<scene name="keys" dt="0.005">
  <solver warm_start="false"/>
  <world><plane/></world>
  <body name="top" pos="0 0 0.3" euler="10 20 30" mass="0.4"><box size="0.1 0.2 0.05"/></body>
  <body name="ball" pos="0.3 0 0.5" mass="0.2"><sphere radius="0.04"/></body>
  <body name="link" pos="-0.3 0 0.4" mass="0.5"><box size="0.3 0.04 0.04"/></body>
  <joint name="pin" type="revolute" parent="world" child="link" pos="-0.45 0 0.4" axis="0 1 0">
    <drive mode="position" stiffness="30" damping="1" target="0.2"/>
  </joint>
</scene>
)";

sim::SceneSpec parse(const std::string& text, const std::string& name = "keys.xml") {
  auto spec = sim::parse_scene_xml(text, name);
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  return std::move(spec.value());
}

}  // namespace

TEST_CASE("keyframes round-trip through the scene file bit for bit and continue the run", "[io][keyframe]") {
  sim::SceneSpec spec = parse(kScene);
  auto compiled = sim::compile_model(spec);
  REQUIRE(compiled.ok());
  const sim::Model& model = compiled.value();
  sim::State state = sim::make_initial_state(model);
  sim::Control control = sim::make_initial_control(model);
  control.joint_target[0] = sim::Real(-0.7);
  sim::Workspace ws;
  for (int i = 0; i < 73; ++i) REQUIRE(sim::step(model, model.solver, state, control, ws).ok());
  spec.keyframes.push_back(sim::make_keyframe("mid air", state, control));
  spec.keyframes.push_back(sim::make_keyframe("start", sim::make_initial_state(model), sim::make_initial_control(model)));
  spec.keyframes.back().joint_target.clear();  // no targets: the model's own

  const std::string text = sim::write_scene_xml(spec);
  CHECK(text.find("<keyframe name=\"mid air\"") != std::string::npos);
  const sim::SceneSpec back = parse(text);
  REQUIRE(back.keyframes.size() == 2);
  const sim::KeyframeSpec& k = back.keyframes[0];
  CHECK(k.name == "mid air");
  CHECK(k.time == state.time);  // exact: shortest round-trip numbers
  CHECK(k.q == state.q);
  CHECK(k.u == state.u);
  CHECK(k.joint_position == state.joint_position);
  CHECK(k.joint_position.size() == 1);
  CHECK(k.joint_target == control.joint_target);
  CHECK(back.keyframes[1].joint_target.empty());
  CHECK(k.source.line > 0);

  // Restored into a fresh compile of the file read back, the run continues as the original.
  auto model_back = sim::compile_model(back);
  REQUIRE(model_back.ok());
  auto restored = sim::keyframe_state(model_back.value(), k);
  REQUIRE(restored.ok());
  CHECK(sim::state_hash(restored.value().state) == sim::state_hash(state));  // warm start off: none to lose
  CHECK(restored.value().control.joint_target[0] == sim::Real(-0.7));
  sim::State original = state;
  sim::Workspace fresh_a, fresh_b;
  sim::State again = restored.value().state;
  for (int i = 0; i < 40; ++i) {
    REQUIRE(sim::step(model, model.solver, original, control, fresh_a).ok());
    REQUIRE(sim::step(model_back.value(), model_back.value().solver, again, restored.value().control, fresh_b).ok());
  }
  CHECK(sim::state_hash(again) == sim::state_hash(original));

  auto start = sim::keyframe_state(model_back.value(), back.keyframes[1]);
  REQUIRE(start.ok());
  CHECK(start.value().control.joint_target == sim::make_initial_control(model).joint_target);
}

TEST_CASE("a keyframe keeps the solver's warm start: restored through the file, a warm-started run continues bit for bit",
          "[io][keyframe]") {
  std::string text = kScene;
  text.replace(text.find("<solver warm_start=\"false\"/>"), std::string("<solver warm_start=\"false\"/>").size(), "");
  sim::SceneSpec spec = parse(text);
  REQUIRE(spec.solver.warm_start);
  auto compiled = sim::compile_model(spec);
  REQUIRE(compiled.ok());
  const sim::Model& model = compiled.value();
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  for (int i = 0; i < 160; ++i) REQUIRE(sim::step(model, model.solver, state, control, ws).ok());  // landed
  REQUIRE(state.warm_start.contact_key.size() >= 4);
  spec.keyframes.push_back(sim::make_keyframe("resting", state, control));
  const sim::SceneSpec back = parse(sim::write_scene_xml(spec));
  REQUIRE(back.keyframes.size() == 1);
  const sim::KeyframeSpec& k = back.keyframes[0];
  CHECK(k.warm_contact_key == state.warm_start.contact_key);  // 64-bit keys exact (hexadecimal)
  CHECK(k.warm_contact_lambda == state.warm_start.contact_lambda);
  CHECK(k.warm_row_lambda == state.warm_start.row_lambda);
  auto model_back = sim::compile_model(back);
  REQUIRE(model_back.ok());
  auto restored = sim::keyframe_state(model_back.value(), k);
  REQUIRE(restored.ok());
  CHECK(sim::state_hash(restored.value().state) == sim::state_hash(state));

  // 60 more steps: the restored run is the original to the bit; a cold start is not.
  sim::State original = state, again = restored.value().state, cold = restored.value().state;
  cold.warm_start.clear();
  sim::Workspace wa, wb, wc;
  for (int i = 0; i < 60; ++i) {
    REQUIRE(sim::step(model, model.solver, original, control, wa).ok());
    REQUIRE(sim::step(model_back.value(), model_back.value().solver, again, restored.value().control, wb).ok());
    REQUIRE(sim::step(model_back.value(), model_back.value().solver, cold, restored.value().control, wc).ok());
  }
  CHECK(sim::state_hash(again) == sim::state_hash(original));
  CHECK(sim::state_hash(cold) != sim::state_hash(original));

  // A warm start that does not hold together is refused.
  sim::KeyframeSpec broken = k;
  broken.warm_contact_lambda.pop_back();
  auto refused = sim::keyframe_state(model_back.value(), broken);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error(), Catch::Contains("keys.xml:") && Catch::Contains("contact multipliers"));
}

TEST_CASE("keyframes that do not fit are refused with file, line and reason", "[io][keyframe]") {
  SECTION("reader") {
    const std::string base = std::string(kScene).substr(0, std::string(kScene).find("</scene>"));
    auto no_q = sim::parse_scene_xml(base + "  <keyframe name=\"k\" u=\"0\"/>\n</scene>\n", "bad.xml");
    REQUIRE_FALSE(no_q.ok());
    CHECK(no_q.error().find("bad.xml:11") != std::string::npos);
    CHECK(no_q.error().find("'q'") != std::string::npos);
    auto twice = sim::parse_scene_xml(base + "  <keyframe name=\"k\" q=\"1\" u=\"0\"/>\n  <keyframe name=\"k\" q=\"1\" u=\"0\"/>\n</scene>\n",
                                      "bad.xml");
    REQUIRE_FALSE(twice.ok());
    CHECK(twice.error().find("duplicate keyframe name") != std::string::npos);
    auto nan = sim::parse_scene_xml(base + "  <keyframe name=\"k\" q=\"1 nan\" u=\"0\"/>\n</scene>\n", "bad.xml");
    CHECK_FALSE(nan.ok());
  }
  SECTION("restore") {
    sim::SceneSpec spec = parse(kScene, "scene.xml");
    auto model = sim::compile_model(spec);
    REQUIRE(model.ok());
    sim::KeyframeSpec k = sim::make_keyframe("k", sim::make_initial_state(model.value()), sim::make_initial_control(model.value()));
    k.source = {"scene.xml", 12};
    sim::KeyframeSpec short_q = k;
    short_q.q.resize(short_q.q.size() - 7);  // a body fewer
    auto r = sim::keyframe_state(model.value(), short_q);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().find("scene.xml:12: keyframe 'k': q has 14 values, the model needs 21") != std::string::npos);
    sim::KeyframeSpec bad_rotation = k;
    bad_rotation.q[3] = 2;  // body 0's quaternion w
    auto b = sim::keyframe_state(model.value(), bad_rotation);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().find("'top'") != std::string::npos);
    sim::KeyframeSpec targets = k;
    targets.joint_target.push_back(1);
    CHECK_FALSE(sim::keyframe_state(model.value(), targets).ok());
  }
}

TEST_CASE("a keyframe keeps the soft groups' chamber pressure through the file and restores it", "[io][keyframe][fem]") {
  // A soft bar whose outer half is a chamber group (initial pressure 0) on the ground: saved while
  // inflated at 20 kPa, the keyframe restores the pressure with the state, so the restored run
  // continues as the inflated one, not as the model's initial control would make it.
  sim::SceneSpec spec = parse(test::kChamberBarScene, "chamber.xml");
  auto compiled = sim::compile_model(spec);
  REQUIRE(compiled.ok());
  const sim::Model& model = compiled.value();
  REQUIRE(model.soft_group_count == 1);
  sim::State state = sim::make_initial_state(model);
  sim::Control control = sim::make_initial_control(model);
  REQUIRE(control.soft_pressure[0] == 0);
  control.soft_pressure[0] = 2e4;
  sim::Workspace ws;
  for (int i = 0; i < 20; ++i) REQUIRE(sim::step(model, model.solver, state, control, ws).ok());
  spec.keyframes.push_back(sim::make_keyframe("inflated", state, control));

  const std::string text = sim::write_scene_xml(spec);
  CHECK(text.find("pressures=\"20000\"") != std::string::npos);
  const sim::SceneSpec back = parse(text);
  REQUIRE(back.keyframes.size() == 1);
  CHECK(back.keyframes[0].soft_pressure == control.soft_pressure);
  auto model_back = sim::compile_model(back);
  REQUIRE(model_back.ok());
  auto restored = sim::keyframe_state(model_back.value(), back.keyframes[0]);
  REQUIRE(restored.ok());
  CHECK(restored.value().control.soft_pressure[0] == 2e4);

  // The restored run continues as the inflated one; with the initial control it does not.
  sim::State original = state, again = restored.value().state, deflated = restored.value().state;
  sim::Workspace a, b, c;
  const sim::Control initial = sim::make_initial_control(model_back.value());
  for (int i = 0; i < 10; ++i) {
    REQUIRE(sim::step(model, model.solver, original, control, a).ok());
    REQUIRE(sim::step(model_back.value(), model_back.value().solver, again, restored.value().control, b).ok());
    REQUIRE(sim::step(model_back.value(), model_back.value().solver, deflated, initial, c).ok());
  }
  CHECK(sim::state_hash(again) == sim::state_hash(original));
  CHECK(sim::state_hash(deflated) != sim::state_hash(original));

  // A keyframe with another number of pressures than the model has groups is refused.
  sim::KeyframeSpec wrong = back.keyframes[0];
  wrong.soft_pressure.push_back(1);
  wrong.source = {"chamber.xml", 9};
  auto refused = sim::keyframe_state(model_back.value(), wrong);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("chamber.xml:9: keyframe 'inflated': pressures has 2 values, the model needs 1") !=
        std::string::npos);
}
