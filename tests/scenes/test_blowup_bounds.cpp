// Blow-ups beyond joints (issue 19 item 3): a body or particle leaving the world bound or moving
// faster than the speed limits is flagged within one step, named, and the step undone; scene
// parameters out of range are refused at load with file and line; a step can be cancelled
// between iterations (item 5). pipeline/state_bounds_check.hpp, compile/scene_ranges.hpp.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_run.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// A 1 kg box resting 0.1 m above the ground plane.
sim::SceneSpec box_on_ground() {
  sim::SceneSpec spec;
  spec.dt = 0.0083;
  const int mat = test::add_material(spec, "m", 0.5);
  spec.world_shapes.push_back(test::ground_plane(mat));
  test::add_body(spec, "box", Vec3(0, 0, 0.1), 1.0, test::box_shape(Vec3(0.1, 0.1, 0.1), mat));
  return spec;
}

bool flagged(const sim::StepReport& r, std::uint32_t flag) { return (r.flags & flag) != 0; }

bool same_state(const sim::State& a, const sim::State& b) {
  return a.q == b.q && a.u == b.u && a.time == b.time && a.step_index == b.step_index;
}

}  // namespace

TEST_CASE("gravity 1e9 is flagged in the first step, names the body and is undone", "[scene][blowup]") {
  sim::SceneSpec spec = box_on_ground();
  spec.bodies[0].pose.pos.z() = 1;  // 0.9 m above the ground: no contact at the step's start
  sim::Model m = test::compile(spec);
  m.gravity = Vec3(0, 0, -1e9);  // past the load check (a model edited in code)
  sim::State s = sim::make_initial_state(m);
  const sim::State start = s;
  sim::Workspace ws;
  const sim::StepReport r = sim::step(m, s, sim::make_initial_control(m), ws);
  INFO(r.message);
  CHECK(flagged(r, sim::kStepOutOfBounds));
  CHECK_FALSE(r.ok());
  // One step falls g h^2 = 1e9 * 0.0083^2 = 68,890 m: beyond the 10 km bound, or first faster
  // than 1 km/s (g h = 8.3e6 m/s). Either names the body.
  CHECK(r.message.find("body 'box'") != std::string::npos);
  CHECK(r.message.find("the step was undone") != std::string::npos);
  CHECK(same_state(s, start));
}

TEST_CASE("a body entering the step at 1e6 m/s is refused before it tunnels", "[scene][blowup]") {
  const sim::Model m = test::compile(box_on_ground());
  sim::State s = sim::make_initial_state(m);
  s.u[2] = -1e6;  // straight down through the ground
  const sim::State start = s;
  sim::Workspace ws;
  const sim::StepReport r = sim::step(m, s, sim::make_initial_control(m), ws);
  INFO(r.message);
  CHECK(flagged(r, sim::kStepOutOfBounds));
  CHECK(flagged(r, sim::kStepInvalidInput));
  CHECK(r.message.find("body 'box': speed 1e+06 m/s above speed_limit 1000 m/s") != std::string::npos);
  CHECK(same_state(s, start));
}

TEST_CASE("a force that throws a body past the speed limit in one step is undone", "[scene][blowup]") {
  const sim::Model m = test::compile(box_on_ground());
  sim::State s = sim::make_initial_state(m);
  sim::Control c = sim::make_initial_control(m);
  sim::Workspace ws;
  REQUIRE(sim::step(m, s, c, ws).ok());
  const sim::State start = s;
  // F h / m = 2e5 N * 0.0083 s / 1 kg = 1,660 m/s > 1,000 m/s; 1e5 N gives 830 m/s: taken.
  c.body_wrench[0] = sim::Vec6(1e5, 0, 0, 0, 0, 0);
  {
    sim::State t = s;
    const sim::StepReport r = sim::step(m, t, c, ws);
    INFO(r.message);
    CHECK(r.ok());
    CHECK(t.body_velocity(0).x() == Approx(830).epsilon(0.01));
  }
  c.body_wrench[0] = sim::Vec6(2e5, 0, 0, 0, 0, 0);
  const sim::StepReport r = sim::step(m, s, c, ws);
  INFO(r.message);
  CHECK(flagged(r, sim::kStepOutOfBounds));
  CHECK_FALSE(flagged(r, sim::kStepInvalidInput));
  CHECK(r.message.find("body 'box': speed 1659.") != std::string::npos);  // less the friction's 0.3 m/s
  CHECK(same_state(s, start));
  // Raised bounds (a ballistics scene) take it.
  sim::SolverOptions wide = m.solver;
  wide.speed_limit = 1e4;
  CHECK(sim::step(m, wide, s, c, ws).ok());
}

TEST_CASE("a particle far outside the world bound is named", "[scene][blowup]") {
  sim::SceneSpec spec = box_on_ground();
  sim::ParticleSpec p;
  p.position = Vec3(0, 0, 1);
  p.mass = 0.1;
  p.radius = 0.01;
  spec.particles.push_back(p);
  const sim::Model m = test::compile(spec);
  sim::State s = sim::make_initial_state(m);
  s.q[7 * m.body_count + 1] = 2e4;  // y = 20 km
  sim::Workspace ws;
  const sim::StepReport r = sim::step(m, s, sim::make_initial_control(m), ws);
  INFO(r.message);
  CHECK(flagged(r, sim::kStepOutOfBounds));
  CHECK(r.message.find("particle 0: position (0, 20000, 1) m beyond world_bound 10000 m") != std::string::npos);
}

TEST_CASE("scene parameters out of range are refused at load with file and line", "[scene][blowup][io]") {
  const auto error_of = [](const std::string& xml) {
    const auto spec = sim::parse_scene_xml(xml, "odd.xml");
    if (!spec.ok()) return spec.error();
    const auto model = sim::compile_model(spec.value());
    return model.ok() ? std::string() : model.error();
  };
  const std::string ground = R"(<world><plane/></world>)";
  // dt = 1e300 ran to positions of -inf; 0.5 s let a cloth under a 1e5 kg ball reach 41 m/s.
  CHECK(error_of(R"(<scene dt="1e300">)" + ground + "</scene>").find("odd.xml:1") != std::string::npos);
  CHECK(error_of(R"(<scene dt="1e300">)" + ground + "</scene>").find("'dt'") != std::string::npos);
  CHECK(error_of("<scene\n dt=\"0.5\">" + ground + "</scene>").find("odd.xml:2") != std::string::npos);
  CHECK(error_of(R"(<scene gravity="0 0 -1e9">)" + ground + "</scene>").find("'gravity'") != std::string::npos);
  CHECK(error_of(R"(<scene dt="0.01" gravity="0 0 -9.81">)" + ground + "</scene>").empty());
  // A body authored at 1e6 m/s: the line of its element.
  const std::string fast = "<scene>\n" + ground + "\n<body name=\"bullet\" pos=\"0 0 1\" velocity=\"0 0 -1e6\">\n"
                           "<sphere radius=\"0.01\"/></body></scene>";
  const std::string e = error_of(fast);
  INFO(e);
  CHECK(e.find("odd.xml:3") != std::string::npos);
  CHECK(e.find("'bullet': initial speed 1e+06 m/s is above solver speed_limit 1000 m/s") != std::string::npos);
  // A shape larger than the world bound (a box 1e5 m long: 5e4 m from its centre), with its line.
  const std::string huge = error_of("<scene>\n" + ground + "\n<body name=\"b\" pos=\"0 0 1\">\n<box size=\"1e5 1 1\"/></body></scene>");
  INFO(huge);
  CHECK(huge.find("odd.xml:4") != std::string::npos);
  CHECK(huge.find("its size (50000 m from its origin) is beyond solver world_bound 10000 m") != std::string::npos);
  // ... unless the scene raises its own limit.
  CHECK(error_of("<scene>\n<solver speed_limit=\"1e7\"/>" + ground +
                 "\n<body name=\"bullet\" pos=\"0 0 1\" velocity=\"0 0 -1e6\"><sphere radius=\"0.01\"/></body></scene>")
            .empty());
}

TEST_CASE("a raised cancel flag stops a step between iterations and undoes it", "[scene][blowup][cancel]") {
  sim::Model m = test::load_shipped_model("table_pile");
  sim::State s = sim::make_initial_state(m);
  const sim::Control c = sim::make_initial_control(m);
  sim::Workspace ws;
  for (int i = 0; i < 20; ++i) REQUIRE(sim::step(m, s, c, ws).ok());  // in contact
  const sim::State start = s;
  std::atomic<bool> cancel{true};
  ws.cancel = &cancel;
  for (sim::LinearSolver solver : {sim::LinearSolver::PCR, sim::LinearSolver::PCG, sim::LinearSolver::Jacobi,
                                   sim::LinearSolver::GaussSeidel}) {
    sim::SolverOptions o = m.solver;
    o.linear_solver = solver;
    const sim::StepReport r = sim::step(m, o, s, c, ws);
    INFO(sim::to_string(solver) << ": " << r.message);
    CHECK(flagged(r, sim::kStepCancelled));
    CHECK(r.newton_iterations == 0);
    CHECK(same_state(s, start));
  }
  sim::SolverOptions pgs = m.solver;
  pgs.kind = sim::SolverKind::ProjectedGaussSeidel;
  const sim::StepReport r = sim::step(m, pgs, s, c, ws);
  CHECK(flagged(r, sim::kStepCancelled));
  CHECK(r.newton_iterations == 0);
  CHECK(same_state(s, start));
  cancel = false;
  CHECK(sim::step(m, s, c, ws).ok());
}

TEST_CASE("a step of 1,000 x 4,000 iterations stops at the cancel", "[scene][blowup][cancel]") {
  // Uncancelled the pyramid's first step at this budget runs for minutes. Another thread raises
  // the flag 0.3 s into it; the step must return cancelled, undone, before its iteration cap.
  sim::Model m = test::load_shipped_model("pyramid");
  sim::State s = sim::make_initial_state(m);
  const sim::Control c = sim::make_initial_control(m);
  sim::Workspace ws;
  const sim::State start = s;
  sim::SolverOptions o = m.solver;
  o.newton_iterations = 1000;  // 1,000 x 4,000: within the trace's bound of 2^24 records a step
  o.linear_iterations = o.linear_iterations_max = 4000;
  o.newton_tolerance = 0;
  o.linear_tolerance = 0;
  std::atomic<bool> cancel{false};
  ws.cancel = &cancel;
  std::thread raiser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  const sim::StepReport r = sim::step(m, o, s, c, ws);
  raiser.join();
  INFO(r.message << "; Newton iterations " << r.newton_iterations << ", linear " << r.linear_iterations);
  CHECK(flagged(r, sim::kStepCancelled));
  CHECK(r.newton_iterations < o.newton_iterations);
  CHECK(same_state(s, start));
}
