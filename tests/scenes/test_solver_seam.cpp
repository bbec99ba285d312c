// The solver seam (solver/step_solver.hpp): SolverOptions::kind picks the solver step() runs.
// The second kind, projected Gauss–Seidel (solver/pgs_solver.cpp), against the incline's closed
// form (stick for tan θ < μ, slide at g(sin θ − μ cos θ) otherwise) on real tilted planes read
// from scene XML, its trace and its non-convergence report, switching kinds in one Workspace,
// and the refusal of an unknown kind.
#include <catch2/catch.hpp>

#include <malloc.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "sim/recording.hpp"
#include "sim/scene_io.hpp"
#include "support/parse_checks.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_scenes.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kG = 9.81;

// A box of half extents `half` and `mass` resting on a plane through the origin tilted by θ about
// x (the slope rises towards +y), `along` metres up the slope, as scene XML with its own <solver>.
std::string incline_xml(Real theta_deg, Real mu, const Vec3& half, Real mass, Real along, const std::string& solver) {
  const Real th = theta_deg * std::numbers::pi / 180;
  const Vec3 up_slope(0, std::cos(th), std::sin(th)), normal(0, -std::sin(th), std::cos(th));
  const Vec3 centre = along * up_slope + half.z() * normal;
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "<scene name=\"tilted\" dt=\"%.17g\" gravity=\"0 0 -%.17g\">\n"
                "  %s\n"
                "  <material name=\"m\" friction=\"%.17g\"/>\n"
                "  <world material=\"m\"><plane euler=\"%.17g 0 0\"/></world>\n"
                "  <body name=\"box\" pos=\"%.17g %.17g %.17g\" euler=\"%.17g 0 0\" mass=\"%.17g\" material=\"m\">\n"
                "    <box size=\"%.17g %.17g %.17g\"/>\n"
                "  </body>\n"
                "</scene>\n",
                1.0 / 120, kG, solver.c_str(), mu, theta_deg, centre.x(), centre.y(), centre.z(), theta_deg, mass,
                2 * half.x(), 2 * half.y(), 2 * half.z());
  return buf;
}

struct SlopeRun {
  Real displacement = 0;    // along the downhill direction [m]
  Real velocity = 0;        // along the downhill direction [m/s]
  Real max_speed = 0;       // largest speed seen [m/s]
  int failed_steps = 0, unconverged_steps = 0;
  int first_unconverged = -1;  // step index
  int most_sweeps = 0;
  sim::SolverKind traced_kind = sim::SolverKind::NonSmoothNewton;
};

SlopeRun run_slope(const sim::SceneSpec& spec, Real theta_deg, Real duration) {
  const Real th = theta_deg * std::numbers::pi / 180;
  const Vec3 downhill(0, -std::cos(th), -std::sin(th));
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  const Vec3 start = state.body_position(0);
  SlopeRun out;
  const int steps = static_cast<int>(std::lround(duration / model.dt));
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    out.failed_steps += r.ok() ? 0 : 1;
    out.unconverged_steps += (r.warnings & sim::kStepNotConverged) ? 1 : 0;
    if ((r.warnings & sim::kStepNotConverged) && out.first_unconverged < 0) out.first_unconverged = i;
    out.most_sweeps = std::max(out.most_sweeps, r.newton_iterations);
    out.max_speed = std::max(out.max_speed, state.body_velocity(0).norm());
  }
  out.displacement = (state.body_position(0) - start).dot(downhill);
  out.velocity = state.body_velocity(0).dot(downhill);
  out.traced_kind = ws.trace.kind;
  return out;
}

sim::SceneSpec parse(const std::string& xml) { return test::parse_scene_ok(xml, "tilted.xml"); }

// Three boxes stacked on the ground: a pile whose contacts couple (PGS needs many sweeps).
sim::SceneSpec stack(int boxes) {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 60;
  const int mat = test::add_material(spec, "m", 0.6);
  spec.world_shapes.push_back(test::ground_plane(mat));
  for (int i = 0; i < boxes; ++i)
    test::add_body(spec, "box" + std::to_string(i), Vec3(0, 0, 0.1 + 0.2 * i), 1.0 + 4.0 * i,
                   test::box_shape(Vec3(0.1, 0.1, 0.1), mat));
  return spec;
}

}  // namespace

TEST_CASE("solver kinds have names that the options parse and refuse an unknown kind", "[unit][solver]") {
  sim::SolverOptions o;
  CHECK(o.kind == sim::SolverKind::NonSmoothNewton);
  for (sim::SolverKind k : sim::kSolverKinds) {
    sim::SolverOptions p;
    CHECK(sim::set_solver_option(p, "kind", sim::to_string(k)).empty());
    CHECK(p.kind == k);
    CHECK(sim::get_solver_option(p, "kind") == sim::to_string(k));
    CHECK_FALSE(sim::describe(k).empty());
  }
  const std::string error = sim::set_solver_option(o, "kind", "magic");
  CHECK(error == "solver option 'kind': bad value 'magic' (expected nsn, pgs, dual or primal)");
  CHECK(o.kind == sim::SolverKind::NonSmoothNewton);  // unchanged
  CHECK_FALSE(sim::set_solver_option(o, "pgs_relaxation", "2").empty());  // SOR needs ω < 2
  CHECK_FALSE(sim::set_solver_option(o, "pgs_iterations", "0").empty());
  CHECK(sim::set_solver_option(o, "pgs_iterations", "7").empty());
  CHECK(sim::iteration_cap(o) == o.newton_iterations);
  o.kind = sim::SolverKind::ProjectedGaussSeidel;
  CHECK(sim::iteration_cap(o) == 7);
}

TEST_CASE("scene xml refuses an unknown solver kind at its line", "[unit][io][solver]") {
  test::check_error(sim::parse_scene_xml(test::xml_lines({"<scene>", "  <solver substeps=\"2\"",
                                                           "          kind=\"newton_raphson\"/>", "</scene>"}),
                                         "bad_kind.xml"),
                    "bad_kind.xml", 3, "solver", {"solver option 'kind'", "bad value 'newton_raphson'", "nsn, pgs, dual or primal"});
}

TEST_CASE("scene xml reads and writes the solver kind and the PGS options", "[unit][io][solver]") {
  const sim::SceneSpec spec =
      parse(incline_xml(20, 0.5, Vec3(0.1, 0.1, 0.1), 8, 1, "<solver kind=\"pgs\" pgs_iterations=\"40\" pgs_relaxation=\"1.25\"/>"));
  CHECK(spec.solver.kind == sim::SolverKind::ProjectedGaussSeidel);
  CHECK(spec.solver.pgs_iterations == 40);
  CHECK(spec.solver.pgs_relaxation == Real(1.25));
  const std::string written = sim::write_scene_xml(spec);
  CHECK(written.find("kind=\"pgs\"") != std::string::npos);
  const sim::SceneSpec again = parse(written);
  CHECK(again.solver.kind == sim::SolverKind::ProjectedGaussSeidel);
  CHECK(again.solver.pgs_iterations == 40);
  CHECK(again.solver.pgs_relaxation == Real(1.25));
  // The default kind is not written (the writer leaves defaults out).
  CHECK(sim::write_scene_xml(parse(incline_xml(20, 0.5, Vec3(0.1, 0.1, 0.1), 8, 1, ""))).find("kind=") ==
        std::string::npos);
}

TEST_CASE("projected Gauss-Seidel holds the shipped incline box still (tan 20 deg < 0.5)", "[scene][solver][friction]") {
  auto spec = sim::load_scene_file(test::scene_path("incline"));
  REQUIRE(spec.ok());
  REQUIRE(sim::set_solver_option(spec->solver, "kind", "pgs").empty());
  const SlopeRun r = run_slope(*spec, 20, 2.0);
  INFO("displacement " << r.displacement << " m, velocity " << r.velocity << " m/s, max speed " << r.max_speed);
  CHECK(r.traced_kind == sim::SolverKind::ProjectedGaussSeidel);
  CHECK(r.failed_steps == 0);
  CHECK(r.unconverged_steps == 0);
  CHECK(std::abs(r.displacement) < 1e-4);
  CHECK(r.max_speed < 1e-3);
}

TEST_CASE("projected Gauss-Seidel: boxes of our own stick below the friction angle", "[scene][solver][friction]") {
  struct Case {
    Real theta, mu;
    Vec3 half;
    Real mass;
  };
  for (const Case& c : {Case{25, 0.6, Vec3(0.15, 0.05, 0.1), 3}, Case{10, 0.2, Vec3(0.05, 0.2, 0.05), 0.4},
                        Case{30, 0.7, Vec3(0.25, 0.25, 0.02), 20}}) {
    INFO("theta " << c.theta << " mu " << c.mu << " (tan " << std::tan(c.theta * std::numbers::pi / 180) << ")");
    const SlopeRun r = run_slope(parse(incline_xml(c.theta, c.mu, c.half, c.mass, 0.5, "<solver kind=\"pgs\"/>")),
                                 c.theta, 1.5);
    INFO("displacement " << r.displacement << " m, max speed " << r.max_speed << ", first unconverged step "
                         << r.first_unconverged << ", most sweeps " << r.most_sweeps);
    CHECK(r.failed_steps == 0);
    CHECK(r.unconverged_steps == 0);
    CHECK(std::abs(r.displacement) < 1e-4);
    CHECK(r.max_speed < 1e-3);
  }
}

TEST_CASE("projected Gauss-Seidel: a box slides with a = g(sin - mu cos) above the friction angle",
          "[scene][solver][friction]") {
  struct Case {
    Real theta, mu;
    Vec3 half;
    Real mass;
  };
  const Real T = 0.5;
  for (const Case& c : {Case{35, 0.4, Vec3(0.1, 0.1, 0.1), 2}, Case{30, 0.3, Vec3(0.2, 0.1, 0.05), 5},
                        Case{40, 0.15, Vec3(0.05, 0.05, 0.05), 0.2}}) {
    const Real th = c.theta * std::numbers::pi / 180;
    const Real a = kG * (std::sin(th) - c.mu * std::cos(th));
    const SlopeRun r = run_slope(parse(incline_xml(c.theta, c.mu, c.half, c.mass, 1.0, "<solver kind=\"pgs\"/>")),
                                 c.theta, T);
    INFO("theta " << c.theta << " mu " << c.mu << ": v/T = " << r.velocity / T << " expected a = " << a
                  << ", displacement " << r.displacement << " expected " << a * T * T / 2);
    CHECK(r.failed_steps == 0);
    CHECK(r.unconverged_steps == 0);
    CHECK(r.velocity / T == Approx(a).epsilon(0.02));
    CHECK(r.displacement == Approx(a * T * T / 2).epsilon(0.03));
  }
}

TEST_CASE("projected Gauss-Seidel fills the common trace and reports its iterations", "[scene][solver]") {
  sim::SceneSpec spec = stack(3);
  spec.solver.kind = sim::SolverKind::ProjectedGaussSeidel;
  spec.solver.pgs_iterations = 500;
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  for (int i = 0; i < 30; ++i) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    REQUIRE(r.ok());
    INFO("step " << i << ": " << r.newton_iterations << " sweeps");
    const sim::SolverTrace& t = ws.trace;
    CHECK(t.kind == sim::SolverKind::ProjectedGaussSeidel);
    REQUIRE(t.iterations.size() == static_cast<std::size_t>(r.newton_iterations) + 1);  // sweeps + the result
    CHECK(t.newton_iterations == r.newton_iterations);
    CHECK(r.linear_iterations == 0);
    CHECK(t.linear_residuals.empty());
    const sim::IterationTrace& result = t.iterations.back();
    // The warning says exactly whether the measured result is within the tolerances; once the
    // warm start has caught up (the cold first steps of a 1:5:9 pile take PGS over 500 sweeps)
    // every step converges well below the cap.
    const bool within = result.position_error_max <= model.solver.newton_tolerance &&
                        result.velocity_error_max <= model.solver.newton_velocity_tolerance &&
                        result.momentum_max <= model.solver.newton_velocity_tolerance;
    CHECK(((r.warnings & sim::kStepNotConverged) != 0) == !within);
    if (i >= 10) {
      CHECK(within);
      CHECK(r.newton_iterations < 500);
    }
    CHECK(t.final_normal_max == result.normal_max);
    CHECK(t.final_friction_max == result.friction_max);
    for (std::size_t k = 0; k + 1 < t.iterations.size(); ++k) CHECK(t.iterations[k].step_size == 1);
    if (i >= 5 && r.newton_iterations > 1)  // resting: the sweeps reduce the error they started with
      CHECK(result.merit < t.iterations.front().merit);
  }
  // Resting boxes: contact forces carry the weights (the stack's total weight on the ground).
  Real ground = 0;
  for (int c = 0; c < ws.contacts.size(); ++c)
    if (ws.contacts.contacts[c].b.kind == sim::ContactSide::World || ws.contacts.contacts[c].a.kind == sim::ContactSide::World)
      ground += ws.contact_normal_force[c];
  CHECK(ground == Approx((1 + 5 + 9) * kG).epsilon(1e-3));
}

TEST_CASE("projected Gauss-Seidel reports a solve stopped at its sweep cap as not converged", "[scene][solver]") {
  sim::SceneSpec spec = stack(3);
  spec.solver.kind = sim::SolverKind::ProjectedGaussSeidel;
  spec.solver.pgs_iterations = 2;  // far too few for a falling pile
  spec.solver.warm_start = false;
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  int flagged = 0;
  for (int i = 0; i < 10; ++i) {
    const sim::StepReport r = sim::step(model, state, sim::make_initial_control(model), ws);
    REQUIRE(r.ok());
    const sim::IterationTrace& result = ws.trace.iterations.back();
    const bool within = result.position_error_max <= model.solver.newton_tolerance &&
                        result.velocity_error_max <= model.solver.newton_velocity_tolerance &&
                        result.momentum_max <= model.solver.newton_velocity_tolerance;
    INFO("step " << i << ": position error " << result.position_error_max << ", velocity error "
                 << result.velocity_error_max);
    // Flagged exactly when the measured result is out of tolerance, never silently.
    CHECK(((r.warnings & sim::kStepNotConverged) != 0) == !within);
    CHECK(r.unconverged_solves == (within ? 0 : 1));
    CHECK(r.newton_iterations <= 2);
    flagged += within ? 0 : 1;
  }
  CHECK(flagged > 0);
}

TEST_CASE("one Workspace switches solver kinds between steps", "[scene][solver]") {
  auto spec = sim::load_scene_file(test::scene_path("incline"));
  REQUIRE(spec.ok());
  const sim::Model model = test::compile(*spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  const Vec3 start = state.body_position(0);
  sim::SolverOptions pgs = model.solver;
  pgs.kind = sim::SolverKind::ProjectedGaussSeidel;
  for (int round = 0; round < 3; ++round) {
    for (const sim::SolverOptions& o : {model.solver, pgs}) {
      for (int i = 0; i < 20; ++i) {
        const sim::StepReport r = sim::step(model, o, state, control, ws);
        REQUIRE(r.ok());
        CHECK_FALSE(r.warnings & sim::kStepNotConverged);
      }
      CHECK(ws.trace.kind == o.kind);
      // The contact force under either solver carries the box's weight component normal to the slope.
      Real normal = 0;
      for (Real f : ws.contact_normal_force) normal += f;
      CHECK(normal == Approx(8 * kG * std::cos(20 * std::numbers::pi / 180)).epsilon(1e-3));
    }
  }
  CHECK((state.body_position(0) - start).norm() < 1e-4);  // it stayed put throughout
}

TEST_CASE("projected Gauss-Seidel: a pendulum's hinge holds and its period matches theory", "[scene][solver][joint]") {
  // A box bob of our own (0.1 x 0.06 x 0.04 m, 2 kg) on a 0.7 m hinge, released at 0.2 rad. The
  // joint rows are linearised at each step's start and their error c⁻/h corrected in the next.
  const Real L = 0.7, theta0 = 0.2, m = 2.0;
  const Vec3 half(0.05, 0.03, 0.02);
  sim::SceneSpec spec;
  spec.dt = Real(1) / 240;
  spec.solver.kind = sim::SolverKind::ProjectedGaussSeidel;
  spec.solver.pgs_iterations = 200;
  const Vec3 pivot(0, 0, 1.5);
  test::add_hinged_pendulum(spec, pivot, L, theta0, m, test::box_shape(half));
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  auto swing_angle = [&](const Vec3& x) { return std::atan2(-(x.x() - pivot.x()), pivot.z() - x.z()); };
  std::vector<Real> crossings;  // upward zero crossings of the swing angle
  Real prev = swing_angle(state.body_position(0));
  for (int i = 0; i < 2400 && crossings.size() < 4; ++i) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    REQUIRE(r.ok());
    CHECK_FALSE(r.warnings & sim::kStepNotConverged);
    const Vec3 x = state.body_position(0);
    const Real angle = swing_angle(x);
    if (prev < 0 && angle >= 0) crossings.push_back(state.time - spec.dt * angle / (angle - prev));
    prev = angle;
    CHECK(std::abs((x - pivot).norm() - L) < 1e-3);  // the hinge holds the bob at L
  }
  REQUIRE(crossings.size() >= 3);
  const Real period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const Real Ip = m * (half.x() * half.x() + half.z() * half.z()) / 3 + m * L * L;
  const Real expected = 2 * std::numbers::pi * std::sqrt(Ip / (m * kG * L)) * (1 + theta0 * theta0 / 16);
  INFO("period " << period << " expected " << expected);
  CHECK(period == Approx(expected).epsilon(0.01));
}

TEST_CASE("projected Gauss-Seidel does not allocate after warm-up", "[scene][solver][allocation]") {
#ifndef __GLIBC__
  WARN("skipped: mallinfo2 needs glibc");
#else
  // Scenes whose contact count is steady under PGS (a changing row count resizes vectors, for any
  // kind): the heavy stack is not one (PGS lets it sink and settle, contacts come and go).
  for (const char* name : {"pile", "pendulum", "incline"}) {
    sim::SceneSpec spec = stack(3);
    if (std::string(name) != "pile") {
      auto loaded = sim::load_scene_file(test::scene_path(name));
      REQUIRE(loaded.ok());
      spec = *loaded;
    }
    spec.solver.kind = sim::SolverKind::ProjectedGaussSeidel;
    const sim::Model model = test::compile(spec);
    sim::State state = sim::make_initial_state(model);
    const sim::Control control = sim::make_initial_control(model);
    sim::Workspace ws;
    test::run_steps(model, state, control, ws, 60);
    const auto before = mallinfo2();
    for (int i = 0; i < 30; ++i) sim::step(model, state, control, ws);
    const auto after = mallinfo2();
    INFO(name);
    CHECK(after.uordblks == before.uordblks);
    CHECK(after.hblkhd == before.hblkhd);
  }
#endif
}
