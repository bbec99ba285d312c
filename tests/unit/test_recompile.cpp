// Engine-side edits (sim/recompile.hpp): a value patch gives the Model a full compile of the edited
// spec gives (every array the field table and the edits reach, compared exactly); edits that are
// not values, or whose inertia turns a principal frame, go through recompile; a recompile carries
// the run over: bodies by name keep pose and velocity, joints their unwrapped coordinate, and the
// warm start where its rows and contact keys still mean the same. A recompile of the same spec
// continues bit for bit.
#include <catch2/catch.hpp>

#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "app/spec_equal.hpp"
#include "sim/compile.hpp"
#include "sim/field_table.hpp"
#include "sim/recompile.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::SpecEdit;
using sim::SpecItemKind;
using sim::Vec3;

namespace {

// A crate resting on the ground and a driven, limited arm swinging on a hinge above it, a ball
// joint hanging a weight from the arm, and a particle falling beside them.
sim::SceneSpec workbench() {
  sim::SceneSpec spec;
  spec.name = "workbench";
  spec.dt = Real(1) / 200;
  const int rubber = test::add_material(spec, "rubber", 0.8);
  test::add_material(spec, "steel", 0.3);
  spec.world_shapes.push_back(test::ground_plane(rubber));
  test::add_body(spec, "crate", Vec3(0, 0, 0.15), 2.0, test::box_shape(Vec3(0.2, 0.15, 0.15), rubber));
  const int arm = test::add_body(spec, "arm", Vec3(1, 0, 1.2), 1.5, test::box_shape(Vec3(0.3, 0.04, 0.04), 1));
  const int weight = test::add_body(spec, "weight", Vec3(1.3, 0, 0.9), 0.5, test::sphere_shape(0.06, 1));
  sim::JointSpec hinge;
  hinge.name = "shoulder";
  hinge.type = sim::JointType::Revolute;
  hinge.body_b = arm;
  hinge.frame_a.pos = Vec3(0.7, 0, 1.2);
  hinge.frame_b.pos = Vec3(-0.3, 0, 0);
  hinge.axis = Vec3::UnitY();
  hinge.limited = true;
  hinge.lower = -1.0;
  hinge.upper = 0.8;
  hinge.drive = sim::DriveMode::Position;
  hinge.stiffness = 40;
  hinge.damping = 2;
  hinge.target = 0.3;
  hinge.armature = 0.05;
  spec.joints.push_back(hinge);
  sim::JointSpec ball;
  ball.name = "hook";
  ball.type = sim::JointType::Ball;
  ball.body_a = arm;
  ball.body_b = weight;
  ball.frame_a.pos = Vec3(0.3, 0, 0);
  ball.frame_b.pos = Vec3(0, 0, 0.3);
  spec.joints.push_back(ball);
  sim::ParticleSpec p;
  p.position = Vec3(-1, 0, 0.5);
  p.mass = 0.1;
  p.radius = 0.02;
  spec.particles.push_back(p);
  return spec;
}

struct Edit {
  SpecEdit edit;
  std::function<void(sim::SceneSpec&)> apply;
};

}  // namespace

TEST_CASE("a value patch gives the Model a full compile of the edited spec gives", "[unit][recompile]") {
  const sim::SceneSpec base = workbench();
  const sim::Model base_model = test::compile(base);
  std::vector<Edit> edits = {
      {{SpecItemKind::Material, 0, -1, "friction"}, [](sim::SceneSpec& s) { s.materials[0].friction = 0.45; }},
      {{SpecItemKind::Material, 1, -1, "friction_major"}, [](sim::SceneSpec& s) { s.materials[1].friction_major = 0.9; }},
      {{SpecItemKind::Body, 0, -1, "mass"}, [](sim::SceneSpec& s) { s.bodies[0].mass = 3.5; }},
      {{SpecItemKind::Body, 1, -1, "mass"}, [](sim::SceneSpec& s) { s.bodies[1].mass = -1; }},  // back to the shapes'
      {{SpecItemKind::Joint, 0, -1, "armature"}, [](sim::SceneSpec& s) { s.joints[0].armature = 0.3; }},
      {{SpecItemKind::Joint, 1, -1, "armature"}, [](sim::SceneSpec& s) { s.joints[1].armature = 0.01; }},
      {{SpecItemKind::Joint, 0, -1, "limited"}, [](sim::SceneSpec& s) { s.joints[0].limited = false; }},
      {{SpecItemKind::Joint, 0, -1, "upper"}, [](sim::SceneSpec& s) { s.joints[0].upper = 1.2; }},
      {{SpecItemKind::Joint, 0, -1, "drive"}, [](sim::SceneSpec& s) { s.joints[0].drive = sim::DriveMode::Velocity; }},
      {{SpecItemKind::Shape, 1, 0, "thickness"}, [](sim::SceneSpec& s) { s.bodies[1].shapes[0].thickness = 0.003; }},
      {{SpecItemKind::Shape, 0, 0, "material"}, [](sim::SceneSpec& s) { s.bodies[0].shapes[0].material = 1; }},
      {{SpecItemKind::Particle, 0, -1, "mass"}, [](sim::SceneSpec& s) { s.particles[0].mass = 0.25; }},
      {{SpecItemKind::Particle, 0, -1, "radius"}, [](sim::SceneSpec& s) { s.particles[0].radius = 0.03; }},
      {{SpecItemKind::Scene, -1, -1, "gravity.z"}, [](sim::SceneSpec& s) { s.gravity.z() = -3.7; }},
      {{SpecItemKind::Scene, -1, -1, "dt"}, [](sim::SceneSpec& s) { s.dt = 0.004; }},
  };
  // Every joint field of the table, by the table.
  for (const auto& f : sim::kJointFields) {
    const Real value = f.default_value > 0 ? f.default_value * 3 : Real(0.7);
    edits.push_back({{SpecItemKind::Joint, 0, -1, std::string(f.name)}, [&f, value](sim::SceneSpec& s) { s.joints[0].*f.spec = value; }});
  }
  for (const Edit& e : edits) {
    INFO(e.edit.field << " of item " << e.edit.index);
    sim::SceneSpec edited = base;
    e.apply(edited);
    REQUIRE(sim::is_value_edit(edited, e.edit));
    REQUIRE(sim::check_value_edit(edited, e.edit) == "");
    sim::Model patched = base_model;
    const sim::PatchResult result = sim::patch_model(patched, edited, e.edit);
    INFO(result.error);
    REQUIRE(result.outcome == sim::PatchOutcome::Patched);
    const sim::Model recompiled = test::compile(edited);
    CHECK(app_test::model_value_difference(patched, recompiled) == "");
    CHECK(app_test::model_value_difference(patched, base_model) != "");  // the edit did reach the model
  }
}

TEST_CASE("edits that are not values, or that turn a principal frame, need a recompile", "[unit][recompile]") {
  const sim::SceneSpec base = workbench();
  const sim::Model base_model = test::compile(base);
  const std::vector<Edit> structural = {
      {{SpecItemKind::Shape, 1, 0, "half_extents.x"}, [](sim::SceneSpec& s) { s.bodies[1].shapes[0].half_extents.x() = 0.4; }},
      {{SpecItemKind::Body, 0, -1, "fixed"}, [](sim::SceneSpec& s) { s.bodies[0].fixed = true; }},
      {{SpecItemKind::Body, 0, -1, "pos.z"}, [](sim::SceneSpec& s) { s.bodies[0].pose.pos.z() = 0.5; }},
      // The hinge axis turned 30° off the arm's principal axes: its armature turns the arm's
      // principal frame (compile/body_inertia.hpp), which poses and joint frames are written in.
      {{SpecItemKind::Joint, 0, -1, "armature"},
       [](sim::SceneSpec& s) {
         s.joints[0].frame_b.rot = sim::Quat(Eigen::AngleAxis<Real>(std::numbers::pi / 6, Vec3::UnitZ()));
         s.joints[0].armature = 0.4;
       }},
  };
  for (const Edit& e : structural) {
    INFO(e.edit.field);
    sim::SceneSpec edited = base;
    e.apply(edited);
    sim::SceneSpec reference = base;  // the armature case: the same axis, the old armature
    if (e.edit.field == "armature") reference.joints[0].frame_b = edited.joints[0].frame_b;
    sim::Model model = test::compile(reference);
    const sim::Model before = model;
    CHECK(sim::patch_model(model, edited, e.edit).outcome == sim::PatchOutcome::NeedsRecompile);
    CHECK(app_test::model_value_difference(model, before) == "");  // untouched
    CHECK(model.shape_half_extents == before.shape_half_extents);
    auto recompiled = sim::recompile(edited, model, sim::make_initial_state(model), sim::make_initial_control(model));
    REQUIRE(recompiled.ok());
    CHECK(app_test::model_value_difference(recompiled->model, test::compile(edited)) == "");
  }
  // A value that does not compile is refused, the model untouched.
  sim::SceneSpec edited = base;
  edited.joints[0].stiffness = 0;  // a position drive needs stiffness > 0
  sim::Model model = base_model;
  const sim::PatchResult failed = sim::patch_model(model, edited, {SpecItemKind::Joint, 0, -1, "stiffness"});
  CHECK(failed.outcome == sim::PatchOutcome::Failed);
  CHECK(failed.error.find("<joint> 'shoulder'") != std::string::npos);
  CHECK(failed.error.find("position drive needs stiffness > 0") != std::string::npos);
  CHECK(app_test::model_value_difference(model, base_model) == "");
}

TEST_CASE("a recompile of the same spec continues bit for bit", "[unit][recompile]") {
  const sim::SceneSpec spec = workbench();
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  test::run_steps(model, state, control, ws, 60);
  REQUIRE_FALSE(state.warm_start.contact_key.empty());  // the crate rests: warm start to carry
  REQUIRE_FALSE(state.warm_start.row_lambda.empty());
  auto again = sim::recompile(spec, model, state, control);
  REQUIRE(again.ok());
  CHECK(sim::state_hash(again->state) == sim::state_hash(state));
  sim::Workspace ws_again;
  sim::State continued = again->state;
  test::run_steps(model, state, control, ws, 40);
  test::run_steps(again->model, continued, again->control, ws_again, 40);
  CHECK(sim::state_hash(continued) == sim::state_hash(state));
}

TEST_CASE("the run survives a recompile: poses, velocities, joint angles and warm start by name", "[unit][recompile]") {
  const sim::SceneSpec spec = workbench();
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  test::run_steps(model, state, control, ws, 80);

  SECTION("a shape edit (same topology): everything carries over") {
    sim::SceneSpec edited = spec;
    edited.bodies[2].shapes[0].radius = 0.08;  // the weight's sphere
    auto r = sim::recompile(edited, model, state, control);
    REQUIRE(r.ok());
    for (int b = 0; b < model.body_count; ++b) {
      const sim::Pose old_frame = state.body_pose(b) * model.body_frame_in_com[static_cast<std::size_t>(b)];
      const sim::Pose new_frame = r->state.body_pose(b) * r->model.body_frame_in_com[static_cast<std::size_t>(b)];
      CHECK((old_frame.pos - new_frame.pos).norm() < 1e-12);
      CHECK(old_frame.rot.angularDistance(new_frame.rot) < 1e-12);
      CHECK(r->state.body_angular_velocity(b) == state.body_angular_velocity(b));
    }
    CHECK(r->state.joint_position == state.joint_position);
    CHECK(r->state.warm_start.row_lambda == state.warm_start.row_lambda);
    CHECK(r->state.warm_start.contact_key == state.warm_start.contact_key);
    CHECK(r->state.warm_start.contact_lambda == state.warm_start.contact_lambda);
  }

  SECTION("a body added (topology): the others keep their state and their contacts' warm start") {
    sim::SceneSpec edited = spec;
    test::add_body(edited, "newcomer", Vec3(3, 0, 0.5), 1.0, test::sphere_shape(0.1));
    auto r = sim::recompile(edited, model, state, control);
    REQUIRE(r.ok());
    REQUIRE(r->model.body_count == model.body_count + 1);
    for (int b = 0; b < model.body_count; ++b) {
      CHECK(r->state.body_pose(b).pos == state.body_pose(b).pos);
      CHECK(r->state.body_velocity(b) == state.body_velocity(b));
    }
    CHECK(r->state.body_pose(model.body_count).pos == r->model.body_initial_pose.back().pos);
    CHECK(r->state.joint_position == state.joint_position);
    CHECK(r->state.warm_start.row_lambda == state.warm_start.row_lambda);
    CHECK(r->state.warm_start.contact_key == state.warm_start.contact_key);  // new shapes come last
  }

  SECTION("a body removed (topology): matched by name, renumbered contacts start cold") {
    sim::SceneSpec edited = spec;
    REQUIRE(sim::erase_body(edited, 0) == "");  // the crate, before the arm and the weight
    auto r = sim::recompile(edited, model, state, control);
    REQUIRE(r.ok());
    REQUIRE(r->model.body_count == model.body_count - 1);
    for (int b = 0; b < r->model.body_count; ++b) {
      CHECK(r->state.body_pose(b).pos == state.body_pose(b + 1).pos);
      CHECK(r->state.body_velocity(b) == state.body_velocity(b + 1));
    }
    CHECK(r->state.joint_position == state.joint_position);      // both joints kept, by name
    CHECK(r->state.warm_start.row_lambda == state.warm_start.row_lambda);  // the same joint rows
    CHECK(r->state.warm_start.contact_key.empty());             // shape indices moved
    sim::Workspace ws2;
    sim::State next = r->state;
    test::run_steps(r->model, next, r->control, ws2, 10);       // and it runs on
  }

  SECTION("a joint's type changed: its angle and the joint rows' warm start start again") {
    sim::SceneSpec edited = spec;
    edited.joints[1].type = sim::JointType::Fixed;
    auto r = sim::recompile(edited, model, state, control);
    REQUIRE(r.ok());
    CHECK(r->state.joint_position[0] == state.joint_position[0]);
    CHECK(r->state.warm_start.row_lambda.empty());
  }
}
