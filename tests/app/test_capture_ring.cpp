// Capture triggers and the ring of kept solves (issue 15 item 1, app/gui/capture_ring.hpp). The
// oracle is a second run of the same steps without any capture (a capture does not change the
// solve: test_solve_capture.cpp re-solves captures bit for bit): the residual trigger keeps
// exactly the steps whose final residual is above the threshold, the contact trigger exactly the
// steps whose contact count differs from the step before, the key exactly the next step. A ring
// of N keeps the last N solves once its slots are reused, and a solve written into a reused slot
// (stale buffers of a larger solve in it) equals a fresh capture of the same step. Through the
// simulation thread: the snapshot lists the kept solves and opening one shows it in the panel's
// slot (Snapshot::failed_step) with its trigger.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include <QAction>
#include <QDir>
#include <QImage>
#include <QMouseEvent>
#include <cstdlib>
#include <filesystem>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "app/sim_runner_support.hpp"
#include "gui/debug_panels.hpp"
#include "gui/main_window.hpp"
#include "gui/viewport_window.hpp"
#include "gui/vulkan_validation.hpp"
#include "support/scratch_files.hpp"
#include "gui/capture_ring.hpp"
#include "gui/failed_step.hpp"
#include "gui/sim_runner.hpp"
#include "sim/captured_resolve.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/shipped_scenes.hpp"

using namespace coulomb::gui;

namespace {

struct StepFigures {
  double start_time = 0;
  double residual = 0;
  int contacts = 0;
};

sim::Model compile_scene(const std::string& name) {
  auto spec = sim::load_scene_file(test::scene_path(name));
  REQUIRE(spec.ok());
  auto model = sim::compile_model(spec.value());
  REQUIRE(model.ok());
  return std::move(model.value());
}

// The steps' figures without any capture.
std::vector<StepFigures> plain_run(const sim::Model& m, int steps) {
  sim::State state = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  std::vector<StepFigures> out;
  for (int i = 0; i < steps; ++i) {
    StepFigures f;
    f.start_time = static_cast<double>(state.time);
    REQUIRE(sim::step(m, state, control, ws).ok());
    f.residual = final_residual(ws.trace);
    f.contacts = ws.contacts.size();
    out.push_back(f);
  }
  return out;
}

// The same steps with the ring asking for a capture before each; `before(i)` runs before step i.
template <class F>
void ring_run(const sim::Model& m, int steps, CaptureRing& ring, F before) {
  sim::State state = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  for (int i = 0; i < steps; ++i) {
    before(i);
    ws.capture = ring.begin_step();
    const sim::StepReport report = sim::step(m, state, control, ws);
    ws.capture = nullptr;
    REQUIRE(report.ok());
    ring.end_step(report, ws.trace, ws.contacts.contacts);
  }
}

std::vector<double> kept_times(const CaptureRing& ring) {
  std::vector<ui::CaptureSummary> kept;
  ring.summaries(kept);
  std::vector<double> t;
  for (const ui::CaptureSummary& k : kept) t.push_back(k.time);
  return t;
}

}  // namespace

TEST_CASE("the residual trigger keeps exactly the steps whose final residual is above its threshold", "[app][capture][ring]") {
  const sim::Model m = compile_scene("table_pile");
  constexpr int kSteps = 40;
  const std::vector<StepFigures> plain = plain_run(m, kSteps);
  // A threshold between the steps' residuals (their median), so some are kept and some not.
  std::vector<double> residuals;
  for (const StepFigures& f : plain) residuals.push_back(f.residual);
  std::sort(residuals.begin(), residuals.end());
  const double threshold = residuals[residuals.size() / 2];
  REQUIRE(residuals.front() < threshold);
  std::vector<double> expected;
  for (const StepFigures& f : plain)
    if (f.residual > threshold) expected.push_back(f.start_time);
  REQUIRE(!expected.empty());
  CaptureTriggers t;
  t.residual = true;
  t.residual_threshold = threshold;
  t.ring_size = kSteps;
  CaptureRing ring;
  ring.configure(t);
  ring_run(m, kSteps, ring, [](int) {});
  CHECK(kept_times(ring) == expected);
  std::vector<ui::CaptureSummary> kept;
  ring.summaries(kept);
  for (const ui::CaptureSummary& k : kept) {
    CHECK(k.trigger == CaptureTrigger::Residual);
    CHECK(k.residual > threshold);
    const CaptureRing::Slot* s = ring.find(k.id);
    REQUIRE(s != nullptr);
    CHECK(s->capture.filled);
    CHECK(static_cast<double>(s->capture.start.time) == k.time);
  }
}

TEST_CASE("the contact trigger keeps exactly the steps whose contact count changed", "[app][capture][ring]") {
  const sim::Model m = compile_scene("table_pile");
  constexpr int kSteps = 60;
  const std::vector<StepFigures> plain = plain_run(m, kSteps);
  std::vector<double> expected;
  for (int i = 1; i < kSteps; ++i)
    if (plain[static_cast<std::size_t>(i)].contacts != plain[static_cast<std::size_t>(i) - 1].contacts)
      expected.push_back(plain[static_cast<std::size_t>(i)].start_time);
  INFO("steps with a changed contact count: " << expected.size());
  REQUIRE(!expected.empty());
  REQUIRE(expected.size() < kSteps - 1);  // not every step: the trigger must choose
  CaptureTriggers t;
  t.contact_change = true;
  t.ring_size = kSteps;
  CaptureRing ring;
  ring.configure(t);
  ring_run(m, kSteps, ring, [](int) {});
  CHECK(kept_times(ring) == expected);
}

TEST_CASE("the key keeps the next step only, with no trigger set", "[app][capture][ring]") {
  const sim::Model m = compile_scene("pyramid");
  const std::vector<StepFigures> plain = plain_run(m, 10);
  CaptureRing ring;
  ring.configure(CaptureTriggers{});
  CHECK(ring.begin_step() == nullptr);  // nothing armed: no capture asked for (nor allocated)
  ring.end_step(sim::StepReport{}, sim::SolverTrace{}, {});
  ring_run(m, 10, ring, [&](int i) {
    if (i == 6) ring.arm_next();
  });
  CHECK(kept_times(ring) == std::vector<double>{plain[6].start_time});
  CHECK_FALSE(ring.next_armed());
  std::vector<ui::CaptureSummary> kept;
  ring.summaries(kept);
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].trigger == CaptureTrigger::Key);
}

TEST_CASE("a continuous ring keeps the last N solves, and a reused slot records a solve as a fresh capture does", "[app][capture][ring]") {
  const sim::Model m = compile_scene("table_pile");
  constexpr int kSteps = 30, kSlots = 4;
  const std::vector<StepFigures> plain = plain_run(m, kSteps);
  CaptureTriggers t;
  t.continuous = true;
  t.ring_size = kSlots;
  CaptureRing ring;
  ring.configure(t);
  ring_run(m, kSteps, ring, [](int) {});
  std::vector<double> expected;
  for (int i = kSteps - kSlots; i < kSteps; ++i) expected.push_back(plain[static_cast<std::size_t>(i)].start_time);
  CHECK(kept_times(ring) == expected);
  CHECK(ring.size() == kSlots);
  CHECK(ring.newest_id() == kSteps);
  CHECK(ring.find(1) == nullptr);  // dropped, oldest first
  // The memory reported covers at least the kept arrays (per iterate: λ, residual, W and the flag
  // per row, and u).
  std::vector<ui::CaptureSummary> kept;
  ring.summaries(kept);
  std::size_t data = 0;
  for (const ui::CaptureSummary& k : kept) {
    const CaptureRing::Slot& s = *ring.find(k.id);
    data += s.capture.iterates.size() * (s.capture.rows.count() * (3 * sizeof(sim::Real) + 1) + s.capture.start.u.size() * sizeof(sim::Real));
    CHECK(k.bytes >= s.capture.iterates.size() * s.capture.rows.count() * 3 * sizeof(sim::Real));
  }
  CHECK(ring.bytes() >= data);
  // The newest solve, written into a slot that held an older solve, equals a fresh capture.
  const CaptureRing::Slot& newest = *ring.find(ring.newest_id());
  sim::SolveCapture fresh;
  sim::State state = newest.capture.start;
  sim::Workspace ws;
  ws.capture = &fresh;
  REQUIRE(sim::step(m, newest.capture.options, state, newest.capture.control, ws).ok());
  REQUIRE(fresh.filled);
  CHECK(sim::compare_captures(newest.capture, fresh).empty());
  CHECK(newest.capture.rows.node == fresh.rows.node);
  // A smaller ring keeps the newest.
  t.ring_size = 2;
  ring.configure(t);
  CHECK(kept_times(ring) == std::vector<double>(expected.end() - 2, expected.end()));
}

TEST_CASE("through the simulation thread the kept solves are listed and one opens in the panel's slot", "[app][runner][capture][ring]") {
  const runner_test::Loaded scene = runner_test::load("pyramid");
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
  runner_test::run_steps(runner, 3);
  CHECK(runner.latest().captures.kept.empty());  // no trigger: nothing kept
  CaptureTriggers t;
  t.continuous = true;
  t.ring_size = 5;
  runner.set_capture_triggers(t);
  runner_test::run_steps(runner, 8);
  {
    const Snapshot& s = runner.latest();
    CHECK(s.captures.triggers == t);
    REQUIRE(s.captures.kept.size() == 5);
    CHECK(s.captures.kept.back().time == Approx(static_cast<double>(s.state.time) - scene.model->dt));
    CHECK(s.captures.bytes > 0);
  }
  const std::uint64_t id = runner.latest().captures.kept[1].id;
  const double time = runner.latest().captures.kept[1].time;
  runner.open_capture(id);
  REQUIRE(runner_test::wait_for(runner, [&](const Snapshot& s) { return s.failed_step && s.failed_step->ring_id == id; }));
  const std::shared_ptr<const FailedStep> opened = runner.latest().failed_step;
  CHECK(opened->trigger == CaptureTrigger::Continuous);
  CHECK(opened->time == time);
  CHECK(opened->capture.filled);
  CHECK(opened->diagnosis.worst_row >= 0);
  CHECK(opened->diagnosis.explanation.find("continuous") != std::string::npos);
  // The key through the runner: triggers off, F9, one step: exactly that step kept.
  t.continuous = false;
  runner.set_capture_triggers(t);
  runner.capture_next_step();
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.captures.next_armed; }));
  const double next = static_cast<double>(runner.latest().state.time);
  runner_test::run_steps(runner, 3);
  const Snapshot& s = runner.latest();
  REQUIRE(s.captures.kept.size() == 5);
  CHECK(s.captures.kept.back().trigger == CaptureTrigger::Key);
  CHECK(s.captures.kept.back().time == next);
  CHECK(s.captures.kept[3].trigger == CaptureTrigger::Continuous);
}

TEST_CASE("in the main window F9 keeps the next step and a kept solve opens the Solve capture panel", "[app][window][capture][ring]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the capture ring window test");
  if (!vulkan) return;
  const int validation_errors = vulkan_validation_error_count();
  const std::filesystem::path dir = test::scratch_dir("app_capture_ring");
  MainWindow window(app_test::window_options("pyramid", dir, vulkan));
  app_test::show_loaded(window);
  ViewportWindow& viewport = *window.viewport();
  app_test::check_renders(viewport, 3);
  // The panel is there (collapsed) before any capture: its triggers can be set.
  const PanelRect* panel = viewport.panels()->panel("Solve capture");
  REQUIRE(panel != nullptr);
  CHECK(panel->collapsed);
  // F9 (the menu action): the next step is kept.
  QAction* key = window.findChild<QAction*>(QStringLiteral("capture_next"));
  REQUIRE(key != nullptr);
  CHECK(key->shortcut() == QKeySequence(Qt::Key_F9));
  key->trigger();
  REQUIRE(runner_test::wait_for(window.runner(), [](const Snapshot& s) { return s.captures.next_armed; }));
  runner_test::run_steps(window.runner(), 4);
  REQUIRE(window.runner().latest().captures.kept.size() == 1);
  const ui::CaptureSummary kept = window.runner().latest().captures.kept[0];
  CHECK(kept.trigger == CaptureTrigger::Key);
  // Then continuously into a ring of 5: six steps keep five, the F9 one dropped.
  CaptureTriggers t;
  t.continuous = true;
  t.ring_size = 5;
  window.runner().set_capture_triggers(t);
  runner_test::run_steps(window.runner(), 6);
  REQUIRE(window.runner().latest().captures.kept.size() == 5);
  CHECK(window.runner().latest().captures.kept[0].trigger == CaptureTrigger::Continuous);
  // The panel opened by a click on its title bar: the triggers and the list.
  const PanelRect title = *viewport.panels()->panel("Solve capture");
  const QPointF arrow(title.x + 10, title.y + 10);
  for (const QEvent::Type type : {QEvent::MouseMove, QEvent::MouseButtonPress, QEvent::MouseButtonRelease}) {
    QMouseEvent event(type, arrow, viewport.mapToGlobal(arrow), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                      type == QEvent::MouseButtonPress ? Qt::LeftButton : Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&viewport, &event);
  }
  CHECK(app_test::pump_until([&] {
    viewport.requestUpdate();
    const PanelRect* p = viewport.panels()->panel("Solve capture");
    return p && !p->collapsed;
  }, 30000));
  app_test::check_renders(viewport, viewport.frames_rendered() + 3);
  if (const char* shots = std::getenv("COULOMB_VIEWER_SHOTS"))
    viewport.screenshot().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("capture_ring_list.png")));
  const ui::CaptureSummary newest = window.runner().latest().captures.kept.back();
  window.runner().open_capture(newest.id);
  CHECK(app_test::pump_until([&] {
    viewport.requestUpdate();
    const PanelRect* p = viewport.panels()->panel("Solve capture");
    return p && !p->collapsed && viewport.frames_rendered() > 3;
  }, 60000));
  app_test::check_renders(viewport, viewport.frames_rendered() + 2);
  if (const char* shots = std::getenv("COULOMB_VIEWER_SHOTS"))
    viewport.screenshot().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("capture_ring_kept.png")));
  REQUIRE(window.runner().latest().failed_step != nullptr);
  CHECK(window.runner().latest().failed_step->ring_id == newest.id);
  CHECK(window.runner().latest().failed_step->trigger == CaptureTrigger::Continuous);
  INFO("Vulkan validation: " << vulkan_validation_errors().join('\n').toStdString());
  CHECK(vulkan_validation_error_count() == validation_errors);
}

TEST_CASE("A/B in the app: a heavy-stack step kept by F9, solved again with identity scaling, ends with a larger residual", "[app][runner][capture][ab]") {
  // The paper's fixed protocol (every step from u = 0, λ = 0, eqs. 67-68; six Newton iterations,
  // no line search), as the CLI's A/B test (tests/scenes/test_solve_capture.cpp): the heavy
  // stack's mass ratios (up to 4096) need the effective-mass scaling (paper §8.2, Fig. 11).
  const runner_test::Loaded scene = runner_test::load("heavy_stack", [](sim::SceneSpec& spec) {
    spec.solver.warm_start = false;
    spec.solver.line_search = false;
    spec.solver.newton_tolerance = 0;
    spec.solver.newton_iterations = 6;
  });
  REQUIRE(scene.model->solver.preconditioner == sim::Preconditioner::EffectiveMass);
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
  runner_test::run_steps(runner, 59);
  runner.capture_next_step();
  runner_test::run_steps(runner, 1);
  REQUIRE(runner.latest().captures.kept.size() == 1);
  runner.open_capture(runner.latest().captures.kept[0].id);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.failed_step != nullptr; }));
  const std::uint64_t open = runner.latest().failed_step->id;

  // A refused value says why and solves nothing.
  runner.compare_capture("preconditioner", "sideways");
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.comparison && s.comparison->value == "sideways"; }));
  CHECK_FALSE(runner.latest().comparison->error.empty());
  CHECK(runner.latest().comparison->b.empty());

  runner.compare_capture("preconditioner", "identity");
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.comparison && s.comparison->value == "identity"; }));
  const std::shared_ptr<const ui::CaptureComparison> cmp = runner.latest().comparison;
  CHECK(cmp->capture_id == open);
  CHECK(cmp->error.empty());
  REQUIRE(cmp->a.size() == 7);  // six Newton iterations and the result's measurement
  REQUIRE(cmp->b.size() == 7);
  // A is the capture itself: its first iterate (the same start) agrees with B's.
  CHECK(cmp->a.front().merit == cmp->b.front().merit);
  const double ra = cmp->a.back().normal_max, rb = cmp->b.back().normal_max;
  INFO("final normal residual: effective mass " << ra << " m, identity " << rb << " m");
  CHECK(rb > 10 * ra);

  // The sweep of the Newton iterations 1..6: the A/B stays; each more iteration costs more linear
  // iterations (work), and the residual after six is far below the one after one.
  runner.sweep_capture("newton_iterations", 1, 6, 6);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) {
    return s.comparison && s.comparison->sweep_total == 6 && !s.comparison->sweep_running;
  }));
  const std::shared_ptr<const ui::CaptureComparison> sweep = runner.latest().comparison;
  CHECK(sweep->value == "identity");
  CHECK(sweep->sweep_error.empty());
  REQUIRE(sweep->sweep.size() == 6);
  for (std::size_t i = 0; i < sweep->sweep.size(); ++i) {
    CHECK(sweep->sweep[i].value == static_cast<double>(i + 1));
    CHECK(sweep->sweep[i].newton_iterations == static_cast<int>(i + 1));
    if (i > 0) CHECK(sweep->sweep[i].linear_iterations > sweep->sweep[i - 1].linear_iterations);
  }
  INFO("final residual after 1 Newton iteration " << sweep->sweep[0].residual << ", after 6 " << sweep->sweep[5].residual);
  CHECK(sweep->sweep[5].residual * 10 < sweep->sweep[0].residual);
  // Its point at the capture's own six iterations is the capture's result, bit for bit.
  CHECK(sweep->sweep[5].residual == sim::iterate_residual(cmp->a.back()));
  // A refused value ends the sweep with the reason.
  runner.sweep_capture("newton_iterations", 0, 2, 3);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) {
    return s.comparison && s.comparison->sweep_total == 3 && !s.comparison->sweep_running;
  }));
  CHECK_FALSE(runner.latest().comparison->sweep_error.empty());
  CHECK(runner.latest().comparison->sweep.empty());
}

TEST_CASE("sweep values: evenly spaced, whole numbers for integer options, no repeats", "[app][capture][ab]") {
  CHECK(sim::sweep_values(5, 80, 6, true) == std::vector<double>{5, 20, 35, 50, 65, 80});
  CHECK(sim::sweep_values(1, 3, 5, true) == std::vector<double>{1, 2, 3});
  CHECK(sim::sweep_values(0.5, 1, 3, false) == std::vector<double>{0.5, 0.75, 1});
  CHECK(sim::sweep_values(7, 9, 1, true) == std::vector<double>{7});
}
