// Inside a step nothing throws: divergence is detected, reported with the offending rows, and
// the state is left at the step's start (finite), so the app can pause or roll back.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"

namespace {

bool all_finite(const sim::State& s) {
  for (sim::Real v : s.q) if (!std::isfinite(v)) return false;
  for (sim::Real v : s.u) if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace

TEST_CASE("a diverging solve is reported with its offending rows, never thrown", "[scene][solver][divergence]") {
  // Undamped Jacobi (ω = 1) on the arch diverges within the first step.
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/arch.xml");
  REQUIRE(spec.ok());
  spec->solver.linear_solver = sim::LinearSolver::Jacobi;
  spec->solver.jacobi_weight = 1.0;
  spec->solver.divergence_limit = 1.0;  // a residual of 1 m is certainly a failure
  const sim::Model model = test::compile(*spec);
  sim::State state = sim::make_initial_state(model);
  const sim::State before = state;
  sim::Workspace ws;
  sim::StepReport report;
  REQUIRE_NOTHROW(report = sim::step(model, state, sim::make_initial_control(model), ws));
  REQUIRE_FALSE(report.ok());
  CHECK((report.flags & (sim::kStepResidualExploded | sim::kStepNonFinite)) != 0);
  CHECK_FALSE(report.offending_rows.empty());
  for (int row : report.offending_rows) CHECK((row >= 0 && row < report.row_count));
  CHECK_FALSE(report.message.empty());
  CHECK(all_finite(state));
  CHECK(state.q == before.q);  // left at the step's start
}

TEST_CASE("non-finite input is reported, not propagated", "[scene][solver][divergence]") {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "box", sim::Vec3(0, 0, 0.1), 1.0, test::box_shape(sim::Vec3(0.1, 0.1, 0.1)));
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Control control = sim::make_initial_control(model);
  control.body_wrench[0][0] = std::numeric_limits<sim::Real>::quiet_NaN();
  sim::Workspace ws;
  sim::StepReport report;
  REQUIRE_NOTHROW(report = sim::step(model, state, control, ws));
  CHECK((report.flags & sim::kStepNonFinite) != 0);
  CHECK(all_finite(state));

  sim::State wrong;  // sized for another model
  REQUIRE_NOTHROW(report = sim::step(model, wrong, sim::make_initial_control(model), ws));
  CHECK((report.flags & sim::kStepInvalidInput) != 0);
  CHECK_FALSE(report.message.empty());
}
