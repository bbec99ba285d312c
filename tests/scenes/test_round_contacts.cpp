// Round shapes (spheres, capsules) contact through their core with the radius in the thickness
// (constraint/contact_rows.cpp): a spinning ball's contact stays under its centre, so the Newton
// iteration cannot satisfy the contact by turning the ball.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

TEST_CASE("a fast-spinning ball set on the ground rolls off at 2/7 of its spin, without sinking or gaining energy",
          "[scene][contact][round]") {
  // A ball (r 2 cm, 1000 kg/m^3) spinning at ω0 = 150 rad/s about x, at rest on μ 0.5 ground:
  // friction turns slip into rolling. Angular momentum about the contact point is conserved,
  // I ω0 = (I + m r²) ω, so it rolls off with ω = 2/7 ω0 and v = r ω (0.857 m/s) after slipping
  // for v/(μ g) = 0.17 s. Its contact is evaluated at its centre (round core, contact_rows.cpp):
  // at ω h = 1.25 rad per step a surface point carried by the spin would rise 13 mm.
  const Real r = Real(0.02), omega0 = 150, mu = Real(0.5);
  sim::SceneSpec spec;
  const int mat = test::add_material(spec, "m", mu);
  spec.world_shapes.push_back(test::ground_plane(mat));
  sim::BodySpec ball;
  ball.name = "ball";
  ball.pose.pos = Vec3(0, 0, r);
  ball.angular_velocity = Vec3(omega0, 0, 0);
  ball.shapes.push_back(test::sphere_shape(r, mat));
  spec.bodies.push_back(ball);
  const sim::Model model = test::compile(spec);
  const Real mass = 1 / model.body_inv_mass[0], inertia = model.body_inertia[0].x();
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  auto kinetic = [&] {
    const Vec3 v(state.u[0], state.u[1], state.u[2]), w(state.u[3], state.u[4], state.u[5]);
    return Real(0.5) * mass * v.squaredNorm() + Real(0.5) * inertia * w.squaredNorm();
  };
  Real energy = kinetic(), lowest = r, highest = r;
  const int steps = static_cast<int>(std::lround(1.0 / model.dt));
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport rep = sim::step(model, state, control, ws);
    INFO("step " << i << ": " << rep.message);
    REQUIRE(rep.ok());
    const Real e = kinetic();
    CHECK(e <= energy * (1 + 1e-9) + 1e-12);  // friction only dissipates
    energy = e;
    lowest = std::min(lowest, state.q[2]);
    highest = std::max(highest, state.q[2]);
  }
  INFO("height range " << lowest << " .. " << highest);
  CHECK(lowest > r - Real(1e-4));
  CHECK(highest < r + Real(1e-4));
  const Real omega = 2 * omega0 / 7;
  CHECK(std::abs(state.u[1]) == Approx(r * omega).epsilon(0.02));
  CHECK(std::abs(state.u[3]) == Approx(omega).epsilon(0.02));
  CHECK(std::abs(state.u[1]) == Approx(r * std::abs(state.u[3])).epsilon(0.01));  // rolling, no slip
}
