// Control ranges (MJCF actuator ctrlrange / ctrllimited, URDF <limit velocity> of a velocity
// drive): whatever a controller writes into Control, the drive's input is clamped into the range
// every step, so the joint settles at the range's end, as MuJoCo's clamped ctrl does.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/scratch_files.hpp"

namespace {

// A horizontal arm on a vertical hinge, no gravity: the drive alone sets where it goes.
std::string arm_mjcf(const std::string& actuator) {
  return R"(<mujoco model="ctrl">
  <option gravity="0 0 0" timestep="0.005"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 0 1" damping="2"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02"/>
    </body>
  </worldbody>
  <actuator>)" + actuator + R"(</actuator>
</mujoco>)";
}

struct Loaded {
  sim::Model model;
  int joint = -1;
};

Loaded load(const std::string& name, const std::string& file, const std::string& text) {
  const auto dir = test::scratch_dir(name);
  test::write_file(dir / file, text);
  auto spec = sim::load_description((dir / file).string());
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  auto model = sim::compile_model(spec.value());
  INFO((model.ok() ? std::string() : model.error()));
  REQUIRE(model.ok());
  Loaded l{std::move(model.value()), -1};
  for (int j = 0; j < l.model.joint_count; ++j)
    if (l.model.joint_name[std::size_t(j)] == "hinge") l.joint = j;
  REQUIRE(l.joint >= 0);
  return l;
}

struct Motion {
  double position = 0, velocity = 0;  // at the end [rad], [rad/s]
};

// Runs `seconds` with the drive's position target and velocity target set to the given values
// every step (a controller asking for more than the range allows).
Motion run(const Loaded& l, double target, double target_velocity, double seconds) {
  sim::State state = sim::make_initial_state(l.model);
  sim::Control control = sim::make_initial_control(l.model);
  sim::Workspace ws;
  const int steps = int(std::lround(seconds / double(l.model.dt)));
  double before = 0;
  for (int i = 0; i < steps; ++i) {
    control.joint_target[std::size_t(l.joint)] = sim::Real(target);
    control.joint_target_velocity[std::size_t(l.joint)] = sim::Real(target_velocity);
    before = double(sim::joint_position(l.model, state, l.joint));
    REQUIRE(sim::step(l.model, state, control, ws).ok());
  }
  const double after = double(sim::joint_position(l.model, state, l.joint));
  return {after, (after - before) / double(l.model.dt)};
}

}  // namespace

TEST_CASE("MJCF ctrlrange clamps a position actuator's target: the joint settles at range / gear", "[unit][import]") {
  // gear 2, ctrlrange [-0.5, 0.5]: the joint target ctrl / gear is bounded to [-0.25, 0.25] rad.
  const Loaded limited = load("ctrlrange_position", "arm.xml",
                              arm_mjcf(R"(<position name="servo" joint="hinge" kp="100" gear="2" ctrlrange="-0.5 0.5" ctrllimited="true"/>)"));
  CHECK(limited.model.joint_target_limited[std::size_t(limited.joint)] == 1);
  CHECK(limited.model.joint_target_lower[std::size_t(limited.joint)] == Approx(-0.25));
  CHECK(limited.model.joint_target_upper[std::size_t(limited.joint)] == Approx(0.25));
  CHECK(run(limited, 0.6, 0, 3).position == Approx(0.25).margin(1e-4));
  CHECK(run(limited, -2.0, 0, 3).position == Approx(-0.25).margin(1e-4));
  CHECK(run(limited, 0.1, 0, 3).position == Approx(0.1).margin(1e-4));  // inside the range: untouched

  // The same actuator without a range follows the target all the way.
  const Loaded free = load("ctrlrange_none", "arm.xml",
                           arm_mjcf(R"(<position name="servo" joint="hinge" kp="100" gear="2"/>)"));
  CHECK(free.model.joint_target_limited[std::size_t(free.joint)] == 0);
  CHECK(run(free, 0.6, 0, 3).position == Approx(0.6).margin(1e-4));
}

TEST_CASE("MJCF ctrlrange clamps a velocity actuator's target velocity", "[unit][import]") {
  // kv 4 with gear 1 and the joint's damping 2: the drive pulls θ̇ to the clamped target 1 rad/s.
  const Loaded l = load("ctrlrange_velocity", "arm.xml",
                        arm_mjcf(R"(<velocity name="spin" joint="hinge" kv="4" ctrlrange="-1 1" ctrllimited="true"/>)"));
  const Motion m = run(l, 0, 5.0, 3);
  // Steady state of kd (θ̇* − θ̇) with kd = 4 + 2 damping against nothing: θ̇ = θ̇* exactly.
  CHECK(m.velocity == Approx(1.0).margin(1e-4));
  CHECK(run(l, 0, -0.5, 3).velocity == Approx(-0.5).margin(1e-4));
}

TEST_CASE("MJCF ctrlrange with its bounds reversed is an error naming the attribute", "[unit][import]") {
  const auto dir = test::scratch_dir("ctrlrange_reversed");
  test::write_file(dir / "arm.xml",
                   arm_mjcf(R"(<position name="servo" joint="hinge" kp="100" ctrlrange="0.5 -0.5" ctrllimited="true"/>)"));
  auto spec = sim::load_description((dir / "arm.xml").string());
  REQUIRE_FALSE(spec.ok());
  CHECK_THAT(spec.error(), Catch::Contains("arm.xml:9: <position>: attribute 'ctrlrange'") &&
                               Catch::Contains("above the upper bound"));
}

TEST_CASE("URDF <limit velocity> bounds a velocity drive's target velocity", "[unit][import]") {
  const auto dir = test::scratch_dir("ctrlrange_urdf");
  test::write_file(dir / "wheel.urdf", R"(<robot name="wheel">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="arm"><inertial><origin xyz="0.1 0 0"/><mass value="0.2"/><inertia ixx="1e-4" iyy="1e-3" izz="1e-3"/></inertial></link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit effort="5" velocity="0.75"/></joint>
</robot>)");
  test::write_file(dir / "scene.xml", R"(<scene name="wheel" gravity="0 0 0">
  <robot file="wheel.urdf" drive="velocity" damping="3"/>
</scene>)");
  auto spec = sim::load_scene_file((dir / "scene.xml").string());
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  auto model = sim::compile_model(spec.value());
  REQUIRE(model.ok());
  Loaded l{std::move(model.value()), 0};
  REQUIRE(l.model.joint_name[0] == "hinge");
  CHECK(l.model.joint_target_limited[0] == 1);
  CHECK(run(l, 0, 4.0, 2).velocity == Approx(0.75).margin(1e-4));
  CHECK(run(l, 0, -4.0, 2).velocity == Approx(-0.75).margin(1e-4));
}
