// A failed step in the app (issue 15 item 6), through the simulation thread and in the main
// window under Xvfb: the run pauses, rolls back to the history's last good state, solves the
// failed step again with a capture (app/gui/failed_step.hpp) and the Solve capture panel opens
// with the offending rows and a one-line explanation. Two failures: the arch under undamped
// Jacobi (its residual explodes in the first step) and a NaN injected into a drive target
// through the runner, the path the Joints panel's sliders take (refused before the solve).
#include <catch2/catch.hpp>

#include <QDir>
#include <QImage>
#include <QMouseEvent>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <memory>
#include <limits>
#include <sstream>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "app/sim_runner_support.hpp"
#include "gui/debug_panels.hpp"
#include "gui/failed_step.hpp"
#include "gui/main_window.hpp"
#include "gui/sim_runner.hpp"
#include "gui/viewport_window.hpp"
#include "gui/vulkan_validation.hpp"
#include "sim/state.hpp"
#include "support/scratch_files.hpp"
#include "support/shipped_scenes.hpp"

using namespace coulomb::gui;
namespace fs = std::filesystem;

namespace {

void diverging_solver(sim::SceneSpec& spec) {
  spec.solver.linear_solver = sim::LinearSolver::Jacobi;
  spec.solver.jacobi_weight = 1.0;
  spec.solver.divergence_limit = 1.0;  // a residual of 1 m is certainly a failure
}

constexpr sim::Real kNaN = std::numeric_limits<sim::Real>::quiet_NaN();

void save_shot(const QImage& image, const char* name) {
  if (const char* dir = std::getenv("COULOMB_VIEWER_SHOTS"))
    image.save(QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name)));
}

}  // namespace

TEST_CASE("a diverging step pauses the run, rolls back and is solved again with a capture", "[app][runner][capture]") {
  const runner_test::Loaded scene = runner_test::load("arch", diverging_solver);
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
  const sim::State start = runner.latest().state;
  runner.set_playing(true);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.failed_step != nullptr && !s.playing; }));
  const Snapshot& s = runner.latest();
  CHECK_FALSE(runner.playing_requested());
  // Rolled back: the state the failed step started from, bit for bit.
  CHECK(sim::state_hash(s.state) == sim::state_hash(start));
  CHECK(s.state.step_index == 0);
  CHECK(s.history.size == 1);
  const FailedStep& f = *s.failed_step;
  CHECK(f.id == 1);
  CHECK(f.history_index == 0);
  CHECK(f.time == 0);
  // The re-run from the rolled-back state fails the same way, row for row.
  CHECK(f.reproduced);
  CHECK(f.report.flags == f.original.flags);
  CHECK(f.report.offending_rows == f.original.offending_rows);
  REQUIRE(f.capture.filled);
  CHECK(f.capture.start.q == start.q);
  CHECK(f.capture.iterates.size() >= 2);
  REQUIRE_FALSE(f.diagnosis.rows.empty());
  CHECK(f.diagnosis.explanation.find("voussoir") != std::string::npos);
  CHECK(s.message.find("Solve capture") != std::string::npos);
  // Stepping again fails again: a new capture, the state still the start.
  runner.single_step(1);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& n) { return n.failed_step && n.failed_step->id == 2; }));
  CHECK(sim::state_hash(runner.latest().state) == sim::state_hash(start));
}

TEST_CASE("a NaN drive target pauses the run, rolls the target back and explains the refusal", "[app][runner][capture]") {
  const runner_test::Loaded scene = runner_test::load("pendulum");
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
  runner_test::run_steps(runner, 5);
  const sim::State good = runner.latest().state;
  REQUIRE_FALSE(runner.latest().joint_target.empty());
  const sim::Real target = runner.latest().joint_target[0];
  runner.set_joint_target(0, kNaN);
  runner.set_playing(true);
  REQUIRE(runner_test::wait_for(runner, [](const Snapshot& s) { return s.failed_step != nullptr && !s.playing; }));
  const Snapshot& s = runner.latest();
  CHECK(sim::state_hash(s.state) == sim::state_hash(good));
  CHECK(s.state.step_index == 5);
  const FailedStep& f = *s.failed_step;
  CHECK(f.reproduced);
  CHECK((f.report.flags & sim::kStepNonFinite) != 0);
  CHECK_FALSE(f.capture.filled);  // refused at the step's entry: no solve
  CHECK(f.diagnosis.rows.empty());
  CHECK(f.diagnosis.explanation.find("joint_target[0]") != std::string::npos);
  CHECK(f.diagnosis.explanation.find("pivot") != std::string::npos);
  // The drive target is the last good one again: the run goes on from there.
  REQUIRE(s.joint_target.size() == 1);
  CHECK(s.joint_target[0] == target);
  runner_test::run_steps(runner, 3);
  CHECK(runner.latest().failed_step->id == 1);
}

TEST_CASE("in the main window a failure opens the Solve capture panel on its worst row", "[app][window][capture]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the failed-step window test");
  if (!vulkan) return;
  const int validation_errors = vulkan_validation_error_count();
  const fs::path dir = test::scratch_dir("app_failed_step");
  const auto panel_open = [](ViewportWindow& viewport) {
    return app_test::pump_until([&] {
      viewport.requestUpdate();
      const DebugPanels* panels = viewport.panels();
      const PanelRect* p = panels ? panels->panel("Solve capture") : nullptr;
      return p && !p->collapsed && viewport.frames_rendered() > 3;
    }, 60000);
  };
  {
    // A NaN injected into the pendulum's drive target, as the Joints panel's slider sets it.
    MainWindow window(app_test::window_options("pendulum", dir, vulkan));
    app_test::show_loaded(window);
    ViewportWindow& viewport = *window.viewport();
    app_test::check_renders(viewport, 3);
    runner_test::run_steps(window.runner(), 120);
    // The Convergence panel opened by a click on its title bar: its plots over the last steps.
    const PanelRect convergence = *viewport.panels()->panel("Convergence");
    REQUIRE(convergence.collapsed);
    const QPointF arrow(convergence.x + 10, convergence.y + convergence.height / 2);
    for (const QEvent::Type type : {QEvent::MouseMove, QEvent::MouseButtonPress, QEvent::MouseButtonRelease}) {
      QMouseEvent event(type, arrow, viewport.mapToGlobal(arrow), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                        type == QEvent::MouseButtonPress ? Qt::LeftButton : Qt::NoButton, Qt::NoModifier);
      QCoreApplication::sendEvent(&viewport, &event);
    }
    CHECK(app_test::pump_until([&] {
      viewport.requestUpdate();
      const PanelRect* p = viewport.panels()->panel("Convergence");
      return p && !p->collapsed && p->height > 200;
    }, 30000));
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);
    save_shot(viewport.screenshot(), "convergence_plots.png");
    const sim::State good = window.runner().latest().state;
    window.runner().set_joint_target(0, kNaN);
    window.runner().set_playing(true);
    REQUIRE(panel_open(viewport));
    const Snapshot& s = window.runner().latest();
    CHECK_FALSE(s.playing);
    CHECK(sim::state_hash(s.state) == sim::state_hash(good));
    REQUIRE(s.failed_step != nullptr);
    CHECK(s.failed_step->diagnosis.explanation.find("pivot") != std::string::npos);
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);
    save_shot(viewport.screenshot(), "capture_nan_input.png");
  }
  {
    // The arch under undamped Jacobi: a scene file of the test's own, the shipped arch with the
    // diverging solver settings.
    std::ifstream in(test::scene_path("arch"));
    std::stringstream text;
    text << in.rdbuf();
    std::string xml = text.str();
    const std::string solver = "<solver linear_iterations=\"20\"/>";
    REQUIRE(xml.find(solver) != std::string::npos);
    xml.replace(xml.find(solver), solver.size(),
                "<solver linear_iterations=\"20\" linear_solver=\"jacobi\" jacobi_weight=\"1\" divergence_limit=\"1\"/>");
    const fs::path file = dir / "arch_jacobi.xml";
    std::ofstream(file) << xml;
    MainWindowOptions options = app_test::window_options("arch", dir, vulkan);
    options.scene_path = QString::fromStdString(file.string());
    MainWindow window(options);
    app_test::show_loaded(window);
    ViewportWindow& viewport = *window.viewport();
    app_test::check_renders(viewport, 3);
    window.runner().set_playing(true);
    REQUIRE(panel_open(viewport));
    const Snapshot& s = window.runner().latest();
    REQUIRE(s.failed_step != nullptr);
    CHECK(s.state.step_index == 0);
    const std::shared_ptr<const FailedStep> failure = s.failed_step;  // the snapshot slot is reused
    const ui::SolveDiagnosis& d = failure->diagnosis;
    REQUIRE(d.worst_row >= 0);
    // The worst row's body is selected (highlighted) in the viewport.
    CHECK(app_test::pump_until([&] {
      return std::find(d.bodies.begin(), d.bodies.end(), viewport.selected_body()) != d.bodies.end();
    }, 30000));
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);
    save_shot(viewport.screenshot(), "capture_arch_diverged.png");
  }
  INFO("Vulkan validation: " << vulkan_validation_errors().join('\n').toStdString());
  CHECK(vulkan_validation_error_count() == validation_errors);
}
