// A failed step taken again with more substeps (SolverOptions::step_retries, pipeline/step.cpp):
// a whirling pendulum solved with one Newton iteration leaves its joint open by O((hω)² L), so a
// joint error limit between the errors at h and at h/2 fails the step at h and passes it at h/2.
// Oracles: the retried step is a plain step of twice the substeps, bit for bit; a step that fails
// on every retry, or with retries off, leaves the state exactly as it was and says so.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core/trace_bound.hpp"
#include "sim/load_limits.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// A 1 m pendulum whirling at `omega` about its hinge, one Newton iteration a step.
sim::SceneSpec whirling_pendulum(Real omega) {
  sim::SceneSpec spec;
  spec.name = "whirling_pendulum";
  spec.dt = 0.01;
  spec.solver.newton_iterations = 1;
  spec.solver.newton_tolerance = 0;
  const int bob = test::add_hinged_pendulum(spec, Vec3(0, 0, 2), 1.0, 0.3, 1.0, test::sphere_shape(0.05));
  spec.bodies[bob].angular_velocity = Vec3(0, omega, 0);
  spec.bodies[bob].linear_velocity = Vec3(0, omega, 0).cross(spec.bodies[bob].pose.pos - Vec3(0, 0, 2));
  return spec;
}

struct Attempt {
  sim::StepReport report;
  sim::State state;
  Real position_error = 0;  // the joint's positional error over the bob's bounding radius, after the step
};

Attempt step_once(const sim::Model& m, const sim::SolverOptions& o) {
  Attempt a{{}, sim::make_initial_state(m), 0};
  sim::Workspace ws;
  a.report = sim::step(m, o, a.state, sim::make_initial_control(m), ws);
  a.position_error = ws.trace.final_joint_position_error_max;
  return a;
}

}  // namespace

TEST_CASE("a step that blows up is taken again with twice the substeps, and is then a plain step of those",
          "[scene][solver][robustness]") {
  for (const Real omega : {20.0, 40.0}) {
    INFO("whirling at " << omega << " rad/s");
    const sim::Model m = test::compile(whirling_pendulum(omega));
    const std::uint64_t start_hash = sim::state_hash(sim::make_initial_state(m));
    sim::SolverOptions plain = m.solver;
    plain.step_retries = 0;
    plain.joint_position_error_limit = 1e9;  // measure the errors: nothing fails
    const Attempt at_h = step_once(m, plain);
    plain.substeps = 2;
    const Attempt at_half = step_once(m, plain);
    REQUIRE(at_h.report.ok());
    REQUIRE(at_half.report.ok());
    INFO("joint error over the bound radius: " << at_h.position_error << " at h, " << at_half.position_error << " at h/2");
    REQUIRE(at_half.position_error < 0.5 * at_h.position_error);  // O(h²): about a quarter per halving
    REQUIRE(at_half.position_error > 0);
    const Real limit = std::sqrt(at_h.position_error * at_half.position_error);

    sim::SolverOptions o = m.solver;
    o.joint_position_error_limit = limit;
    SECTION("off: the failure stands and the state is the step's start") {
      o.step_retries = 0;
      const Attempt a = step_once(m, o);
      CHECK((a.report.flags & sim::kStepJointViolated) != 0);
      CHECK((a.report.warnings & sim::kStepRetried) == 0);
      CHECK(a.report.retries == 0);
      CHECK(sim::state_hash(a.state) == start_hash);
      CHECK(a.report.message.find("came apart") != std::string::npos);
    }
    SECTION("on: passed on the first retry, as a plain step of two substeps, and reported") {
      o.step_retries = 2;
      const Attempt a = step_once(m, o);
      CHECK(a.report.ok());
      CHECK((a.report.warnings & sim::kStepRetried) != 0);
      CHECK(a.report.retries == 1);
      CHECK(a.report.substeps == 2);
      CHECK(sim::state_hash(a.state) == sim::state_hash(at_half.state));
      CHECK(a.state.step_index == 1);
      // The message names the retry and the failure it recovered from.
      CHECK(a.report.message.find("retried with 2 substeps") != std::string::npos);
      CHECK(a.report.message.find("came apart") != std::string::npos);
      // The counts are the passing attempt's (its two substeps), not the failed one's added in.
      CHECK(a.report.newton_iterations == at_half.report.newton_iterations);
    }
    SECTION("a failure on every retry stands, says how far it went, and leaves the start") {
      o.joint_position_error_limit = at_half.position_error * 1e-6;  // far below what 4 substeps reach
      o.step_retries = 2;
      const Attempt a = step_once(m, o);
      CHECK((a.report.flags & sim::kStepJointViolated) != 0);
      CHECK((a.report.warnings & sim::kStepRetried) == 0);
      CHECK(a.report.retries == 2);
      CHECK(a.report.substeps == 1);  // the report of the step as asked
      CHECK(sim::state_hash(a.state) == start_hash);
      CHECK(a.state.step_index == 0);
      CHECK(a.report.message.find("came apart") != std::string::npos);
      CHECK(a.report.message.find("also with 4 substeps, after 2 retries") != std::string::npos);
      CHECK(a.report.message.find("substep") == a.report.message.find("substeps, after"));  // not the retry's "substep 1 of 4"
    }
  }
}

TEST_CASE("bad input is not retried", "[scene][solver][robustness]") {
  const sim::Model m = test::compile(whirling_pendulum(20));
  sim::State s = sim::make_initial_state(m);
  s.u[0] = std::nan("");
  sim::Workspace ws;
  sim::SolverOptions o = m.solver;
  o.step_retries = 4;
  const sim::StepReport r = sim::step(m, o, s, sim::make_initial_control(m), ws);
  CHECK((r.flags & sim::kStepInvalidInput) != 0);
  CHECK(r.retries == 0);
}

TEST_CASE("retries stay within the trace's bound: a scene near it gets fewer", "[solver][robustness]") {
  sim::SolverOptions o;
  o.step_retries = 2;
  REQUIRE(sim::trace_records_per_step(o) * 4 <= sim::limits::kMaxTraceRecordsPerStep);
  CHECK(sim::step_retries_within_trace_bound(o) == 2);  // the defaults: every retry fits
  // 1,000 Newton iterations of 4,000 linear ones: 8.0M records a substep, half the bound.
  o.newton_iterations = 1000;
  o.linear_iterations = o.linear_iterations_max = 4000;
  REQUIRE(sim::trace_records_per_step(o) * 2 <= sim::limits::kMaxTraceRecordsPerStep);
  REQUIRE(sim::trace_records_per_step(o) * 4 > sim::limits::kMaxTraceRecordsPerStep);
  CHECK(sim::step_retries_within_trace_bound(o) == 1);
  o.substeps = 2;  // at the bound: none
  CHECK(sim::step_retries_within_trace_bound(o) == 0);
  o.step_retries = 0;
  o.substeps = 1;
  CHECK(sim::step_retries_within_trace_bound(o) == 0);
}
