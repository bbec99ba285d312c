// The ImGui panels, run headless: an ImGui context with a built font atlas and no backend.
// The panels must draw without errors for real solver traces, and the combo setters (the code
// path a click takes) must change the solver that the next step runs.
#include <catch2/catch.hpp>

#include <imgui.h>

#include <iterator>
#include <string>

#include "headless_imgui.hpp"
#include "support/scene_builders.hpp"
#include "ui/contact_force_panel.hpp"
#include "ui/convergence_panel.hpp"
#include "ui/joint_panel.hpp"
#include "ui/solver_panel.hpp"
#include "ui/stats_panel.hpp"

namespace {

sim::SceneSpec stack_scene() {
  sim::SceneSpec spec;
  spec.dt = 0.0083;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "a", sim::Vec3(0, 0, 0.1), 1.0, test::box_shape(sim::Vec3(0.1, 0.1, 0.1)));
  test::add_body(spec, "b", sim::Vec3(0, 0, 0.3), 5.0, test::box_shape(sim::Vec3(0.1, 0.1, 0.1)));
  return spec;
}

}  // namespace

TEST_CASE("the panels draw real traces headless", "[ui]") {
  test::HeadlessImGui imgui;
  const sim::Model model = test::compile(stack_scene());
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  ui::ConvergenceHistory history(16);
  sim::StepReport report;
  for (int i = 0; i < 20; ++i) {
    report = sim::step(model, state, sim::make_initial_control(model), ws);
    history.push(report, ws.trace, static_cast<double>(state.time));
  }
  CHECK(history.size() == 16);  // the ring keeps the last 16
  ui::SolverPanelView solver{model.solver, static_cast<float>(model.dt)};
  ui::ConvergenceView conv;
  conv.trace = &ws.trace;
  conv.history = &history;
  ui::StatsView stats{model.body_count, model.particle_count, model.joint_count, model.dof_count(), report, 0.166, 1.0};
  for (int frame = 0; frame < 3; ++frame) {
    ImGui::NewFrame();
    CHECK_FALSE(ui::solver_panel(solver));  // no input: nothing changes
    ui::convergence_panel(conv);
    ui::stats_panel(stats);
    ImGui::Render();
  }
  const ImDrawData* draw = ImGui::GetDrawData();
  REQUIRE(draw != nullptr);
  CHECK(draw->TotalVtxCount > 100);  // three windows with text and plots were drawn
}

TEST_CASE("log residuals clamp zeros and keep decades", "[ui]") {
  CHECK(ui::log_residual(1e-3) == Approx(-3));
  CHECK(ui::log_residual(0) == Approx(-16));
  CHECK(ui::log_residual(1e-30) == Approx(-16));
}

TEST_CASE("the solver panel's choices change the solver seen in the trace", "[ui]") {
  const sim::Model model = test::compile(stack_scene());
  int count = 0;
  const char* const* names = ui::linear_solver_choices(count);
  REQUIRE(count == 6);
  auto linear_iterations_of_first_newton = [&](int choice) {
    sim::SolverOptions o = model.solver;
    o.newton_tolerance = 0;  // every step solves newton_iterations systems
    o.linear_iterations = o.linear_iterations_max = 8;  // fewer than the stack's rows: PCR runs them all
    ui::choose_linear_solver(o, choice);
    CHECK(sim::to_string(o.linear_solver) == names[choice]);
    sim::State state = sim::make_initial_state(model);
    sim::Workspace ws;
    for (int i = 0; i < 5; ++i) sim::step(model, o, state, sim::make_initial_control(model), ws);
    return ws.trace.iterations.front().linear_iterations;
  };
  CHECK(linear_iterations_of_first_newton(0) == 8);  // PCR: the full budget
  CHECK(linear_iterations_of_first_newton(4) == 1);                               // direct: one solve
  CHECK(linear_iterations_of_first_newton(5) == 8);  // auto: a contact stack without joints runs PCR

  // The NCP choice: min-map and Fischer-Burmeister converge differently on the same step.
  auto final_residual = [&](int choice) {
    sim::SolverOptions o = model.solver;
    o.warm_start = false;
    o.newton_iterations = 2;
    ui::choose_ncp(o, choice);
    sim::State state = sim::make_initial_state(model);
    sim::Workspace ws;
    for (int i = 0; i < 3; ++i) sim::step(model, o, state, sim::make_initial_control(model), ws);
    return ws.trace.iterations.back().normal_max;
  };
  CHECK(final_residual(0) != final_residual(1));
}

TEST_CASE("the solver panel's kind combo switches the solver that the next step runs", "[ui]") {
  const sim::Model model = test::compile(stack_scene());
  int count = 0;
  const char* const* names = ui::solver_kind_choices(count);
  REQUIRE(count == static_cast<int>(std::size(sim::kSolverKinds)));
  sim::SolverOptions o = model.solver;
  o.newton_tolerance = 0;  // every step runs its solver's cap: NSN makes linear solves each step
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  for (int choice = 0; choice < count; ++choice) {
    ui::choose_solver_kind(o, choice);
    CHECK(sim::to_string(o.kind) == names[choice]);
    CHECK(o.kind == sim::kSolverKinds[choice]);
    for (int i = 0; i < 5; ++i) REQUIRE(sim::step(model, o, state, sim::make_initial_control(model), ws).ok());
    CHECK(ws.trace.kind == o.kind);  // the same Workspace, its solver re-created for the new kind
    const bool newton = o.kind == sim::SolverKind::NonSmoothNewton;
    CHECK(ws.trace.linear_residuals.empty() == !newton);
  }
  // The panel draws each kind's own options.
  test::HeadlessImGui imgui;
  for (int choice = 0; choice < count; ++choice) {
    ui::SolverPanelView view{model.solver, static_cast<float>(model.dt)};
    ui::choose_solver_kind(view.options, choice);
    for (int frame = 0; frame < 2; ++frame) {  // a new window is laid out on its first frame
      ImGui::NewFrame();
      CHECK_FALSE(ui::solver_panel(view));
      ImGui::Render();
    }
    CHECK(ImGui::GetDrawData()->TotalVtxCount > 100);
  }
}

TEST_CASE("the joint panel lists driven joints with their limits, force history keeps the latest", "[ui]") {
  sim::SceneSpec spec;
  test::add_body(spec, "link", sim::Vec3(0, 0, 1), 1.0, test::box_shape(sim::Vec3(0.1, 0.1, 0.1)));
  sim::JointSpec j;
  j.name = "hinge";
  j.type = sim::JointType::Revolute;
  j.body_b = 0;
  j.limited = true;
  j.lower = -0.5;
  j.upper = 1.0;
  j.drive = sim::DriveMode::Position;
  j.stiffness = 10;
  j.target = 0.25;
  spec.joints.push_back(j);
  const sim::Model model = test::compile(spec);
  ui::JointPanelView view = ui::make_joint_panel_view(model);
  REQUIRE(view.joints.size() == 1);
  CHECK(view.names[0] == "hinge");
  CHECK(view.lower[0] == Approx(-0.5));
  CHECK(view.upper[0] == Approx(1.0));
  CHECK(view.target[0] == Approx(0.25));
  // A control range narrower than the limits (MJCF ctrlrange) narrows the slider to what the
  // step will use.
  spec.joints[0].target_limited = true;
  spec.joints[0].target_lower = -0.2;
  spec.joints[0].target_upper = 2.0;
  const ui::JointPanelView ranged = ui::make_joint_panel_view(test::compile(spec));
  CHECK(ranged.lower[0] == Approx(-0.2));
  CHECK(ranged.upper[0] == Approx(1.0));

  ui::ForceHistory forces({"left", "right"}, 4);
  for (int i = 0; i < 6; ++i) forces.push({float(i), float(10 * i)});
  CHECK(forces.size() == 4);
  CHECK(forces.latest(0) == 5);
  CHECK(forces.latest(1) == 50);
  CHECK(forces.value(0, 0) == 2);  // the oldest kept of 0..5 with capacity 4

  test::HeadlessImGui imgui;
  for (int frame = 0; frame < 2; ++frame) {  // new windows appear from their second frame
    ImGui::NewFrame();
    CHECK(ui::joint_panel(view) == -1);
    ui::contact_force_panel(forces);
    ImGui::Render();
  }
  CHECK(ImGui::GetDrawData()->TotalVtxCount > 0);
}

TEST_CASE("the convergence panel counts the iterations each solver kind took", "[ui]") {
  const sim::Model model = test::compile(stack_scene());
  const sim::SolverKind kinds[] = {sim::SolverKind::NonSmoothNewton, sim::SolverKind::ProjectedGaussSeidel,
                                   sim::SolverKind::DualAscent, sim::SolverKind::PrimalDescent};
  const char* const nouns[] = {"Newton iteration", "PGS sweep", "dual iteration", "primal iteration"};
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    sim::SolverOptions o = model.solver;
    o.kind = kinds[k];
    sim::State state = sim::make_initial_state(model);
    sim::Workspace ws;
    sim::StepReport report;
    report = sim::step(model, o, state, sim::make_initial_control(model), ws);  // the first: the stack is not at rest
    REQUIRE(ws.trace.kind == kinds[k]);
    CHECK(std::string(ui::iteration_noun(ws.trace.kind)) == nouns[k]);
    // The trace keeps the start as well: the count shown is the report's, not the entries'.
    CHECK(report.newton_iterations > 0);
    CHECK(ui::iterations_taken(ws.trace) == report.newton_iterations);
    CHECK(static_cast<int>(ws.trace.iterations.size()) == report.newton_iterations + 1);
    // A Newton step solves one linear system per iteration; the others solve none.
    CHECK(ui::linear_solves(ws.trace) == (kinds[k] == sim::SolverKind::NonSmoothNewton ? report.newton_iterations : 0));
  }
}
