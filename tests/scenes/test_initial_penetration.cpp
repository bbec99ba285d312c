// Contacts that already penetrate at a step's start (solver option max_depenetration_velocity,
// relax_initial_penetration in solver/newton_solver.cpp): eq. 9 as printed closes the whole gap
// in one step (speed δ/h); bounded, the contact recovers at most v_max h per step, never deeper,
// and the energy it adds is at most that of the bound, ½ m v_max².
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "support/scene_builders.hpp"

namespace {

using sim::Real;
using sim::Vec3;

constexpr Real kHalf = Real(0.1);    // box half extent [m]
constexpr Real kDepth = Real(0.005); // initial penetration [m]
constexpr Real kMass = Real(1);

// A 0.2 m, 1 kg box whose bottom face is kDepth below the ground plane, at rest.
sim::Model box_into_ground(Real v_max) {
  sim::SceneSpec spec;
  const int mat = test::add_material(spec, "m", Real(0.5));
  spec.world_shapes.push_back(test::ground_plane(mat));
  test::add_body(spec, "box", Vec3(0, 0, kHalf - kDepth), kMass, test::box_shape(Vec3(kHalf, kHalf, kHalf), mat));
  spec.solver.max_depenetration_velocity = v_max;
  spec.solver.newton_iterations = 10;
  spec.solver.linear_iterations = 40;
  return test::compile(spec);
}

struct Motion {
  Real height = 0;  // box bottom above the ground [m] (negative: penetration)
  Real vz = 0;      // vertical velocity [m/s]
  Real speed = 0;   // |v| [m/s]
};

Motion motion(const sim::State& s) {
  Motion m;
  m.height = s.q[2] - kHalf;
  m.vz = s.u[2];
  m.speed = Vec3(s.u[0], s.u[1], s.u[2]).norm();
  return m;
}

}  // namespace

TEST_CASE("initial penetration: a box 5 mm into the ground is pushed out at the bounded speed",
          "[scene][contact][depenetration]") {
  const Real v_max = Real(0.2);
  const sim::Model model = box_into_ground(v_max);
  const Real h = model.dt;
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  // v_max h = 1.67 mm per step: out after ceil(5 / 1.67) = 3 steps.
  const int recovery_steps = static_cast<int>(std::ceil(kDepth / (v_max * h)));
  Real fastest = 0, highest = -kDepth, kinetic_after = 0;
  int recovered_at = -1;
  const int steps = static_cast<int>(std::lround(1.0 / h));
  for (int i = 0; i < steps; ++i) {
    const Real before = motion(state).height;
    const sim::StepReport r = sim::step(model, state, control, ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());
    const Motion m = motion(state);
    fastest = std::max(fastest, m.speed);
    highest = std::max(highest, m.height);
    // Never pushed deeper, never recovering more than v_max h in a step (FB leaves ~1e-6 m).
    if (before < 0) {
      CHECK(m.height >= before - Real(1e-6));
      CHECK(m.height - before <= v_max * h + Real(1e-6));
    }
    if (recovered_at < 0 && m.height >= -Real(1e-5)) {
      recovered_at = i + 1;
      kinetic_after = Real(0.5) * kMass * m.speed * m.speed;
    }
  }
  INFO("recovered after " << recovered_at << " steps, fastest " << fastest << " m/s, highest " << highest);
  CHECK(recovered_at >= 1);
  CHECK(recovered_at <= recovery_steps + 1);
  // The separation speed never exceeds the bound; the energy gained is at most ½ m v_max², so the
  // box rises no higher than v_max²/2g above the ground after leaving it.
  CHECK(fastest <= v_max * Real(1.01));
  CHECK(kinetic_after <= Real(0.5) * kMass * v_max * v_max * Real(1.02));
  CHECK(highest <= v_max * v_max / (2 * 9.81) + Real(1e-4));
  // It lands and rests on the ground.
  const Motion end = motion(state);
  CHECK(std::abs(end.height) < Real(1e-4));
  CHECK(end.speed < Real(1e-3));
}

TEST_CASE("initial penetration: unbounded (eq. 9 as printed) pops out in one step, v_max = 0 holds the depth",
          "[scene][contact][depenetration]") {
  SECTION("v_max = inf: the whole gap in one step, speed δ/h") {
    const sim::Model model = box_into_ground(std::numeric_limits<Real>::infinity());
    sim::State state = sim::make_initial_state(model);
    const sim::Control control = sim::make_initial_control(model);
    sim::Workspace ws;
    REQUIRE(sim::step(model, state, control, ws).ok());
    const Motion m = motion(state);
    CHECK(m.height == Approx(0).margin(1e-5));
    // δ/h = 0.6 m/s (gravity's h g = 0.08 m/s is absorbed by the contact).
    CHECK(m.vz == Approx(kDepth / model.dt).epsilon(0.02));
  }
  SECTION("v_max = 0: neither deeper nor out, at rest") {
    const sim::Model model = box_into_ground(0);
    sim::State state = sim::make_initial_state(model);
    const sim::Control control = sim::make_initial_control(model);
    sim::Workspace ws;
    test::run_steps(model, state, control, ws, 120);
    const Motion m = motion(state);
    CHECK(m.height == Approx(-kDepth).margin(1e-5));
    CHECK(m.speed < Real(1e-4));
  }
}

TEST_CASE("initial penetration: two light driven links overlapping at the start separate to the drives' equilibrium",
          "[scene][contact][depenetration]") {
  // Two 20 g boxes (2 x 2 x 2 cm, inertia ~1.3e-6 kg m^2) on prismatic joints along x, each held
  // by a position drive (kp 3 N/m, kd 0.1 N s/m) at its start, overlapping by δ = 4 mm. Pushed
  // apart, each slides back δ/2 (symmetry); at rest the contact force balances each drive:
  // λ = kp δ/2 (closed form). Gravity is carried by the joints.
  const Real kp = 3, kd = Real(0.1), overlap = Real(0.004), half = Real(0.01), v_max = Real(0.1);
  sim::SceneSpec spec;
  const int mat = test::add_material(spec, "m", Real(0.5));
  const Real x = half - overlap / 2;  // centres at ∓x: faces overlap by δ
  for (int side : {-1, 1}) {
    const int b = test::add_body(spec, side < 0 ? "left" : "right", Vec3(side * x, 0, Real(0.5)), Real(0.02),
                                 test::box_shape(Vec3(half, half, half), mat));
    sim::JointSpec j;
    j.name = side < 0 ? "left" : "right";
    j.type = sim::JointType::Prismatic;
    j.body_b = b;
    j.frame_a.pos = spec.bodies[static_cast<std::size_t>(b)].pose.pos;
    j.axis = Vec3::UnitX();
    j.drive = sim::DriveMode::Position;
    j.stiffness = kp;
    j.damping = kd;
    spec.joints.push_back(j);
  }
  spec.solver.max_depenetration_velocity = v_max;
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  Real fastest = 0;
  const int steps = static_cast<int>(std::lround(3.0 / model.dt));
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());
    for (Real v : state.u) REQUIRE(std::isfinite(v));
    fastest = std::max(fastest, std::abs(state.u[0]));
    fastest = std::max(fastest, std::abs(state.u[6]));
  }
  const Real left = state.q[0], right = state.q[7];
  INFO("left " << left << " right " << right << " fastest " << fastest);
  // Separated: the faces touch (gap within the NCP's tolerance), each moved back δ/2.
  CHECK((right - half) - (left + half) == Approx(0).margin(2e-5));
  CHECK(left == Approx(-half).margin(2e-5));
  CHECK(right == Approx(half).margin(2e-5));
  // Each link's speed stayed under the bound (they recede symmetrically at v_max/2 at most).
  CHECK(fastest <= v_max * Real(0.51));
  // Equilibrium: the contact force equals each drive's kp δ/2 (0.006 N).
  Real normal = 0;
  for (std::size_t c = 0; c < ws.contact_normal_force.size(); ++c) normal += ws.contact_normal_force[c];
  CHECK(normal == Approx(kp * overlap / 2).epsilon(0.02));
  for (Real v : state.u) CHECK(std::abs(v) < Real(1e-4));
}
