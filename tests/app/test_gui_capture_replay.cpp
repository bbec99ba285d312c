// The Solve capture replayed in the main window under Xvfb (issue 15 item 2), as a first-time
// user meets it: a pyramid step kept with F9 and opened, paused; the viewport draws the capture's
// contacts coloured by the panel's quantity with λ arrows (the picture changes when the replay is
// switched off), as many marks as the capture has contacts; a click on a row of the panel's table
// outlines all of that row's bodies and frames the camera on them (where the replay draws them:
// the capture's start State, not the live one). The table's state column
// counts as many sticking contacts as the marks, and the bodies are held at the capture's start
// State while it is shown. The shipped pendulum's replay draws its joint's force, the rope's a
// mark per distance row, the soft cube's a mark per tet. Screenshots go to $COULOMB_VIEWER_SHOTS when set.
#include <catch2/catch.hpp>

#include <QDir>
#include <QImage>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "app/sim_runner_support.hpp"
#include "gui/debug_panels.hpp"
#include "gui/main_window.hpp"
#include "gui/node_sphere.hpp"
#include "gui/sim_runner.hpp"
#include "gui/viewport_window.hpp"
#include "gui/vulkan_validation.hpp"
#include "support/scratch_files.hpp"

using namespace coulomb::gui;

namespace {

void save_shot(const QImage& image, const char* name) {
  if (const char* dir = std::getenv("COULOMB_VIEWER_SHOTS"))
    image.save(QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name)));
}

int differing_pixels(const QImage& a, const QImage& b) {
  if (a.size() != b.size()) return -1;
  int n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) n += a.pixel(x, y) != b.pixel(x, y) ? 1 : 0;
  return n;
}

void click(ViewportWindow& viewport, QPointF at) {
  for (const QEvent::Type type : {QEvent::MouseMove, QEvent::MouseButtonPress, QEvent::MouseButtonRelease}) {
    QMouseEvent event(type, at, viewport.mapToGlobal(at), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                      type == QEvent::MouseButtonPress ? Qt::LeftButton : Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&viewport, &event);
  }
}

// Runs `steps`, keeps the next step's solve with F9's request, opens it and waits until the
// viewport replays it (the Solve capture panel open, its marks drawn). Returns the panel's view.
ui::CapturePanelView* open_kept_solve(MainWindow& window, int steps) {
  ViewportWindow& viewport = *window.viewport();
  runner_test::run_steps(window.runner(), steps);
  window.runner().capture_next_step();
  REQUIRE(runner_test::wait_for(window.runner(), [](const Snapshot& s) { return s.captures.next_armed; }));
  runner_test::run_steps(window.runner(), 1);
  REQUIRE(window.runner().latest().captures.kept.size() == 1);
  window.runner().open_capture(window.runner().latest().captures.kept.back().id);
  ui::CapturePanelView* view = nullptr;
  REQUIRE(app_test::pump_until([&] {
    viewport.requestUpdate();
    const PanelRect* p = viewport.panels() ? viewport.panels()->panel("Solve capture") : nullptr;
    view = viewport.panels() ? viewport.panels()->capture_view() : nullptr;
    return p && !p->collapsed && view && view->replay != nullptr && viewport.frames_rendered() > 3;
  }, 60000));
  return view;
}

}  // namespace

TEST_CASE("in the main window a kept solve replays in the viewport and a row click frames all its bodies", "[app][window][capture][replay]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the capture replay window test");
  if (!vulkan) return;
  const int validation_errors = vulkan_validation_error_count();
  const std::filesystem::path dir = test::scratch_dir("app_capture_replay");
  MainWindow window(app_test::window_options("pyramid", dir, vulkan));
  app_test::show_loaded(window);
  ViewportWindow& viewport = *window.viewport();
  app_test::check_renders(viewport, 3);
  ui::CapturePanelView* view = open_kept_solve(window, 30);
  const std::shared_ptr<const FailedStep> opened = window.runner().latest().failed_step;
  REQUIRE(opened != nullptr);
  REQUIRE(opened->capture.contact_count > 0);
  CHECK(static_cast<int>(opened->contacts.size()) == opened->capture.contact_count);
  CHECK(view->replay_note.empty());
  // A mark per contact (the pyramid has no joints); arrows at the automatic scale, stated.
  CHECK(static_cast<int>(view->replay->marks.size()) == opened->capture.contact_count);
  CHECK(view->force_scale > 0);
  CHECK(view->replay->largest_force > 0);
  app_test::check_renders(viewport, viewport.frames_rendered() + 2);
  const QImage residual = viewport.screenshot();
  save_shot(residual, "capture_replay_residual.png");

  view->replay_quantity = ui::ReplayQuantity::StickSlip;
  REQUIRE(app_test::pump_until([&] {
    viewport.requestUpdate();
    return view->replay && view->replay->quantity == ui::ReplayQuantity::StickSlip;
  }, 30000));
  app_test::check_renders(viewport, viewport.frames_rendered() + 2);
  const QImage stick_slip = viewport.screenshot();
  save_shot(stick_slip, "capture_replay_stick_slip.png");
  int sticking = 0;
  for (const ui::ReplayMark& m : view->replay->marks) sticking += m.state == ui::ReplayState::Stick ? 1 : 0;
  CHECK(sticking > 0);  // a pyramid at rest sticks
  // The rows table's state column (the same rule): as many sticking contacts, most of them.
  REQUIRE(static_cast<int>(view->contact_states.size()) == opened->capture.contact_count);
  const auto table_sticking = std::count(view->contact_states.begin(), view->contact_states.end(), ui::ReplayState::Stick);
  CHECK(table_sticking == sticking);
  CHECK(2 * table_sticking > opened->capture.contact_count);
  // The bodies are drawn at the capture's start State, held in the pose buffer.
  CHECK(viewport.bridge()->held());

  // Switched off: the live view without marks and arrows.
  view->replay_shown = false;
  app_test::check_renders(viewport, viewport.frames_rendered() + 3);
  const QImage off = viewport.screenshot();
  CHECK_FALSE(viewport.bridge()->held());  // the live state again
  CHECK(differing_pixels(stick_slip, off) > 200);
  view->replay_shown = true;

  // A click on another row of the table: all its bodies outlined, the camera framed on them.
  const int first_row = view->selected_row;
  const PanelRect panel = *viewport.panels()->panel("Solve capture");
  // The panel scrolled to its end (the wheel over it), where the table is.
  const QPointF inside(panel.x + panel.width / 2, panel.y + panel.height / 2);
  for (int i = 0; i < 20; ++i) {
    QMouseEvent move(QEvent::MouseMove, inside, viewport.mapToGlobal(inside), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&viewport, &move);
    app_test::check_renders(viewport, viewport.frames_rendered() + 1);
    QWheelEvent wheel(inside, viewport.mapToGlobal(inside), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(&viewport, &wheel);
    app_test::check_renders(viewport, viewport.frames_rendered() + 1);
  }
  save_shot(viewport.screenshot(), "capture_replay_scrolled.png");
  for (float y = panel.y + panel.height - 12; y > panel.y + 100 && view->selected_row == first_row; y -= 9) {
    click(viewport, QPointF(panel.x + 24, y));
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);
  }
  REQUIRE(view->selected_row != first_row);
  std::vector<int> nodes;
  ui::capture_row_nodes(opened->capture, view->selected_row, nodes);
  REQUIRE_FALSE(nodes.empty());
  // Framed as drawn: on the captured step's start State the replay holds the bodies at.
  const NodeSphere sphere = node_sphere(*window.runner().latest().model, opened->capture.start, nodes);
  CHECK(app_test::pump_until([&] {
    viewport.requestUpdate();
    return (viewport.camera().target - sphere.center).norm() < 1e-9;
  }, 30000));
  app_test::check_renders(viewport, viewport.frames_rendered() + 2);
  save_shot(viewport.screenshot(), "capture_replay_row_framed.png");
  INFO("Vulkan validation: " << vulkan_validation_errors().join('\n').toStdString());
  CHECK(vulkan_validation_error_count() == validation_errors);
}

TEST_CASE("in the main window the pendulum's replay draws its joints' force arrows, the rope's a mark per distance row, the soft cube's one per tet", "[app][window][capture][replay]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the joint and rope replay window test");
  if (!vulkan) return;
  const int validation_errors = vulkan_validation_error_count();
  for (const char* scene : {"pendulum", "rope", "soft_cube"}) {
    INFO("scene " << scene);
    const std::filesystem::path dir = test::scratch_dir(std::string("app_capture_replay_") + scene);
    MainWindow window(app_test::window_options(scene, dir, vulkan));
    app_test::show_loaded(window);
    ViewportWindow& viewport = *window.viewport();
    app_test::check_renders(viewport, 3);
    ui::CapturePanelView* view = open_kept_solve(window, 20);
    const std::shared_ptr<const FailedStep> opened = window.runner().latest().failed_step;
    REQUIRE(opened != nullptr);
    const sim::Model& model = *window.runner().latest().model;
    int joints = 0, distances = 0, elements = 0;
    for (const ui::ReplayMark& m : view->replay->marks)
      joints += m.joint >= 0 ? 1 : 0, distances += m.distance >= 0 ? 1 : 0, elements += m.element >= 0 ? 1 : 0;
    CHECK(distances == model.distance_count);
    CHECK(elements == model.tet_count + model.membrane_count + model.bending_count + model.attachment_count);
    if (model.joint_count > 0) {
      CHECK(joints == model.joint_count);
      // Each joint carries its load: a force, stated in the arrow line's largest.
      REQUIRE(static_cast<int>(view->replay->joint_force.size()) == model.joint_count);
      for (const sim::Vec3& f : view->replay->joint_force) CHECK(f.norm() > 0);
      CHECK(view->replay->largest_force > 0);
    }
    CHECK(viewport.bridge()->held());
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);
    // Back far enough to see the joints' pivots and their arrows.
    viewport.camera().distance *= 4;
    viewport.camera().target.z() += 0.5;
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);
    save_shot(viewport.screenshot(), (std::string("capture_replay_") + scene + ".png").c_str());
  }
  INFO("Vulkan validation: " << vulkan_validation_errors().join('\n').toStdString());
  CHECK(vulkan_validation_error_count() == validation_errors);
}
