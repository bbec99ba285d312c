// The failed step's explanation (ui/solve_diagnosis.hpp) and the Solve capture panel
// (ui/capture_panel.hpp), headless: the arch under undamped Jacobi (which diverges in its first
// step, as in test_divergence.cpp) is explained by its worst row, whose residual really grew
// over the captured iterates, with the row's kind and the voussoirs it joins; non-finite input is
// explained by the step's refusal; the table sorts non-finite values as the worst, and clicking
// a table row selects that row's body.
#include <catch2/catch.hpp>

#include <imgui.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <cmath>
#include <limits>

#include "headless_imgui.hpp"
#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"
#include "ui/capture_comparison.hpp"
#include "ui/capture_panel.hpp"
#include "ui/convergence_panel.hpp"
#include "ui/solve_diagnosis.hpp"

namespace {

struct Diverged {
  sim::Model model;
  sim::SolveCapture capture;
  sim::StepReport report;
};

Diverged diverging_arch() {
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/arch.xml");
  REQUIRE(spec.ok());
  spec->solver.linear_solver = sim::LinearSolver::Jacobi;
  spec->solver.jacobi_weight = 1.0;
  spec->solver.divergence_limit = 1.0;
  Diverged d{test::compile(*spec), {}, {}};
  sim::State state = sim::make_initial_state(d.model);
  sim::Workspace ws;
  ws.capture = &d.capture;
  d.report = sim::step(d.model, state, sim::make_initial_control(d.model), ws);
  return d;
}

// One frame with the mouse at `pos`, the left button `down`.
void frame(ImVec2 pos, bool down, const std::function<void()>& draw) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = pos;
  io.MouseDown[0] = down;
  ImGui::NewFrame();
  draw();
  ImGui::Render();
}

}  // namespace

TEST_CASE("a diverged solve is explained by its worst row: kind, bodies, how far its residual grew", "[ui][capture]") {
  const Diverged d = diverging_arch();
  REQUIRE_FALSE(d.report.ok());
  REQUIRE(d.capture.filled);
  REQUIRE(d.capture.iterates.size() >= 2);
  const ui::SolveDiagnosis diag = ui::diagnose_failed_step(d.model, d.capture, d.report);
  INFO(diag.explanation);
  REQUIRE_FALSE(diag.rows.empty());
  for (int r : d.report.offending_rows) CHECK(std::find(diag.rows.begin(), diag.rows.end(), r) != diag.rows.end());
  REQUIRE(diag.worst_row == diag.rows.front());
  REQUIRE(diag.iteration >= 0);
  const sim::CapturedIterate& at = d.capture.iterates[static_cast<std::size_t>(diag.iteration)];
  const auto w = static_cast<std::size_t>(diag.worst_row);
  // Worst first: no flagged row has a larger residual there.
  for (int r : diag.rows)
    if (std::isfinite(at.residual[w])) CHECK(at.residual[static_cast<std::size_t>(r)] <= at.residual[w]);
  // The row's kind and its bodies are named; its bodies are highlighted.
  CHECK(diag.explanation.find(sim::row_kind_name(d.capture.rows.kind[w])) != std::string::npos);
  CHECK(diag.explanation.find("voussoir") != std::string::npos);
  for (int e = d.capture.rows.node_first[w]; e < d.capture.rows.node_first[w + 1]; ++e)
    CHECK(std::find(diag.bodies.begin(), diag.bodies.end(), d.capture.rows.node[static_cast<std::size_t>(e)]) !=
          diag.bodies.end());
  if (!diag.non_finite) {
    // "grew": its residual at the last iterate is past the limit and above where it started.
    CHECK(diag.explanation.find("grew from") != std::string::npos);
    CHECK(d.capture.iterates.back().residual[w] > d.capture.options.divergence_limit);
    CHECK(d.capture.iterates.back().residual[w] > d.capture.iterates.front().residual[w]);
  } else {
    CHECK(diag.explanation.find("became") != std::string::npos);
    CHECK_FALSE(std::isfinite(at.residual[w] + at.lambda[w]));
  }
}

TEST_CASE("a step refused for non-finite input is explained by the refusal, with no rows", "[ui][capture]") {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "box", sim::Vec3(0, 0, 0.1), 1.0, test::box_shape(sim::Vec3(0.1, 0.1, 0.1)));
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  state.u[2] = std::numeric_limits<sim::Real>::quiet_NaN();
  sim::SolveCapture capture;
  sim::Workspace ws;
  ws.capture = &capture;
  const sim::StepReport report = sim::step(model, state, sim::make_initial_control(model), ws);
  REQUIRE((report.flags & sim::kStepNonFinite) != 0);
  CHECK_FALSE(capture.filled);
  const ui::SolveDiagnosis diag = ui::diagnose_failed_step(model, capture, report);
  CHECK(diag.explanation == report.message);
  CHECK(diag.explanation.find("u[2]") != std::string::npos);
  CHECK(diag.explanation.find("box") != std::string::npos);
  CHECK(diag.rows.empty());
  CHECK(diag.worst_row == -1);
}

TEST_CASE("the capture table sorts by a column, non-finite values as the largest", "[ui][capture]") {
  sim::SolveCapture c;
  c.filled = true;
  c.rows.kind = {3, 4, 4, 0};
  c.rows.source = {0, 0, 0, 1};
  c.rows.sub = {0, 0, 1, 0};
  c.rows.r = {1, 1, 1, 1};
  c.rows.node_first = {0, 1, 2, 3, 5};
  c.rows.node = {2, 2, 2, 0, 1};
  sim::CapturedIterate it;
  it.residual = {1.0, std::numeric_limits<sim::Real>::quiet_NaN(), 3.0, 2.0};
  it.lambda = {-5.0, 0.5, 0.25, std::numeric_limits<sim::Real>::infinity()};
  it.active = {1, 0, 1, 0};
  it.w.assign(4, 0);
  c.iterates.push_back(it);
  std::vector<int> order;
  ui::sort_capture_rows(c, 0, ui::CaptureColumn::Residual, true, -1, order);
  CHECK(order == std::vector<int>{1, 2, 3, 0});
  ui::sort_capture_rows(c, 0, ui::CaptureColumn::Residual, false, 2, order);
  CHECK(order == std::vector<int>{0, 3});
  ui::sort_capture_rows(c, 5, ui::CaptureColumn::Lambda, true, -1, order);  // iteration clamped; by |λ|
  CHECK(order == std::vector<int>{3, 0, 1, 2});
  ui::sort_capture_rows(c, 0, ui::CaptureColumn::Kind, false, -1, order);
  CHECK(order == std::vector<int>{3, 0, 1, 2});
}

TEST_CASE("clicking a row of the Solve capture panel selects it and its body, and frames all its bodies", "[ui][capture]") {
  const Diverged d = diverging_arch();
  const ui::SolveDiagnosis diag = ui::diagnose_failed_step(d.model, d.capture, d.report);
  test::HeadlessImGui imgui;
  ui::CapturePanelView view;
  view.capture = &d.capture;
  view.diagnosis = &diag;
  view.model = &d.model;
  view.iteration = diag.iteration;
  view.open = true;
  ui::CapturePanelEdits edits;
  const auto draw = [&] {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(400, 500), ImGuiCond_Always);
    const ui::CapturePanelEdits e = ui::capture_panel(view);
    if (e.select_body >= 0) edits = e;
  };
  for (int i = 0; i < 2; ++i) frame(ImVec2(-1, -1), false, draw);
  REQUIRE(view.order.size() > 1);
  // Click down the panel's middle line until a table row takes the click.
  for (float y = 60; y < 500 && edits.select_body < 0; y += 6) {
    frame(ImVec2(200, y), true, draw);
    frame(ImVec2(200, y), false, draw);
  }
  REQUIRE(edits.select_body >= 0);
  REQUIRE(view.selected_row >= 0);
  CHECK(std::find(view.order.begin(), view.order.end(), view.selected_row) != view.order.end());
  const auto r = static_cast<std::size_t>(view.selected_row);
  CHECK(d.capture.rows.node[static_cast<std::size_t>(d.capture.rows.node_first[r])] == edits.select_body);
  CHECK(d.model.body_name[static_cast<std::size_t>(edits.select_body)].find("voussoir") == 0);
  // Every node of the row is framed (and outlined by the viewport), not only the first.
  const std::vector<int> nodes(d.capture.rows.node.begin() + d.capture.rows.node_first[r],
                               d.capture.rows.node.begin() + d.capture.rows.node_first[r + 1]);
  CHECK(edits.frame_nodes == nodes);
}

TEST_CASE("clicking the Convergence timeline asks for the state at the clicked time", "[ui][plot]") {
  test::HeadlessImGui imgui;
  ui::ConvergenceHistory history(100);
  sim::StepReport report;
  sim::SolverTrace trace;
  for (int i = 1; i <= 50; ++i) {
    trace.final_normal_max = 1e-3 * i;
    report.newton_iterations = i % 7;
    history.push(report, trace, 0.01 * i);
  }
  // A run resumed from t = 0.3 drops the entries after it.
  history.push(report, trace, 0.305);
  CHECK(history.size() == 31);
  CHECK(history.time(30) == Approx(0.305));
  ui::ConvergenceView view;
  view.history = &history;
  std::optional<double> seek;
  const auto draw = [&] {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(340, 400), ImGuiCond_Always);
    const ui::ConvergenceEdits e = ui::convergence_panel(view);
    if (e.seek_time) seek = e.seek_time;
  };
  for (int i = 0; i < 2; ++i) frame(ImVec2(-1, -1), false, draw);
  // Find the timeline: the first height at which a click on the middle seeks.
  float y = 40;
  for (; y < 400 && !seek; y += 5) {
    frame(ImVec2(200, y), true, draw);
    frame(ImVec2(200, y), false, draw);
  }
  REQUIRE(seek);
  y -= 5;
  const double middle = *seek;
  CHECK(middle > 0.01);
  CHECK(middle < 0.305);
  // Further right is later; at the right edge, the newest step.
  seek.reset();
  frame(ImVec2(340, y), true, draw);
  frame(ImVec2(340, y), false, draw);
  REQUIRE(seek);
  CHECK(*seek == Approx(0.305));
  seek.reset();
  frame(ImVec2(120, y), true, draw);
  frame(ImVec2(120, y), false, draw);
  REQUIRE(seek);
  CHECK(*seek < middle);
}

TEST_CASE("the Solve capture panel sets the triggers, arms the next step and opens a kept solve", "[ui][capture]") {
  test::HeadlessImGui imgui;
  ui::CaptureRingStatus ring;
  ring.triggers.ring_size = 8;
  for (std::uint64_t id = 1; id <= 3; ++id) {
    ui::CaptureSummary k;
    k.id = id;
    k.time = 0.01 * static_cast<double>(id);
    k.trigger = id == 2 ? ui::CaptureTrigger::Failure : ui::CaptureTrigger::Residual;
    k.iterations = 5;
    k.residual = 2e-3;
    ring.kept.push_back(k);
  }
  ring.bytes = 3 << 20;
  ui::CapturePanelView view;
  view.ring = &ring;  // no capture open: the ring section is open
  view.open = true;
  ui::CapturePanelEdits edits;
  const auto draw = [&] {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(400, 500), ImGuiCond_Always);
    const ui::CapturePanelEdits e = ui::capture_panel(view);
    if (e.triggers_changed) {
      edits.triggers_changed = true;
      edits.triggers = e.triggers;
    }
    edits.capture_next |= e.capture_next;
    if (e.open) edits.open = e.open;
  };
  for (int i = 0; i < 2; ++i) frame(ImVec2(-1, -1), false, draw);
  // Nothing clicked: nothing asked for.
  CHECK_FALSE(edits.triggers_changed);
  CHECK_FALSE(edits.capture_next);
  CHECK(edits.open == 0);
  // Click down the left edge (the checkboxes, the button, the list's first column) line by line,
  // applying each edit as the ring would, until a kept solve is opened.
  // After a click that did something, the next line (a checkbox clicked twice would toggle back).
  // From below the section's header (title bar and header: a frame height each, window padding).
  const float line = ImGui::GetFrameHeightWithSpacing();
  std::vector<std::uint64_t> opened;
  int changes = 0;
  for (float y = 10 + 2 * line + 10; y < 500 && opened.empty();) {
    edits = {};
    frame(ImVec2(30, y), true, draw);
    frame(ImVec2(30, y), false, draw);
    frame(ImVec2(-1, -1), false, draw);
    if (edits.triggers_changed) ring.triggers = edits.triggers;
    if (edits.capture_next) ring.next_armed = true;
    if (edits.open) opened.push_back(edits.open);
    const bool hit = edits.triggers_changed || edits.capture_next;
    changes += hit ? 1 : 0;
    y += hit ? line : 2.0f;
  }
  CHECK(changes >= 4);
  // The clicks toggled the checkboxes (the residual one with its threshold kept), armed the next
  // step and opened the newest kept solve: the list is newest first.
  CHECK(ring.triggers.residual);
  CHECK(ring.triggers.residual_threshold == 1e-3);
  CHECK(ring.triggers.contact_change);
  CHECK(ring.triggers.continuous);
  CHECK(ring.next_armed);
  REQUIRE(opened.size() == 1);
  CHECK(opened[0] == 3);
}

TEST_CASE("the Solve capture panel's A/B section asks for B and draws both curves", "[ui][capture]") {
  const Diverged d = diverging_arch();
  test::HeadlessImGui imgui;
  ui::CaptureComparison cmp;
  for (const sim::CapturedIterate& k : d.capture.iterates) cmp.a.push_back(k.trace);
  cmp.key = "preconditioner";
  cmp.value = "identity";
  cmp.b = cmp.a;
  cmp.b.pop_back();
  cmp.b_ok = true;
  ui::CapturePanelView view;
  view.capture = &d.capture;
  view.model = &d.model;
  view.comparison = &cmp;
  view.ab_open = true;
  view.open = true;
  ui::CapturePanelEdits edits;
  const auto draw = [&] {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(400, 700), ImGuiCond_Always);
    const ui::CapturePanelEdits e = ui::capture_panel(view);
    if (e.compare || e.sweep) edits = e;
  };
  for (int i = 0; i < 2; ++i) frame(ImVec2(-1, -1), false, draw);
  CHECK_FALSE(edits.compare);
  // The "Solve B" button ends the A/B line: search the right part of the panel for it.
  for (float y = 40; y < 400 && !edits.compare && !edits.sweep; y += 4)
    for (float x = 250; x < 400 && !edits.compare && !edits.sweep; x += 12) {
      frame(ImVec2(x, y), true, draw);
      frame(ImVec2(x, y), false, draw);
      frame(ImVec2(-1, -1), false, draw);
    }
  REQUIRE(edits.compare);
  CHECK(edits.compare_key == "preconditioner");
  CHECK(edits.compare_value == "identity");
}
