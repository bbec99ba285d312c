// Physical oracles for the NSN solver through the full step pipeline: incline stick/slip
// (closed form, all sliding directions), the Fig. 6 particle, momentum in free flight, the
// pendulum period.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kG = 9.81;

// A 0.2 m box resting on the ground, gravity tilted by θ towards `direction` (in the plane):
// the same physics as an incline of angle θ, with the sliding direction free in the plane.
struct InclineRun {
  Real velocity_along = 0;   // final velocity along the downhill direction [m/s]
  Real velocity_across = 0;  // perpendicular to it, in the plane [m/s]
  Real displacement = 0;     // along the downhill direction [m]
};

InclineRun run_incline(Real theta_deg, Real mu, Real direction_deg, Real duration,
                       sim::NcpFunction ncp = sim::NcpFunction::FischerBurmeister) {
  const Real th = theta_deg * std::numbers::pi / 180, ph = direction_deg * std::numbers::pi / 180;
  const Vec3 dir(std::cos(ph), std::sin(ph), 0);
  sim::SceneSpec spec;
  spec.dt = Real(1) / 120;
  spec.gravity = kG * (std::sin(th) * dir - std::cos(th) * Vec3::UnitZ());
  spec.solver.ncp = ncp;
  spec.solver.newton_iterations = 8;
  spec.solver.linear_iterations = 40;
  const int mat = test::add_material(spec, "m", mu);
  spec.world_shapes.push_back(test::ground_plane(mat));
  test::add_body(spec, "box", Vec3(0, 0, 0.1), 1.0, test::box_shape(Vec3(0.1, 0.1, 0.1), mat));
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  test::run_steps(model, state, control, ws, static_cast<int>(std::lround(duration / spec.dt)));
  InclineRun out;
  const Vec3 v = state.body_velocity(0), x = state.body_position(0);
  out.velocity_along = v.dot(dir);
  out.velocity_across = v.dot(Vec3(-dir.y(), dir.x(), 0));
  out.displacement = (x - Vec3(0, 0, 0.1)).dot(dir);
  return out;
}

}  // namespace

TEST_CASE("a box on an incline sticks when tan(theta) < mu", "[scene][solver][friction]") {
  for (Real direction : {0.0, 30.0, 45.0, 60.0}) {
    const InclineRun r = run_incline(20, 0.5, direction, 1.0);
    INFO("direction " << direction);
    CHECK(std::abs(r.displacement) < 1e-4);
    CHECK(std::abs(r.velocity_along) < 1e-4);
  }
}

TEST_CASE("a box on an incline slides with a = g(sin - mu cos) in every direction", "[scene][solver][friction]") {
  const Real theta = 30, mu = 0.3, T = 0.5;
  const Real th = theta * std::numbers::pi / 180;
  const Real expected = kG * (std::sin(th) - mu * std::cos(th));  // 2.357 m/s²
  for (Real direction : {0.0, 30.0, 45.0, 60.0}) {
    const InclineRun r = run_incline(theta, mu, direction, T);
    INFO("direction " << direction << ": a = " << r.velocity_along / T << " expected " << expected);
    CHECK(r.velocity_along / T == Approx(expected).epsilon(0.02));
    CHECK(std::abs(r.velocity_across) < 1e-3 * std::abs(r.velocity_along));  // no faceting bias
  }
}

TEST_CASE("the Fig. 6 particle reaches the 5 N friction cone limit", "[scene][solver][friction]") {
  for (sim::NcpFunction ncp : {sim::NcpFunction::FischerBurmeister, sim::NcpFunction::MinMap}) {
    sim::SceneSpec spec;
    spec.dt = 0.0083;
    spec.solver.ncp = ncp;
    spec.solver.newton_iterations = 20;
    spec.solver.linear_iterations = 20;
    const int mat = test::add_material(spec, "m", 0.5);
    spec.world_shapes.push_back(test::ground_plane(mat));
    test::add_particle_on_ground(spec, 10, Vec3(0.5, 0, 0), mat);  // λ_n = m g = 10 N
    const sim::Model model = test::compile(spec);
    sim::State state = sim::make_initial_state(model);
    sim::Workspace ws;
    test::run_steps(model, state, sim::make_initial_control(model), ws, 1);
    REQUIRE(ws.contacts.size() == 1);
    const sim::Real ln = ws.contact_normal_force[0];
    const sim::Vec2 lf = ws.contact_friction_force[0];
    const Vec3 force = lf.x() * ws.contacts.contacts[0].tangent1 + lf.y() * ws.contacts.contacts[0].tangent2;
    INFO("ncp " << sim::to_string(ncp) << " lambda_n " << ln << " friction " << force.transpose());
    CHECK(ln == Approx(10).epsilon(1e-3));
    CHECK(force.norm() == Approx(5).epsilon(1e-3));          // on the cone: μ λ_n
    CHECK(force.x() == Approx(-5).epsilon(1e-3));            // opposing the slip
    CHECK(state.u[0] == Approx(0.5 - 5 * spec.dt / spec.particles[0].mass).epsilon(1e-3));
  }
}

TEST_CASE("linear and angular momentum are conserved in free flight", "[scene][solver]") {
  sim::SceneSpec spec;
  spec.gravity = Vec3::Zero();
  spec.dt = 0.005;
  spec.solver.newton_iterations = 8;
  spec.solver.linear_iterations = 30;
  const int a = test::add_body(spec, "a", Vec3(0, 0, 1), 2.0, test::box_shape(Vec3(0.2, 0.1, 0.05)));
  const int b = test::add_body(spec, "b", Vec3(0.5, 0, 1), 1.0, test::box_shape(Vec3(0.1, 0.1, 0.1)));
  spec.bodies[a].linear_velocity = Vec3(0.3, -0.2, 0.1);
  spec.bodies[a].angular_velocity = Vec3(0.5, 1.0, -0.3);
  spec.bodies[b].linear_velocity = Vec3(-0.1, 0.4, 0.0);
  sim::JointSpec j;
  j.type = sim::JointType::Ball;
  j.body_a = a;
  j.body_b = b;
  j.frame_a.pos = Vec3(0.25, 0, 0);
  j.frame_b.pos = Vec3(-0.25, 0, 0);
  spec.joints.push_back(j);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  auto momenta = [&](Vec3& p, Vec3& L) {
    p.setZero();
    L.setZero();
    for (int i = 0; i < model.body_count; ++i) {
      const Real m = 1 / model.body_inv_mass[i];
      const sim::Mat3 R = state.body_rotation(i).toRotationMatrix();
      const sim::Mat3 I = R * model.body_inertia[i].asDiagonal() * R.transpose();
      p += m * state.body_velocity(i);
      L += state.body_position(i).cross(m * state.body_velocity(i)) + I * state.body_angular_velocity(i);
    }
  };
  Vec3 p0, L0, p1, L1;
  momenta(p0, L0);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 400);
  momenta(p1, L1);
  CHECK((p1 - p0).norm() < 1e-9 * (1 + p0.norm()));
  CHECK((L1 - L0).norm() < 0.02 * L0.norm());
}

TEST_CASE("a pendulum's period matches theory", "[scene][solver][joint]") {
  const Real L = 1.0, r = 0.05, theta0 = 0.1, m = 1.0;
  sim::SceneSpec spec;
  spec.dt = Real(1) / 240;
  spec.solver.newton_iterations = 6;
  spec.solver.linear_iterations = 20;
  const Vec3 pivot(0, 0, 2);
  test::add_hinged_pendulum(spec, pivot, L, theta0, m, test::sphere_shape(r));
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  const sim::Control control = sim::make_initial_control(model);
  // Period from successive upward zero crossings of the swing angle.
  std::vector<Real> crossings;
  Real prev = std::atan2(-(state.body_position(0).x() - pivot.x()), pivot.z() - state.body_position(0).z());
  for (int i = 0; i < 2400 && crossings.size() < 4; ++i) {
    test::run_steps(model, state, control, ws, 1);
    const Vec3 x = state.body_position(0);
    const Real angle = std::atan2(-(x.x() - pivot.x()), pivot.z() - x.z());
    if (prev < 0 && angle >= 0) crossings.push_back(state.time - spec.dt * angle / (angle - prev));
    prev = angle;
    CHECK(std::abs((x - pivot).norm() - L) < 1e-4);  // the joint holds
  }
  REQUIRE(crossings.size() >= 3);
  const Real period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const Real Ip = Real(0.4) * m * r * r + m * L * L;
  const Real expected = 2 * std::numbers::pi * std::sqrt(Ip / (m * kG * L)) * (1 + theta0 * theta0 / 16);
  INFO("period " << period << " expected " << expected);
  CHECK(period == Approx(expected).epsilon(0.01));
}

TEST_CASE("a launched box stops after the same distance in every direction (smooth cone)", "[scene][solver][friction]") {
  // notes/nsn-solver.md: a 0.2 m, 1 kg box launched at 2 m/s on μ 0.5 stops after ~v²/(2μg) =
  // 0.4077 m (less h v/2 for implicit Euler) whatever the direction: no faceting bias. The
  // oracle is the implicit Euler recursion of Coulomb sliding, v_{k+1} = max(0, v_k − μ g h),
  // x_{k+1} = x_k + h v_{k+1}: what a converged step gives (the digest's 0.4048 m is 6 damped
  // iterations from a zero start, friction under-converged).
  const Real h = 0.0083;
  Real discrete = 0;
  for (Real v = 2; v > 0;) {
    v = std::max(Real(0), v - Real(0.5) * kG * h);
    discrete += h * v;
  }
  for (sim::NcpFunction ncp : {sim::NcpFunction::FischerBurmeister, sim::NcpFunction::MinMap}) {
    std::vector<Real> distances;
    for (Real deg : {0.0, 15.0, 30.0, 45.0, 77.0}) {
      const Real a = deg * std::numbers::pi / 180;
      sim::SceneSpec spec;
      spec.dt = h;
      spec.solver.ncp = ncp;
      spec.solver.linear_iterations = 40;
      const int mat = test::add_material(spec, "m", 0.5);
      spec.world_shapes.push_back(test::ground_plane(mat));
      test::add_body(spec, "box", Vec3(0, 0, 0.1), 1.0, test::box_shape(Vec3(0.1, 0.1, 0.1), mat));
      spec.bodies[0].linear_velocity = 2 * Vec3(std::cos(a), std::sin(a), 0);
      const sim::Model model = test::compile(spec);
      sim::State state = sim::make_initial_state(model);
      sim::Workspace ws;
      test::run_steps(model, state, sim::make_initial_control(model), ws, 120);
      CHECK(state.body_velocity(0).norm() < 1e-6);
      distances.push_back((state.body_position(0) - Vec3(0, 0, 0.1)).head<2>().norm());
    }
    const auto [lo, hi] = std::minmax_element(distances.begin(), distances.end());
    INFO(sim::to_string(ncp) << ": " << *lo << " .. " << *hi << " m");
    CHECK((*hi - *lo) < 1e-3 * *lo);
    CHECK(*lo == Approx(discrete).epsilon(0.002));
    CHECK(*lo == Approx(4.0 / (2 * 0.5 * kG)).epsilon(0.025));  // Coulomb's v²/2μg, less h v/2
  }
}
