// Contact force read-outs against statics: a resting box receives m g from the ground, and
// the gripper's fingers squeeze the held cube with their drive's effort limit.
#include <catch2/catch.hpp>

#include "sim/contact_forces.hpp"
#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

TEST_CASE("a resting box receives its weight from its contacts", "[unit][contact]") {
  sim::SceneSpec spec;
  spec.dt = 0.0083;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "box", Vec3(0, 0, 0.1), 3.0, test::box_shape(Vec3(0.1, 0.1, 0.1)));
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 60);
  const sim::BodyContactForce f = sim::body_contact_force(ws, 0);
  CHECK(f.contacts == 4);
  CHECK(f.force.z() == Approx(3.0 * 9.81).epsilon(1e-3));
  CHECK(std::abs(f.force.x()) < 1e-6);
  CHECK(f.normal == Approx(3.0 * 9.81).epsilon(1e-3));
}

TEST_CASE("each gripper finger squeezes the held cube with its 5 N effort limit", "[unit][contact][grasp]") {
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/grasp.xml");
  REQUIRE(spec.ok());
  const sim::Model model = test::compile(*spec);
  sim::State state = sim::make_initial_state(model);
  sim::Control control = sim::make_initial_control(model);
  int left = -1, right = -1;
  for (int b = 0; b < model.body_count; ++b) {
    if (model.body_name[b] == "finger_left") left = b;
    if (model.body_name[b] == "finger_right") right = b;
  }
  for (int j = 0; j < model.joint_count; ++j)
    if (model.joint_name[j].rfind("finger", 0) == 0) control.joint_target[j] = 0.045;
  sim::Workspace ws;
  test::run_steps(model, state, control, ws, 90);
  const sim::BodyContactForce fl = sim::body_contact_force(ws, left);
  const sim::BodyContactForce fr = sim::body_contact_force(ws, right);
  INFO("left " << fl.force.transpose() << " right " << fr.force.transpose());
  CHECK(fl.force.x() == Approx(-5).epsilon(0.01));  // pushed back by the cube
  CHECK(fr.force.x() == Approx(5).epsilon(0.01));
}
