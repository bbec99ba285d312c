// Teleoperation in the main window under a display (xvfb-run in CTest): the Simulation menu's
// action starts it on the workcell's gripper, keys sent to the viewport move the target by
// speed × simulated time, a drag on the gizmo's x arrow moves it along x by the ray-plane amount,
// G closes the fingers, the Teleop panel is drawn and the selection picks another end effector.
// Skips with a message when there is no display or no Vulkan.
#include <catch2/catch.hpp>

#include <QAction>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <cmath>
#include <cstdlib>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "gui/main_window.hpp"
#include "gui/sim_runner.hpp"
#include "gui/teleop_driver.hpp"
#include "gui/viewport_window.hpp"
#include "sim/inverse_kinematics.hpp"
#include "support/model_names.hpp"
#include "support/scratch_files.hpp"

using namespace coulomb::gui;

TEST_CASE("teleoperation in the main window: keys, gizmo drag, gripper, panel", "[app][window][teleop]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the teleoperation window test");
  if (!vulkan) return;
  const MainWindowOptions options =
      app_test::window_options("workcell", test::scratch_dir("app_teleop"), vulkan);
  MainWindow window(options);
  window.set_error_reporter([](const QString& title, const QString& text) { FAIL(title.toStdString() + ": " + text.toStdString()); });
  app_test::show_loaded(window);
  ViewportWindow* viewport = window.viewport();
  REQUIRE(viewport != nullptr);
  SimRunner& runner = window.runner();
  const sim::Model& m = *runner.latest().model;
  auto frame_after = [&] {
    const std::uint64_t n = viewport->frames_rendered();
    viewport->requestUpdate();
    return app_test::pump_until([&] { return viewport->frames_rendered() > n || !viewport->render_error().isEmpty(); }, 60000);
  };
  // Requests sent so far have been applied once a publish follows them.
  auto settle = [&] {
    const std::uint64_t seen = runner.published_count();
    runner.single_step(0);
    return app_test::pump_until([&] { return runner.latest().sequence > seen; });
  };
  auto steps = [&](int n) {
    const std::int64_t target = runner.latest().state.step_index + n;
    runner.single_step(n);
    return app_test::pump_until([&] { return runner.latest().state.step_index >= target; }, 60000);
  };
  auto key = [&](QEvent::Type type, int k, bool repeat = false) {
    QKeyEvent event(type, k, Qt::NoModifier, QString(), repeat);
    QCoreApplication::sendEvent(viewport, &event);
  };
  auto mouse = [&](QEvent::Type type, const QPointF& at, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, at, viewport->mapToGlobal(at), button, buttons, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &event);
  };

  // On from the Simulation menu: the hand, between the fingers, with the gripper.
  QAction* teleop = window.action(QStringLiteral("teleop"));
  REQUIRE(teleop != nullptr);
  teleop->trigger();
  CHECK(window.teleop().enabled());
  REQUIRE(settle());
  REQUIRE(runner.latest().teleop.active);
  CHECK(runner.latest().teleop.end_effector == test::body_index(m, "hand"));

  // The Teleop panel reports the robot, the gamepad's state, and is drawn with the gizmo.
  ui::TeleopPanelView view;
  window.teleop().fill_panel_view(runner.latest(), view);
  CHECK(view.available);
  CHECK(view.enabled);
  CHECK(view.end_effector == test::body_index(m, "hand"));
  CHECK(view.has_gripper);
  CHECK_FALSE(view.gamepad_status.empty());
  INFO("gamepad: " << view.gamepad_status);
  CHECK(frame_after());
  CHECK(frame_after());
  CHECK(viewport->render_error().isEmpty());
  if (const char* out = std::getenv("COULOMB_TEST_SCREENSHOT_TELEOP"); out && viewport->supportsGrab())
    viewport->screenshot().save(QString::fromLocal8Bit(out));

  // Keys: Up (+x) and Page Up (+z) held for N steps move the target by speed × N dt; auto-repeats
  // change nothing, and nothing moves after the release.
  const double speed = window.teleop().speeds().linear;
  const sim::Vec3 before = runner.latest().teleop.target_position;
  key(QEvent::KeyPress, Qt::Key_Up);
  key(QEvent::KeyPress, Qt::Key_PageUp);
  key(QEvent::KeyPress, Qt::Key_Up, true);
  const int n = 60;
  REQUIRE(steps(n));
  key(QEvent::KeyRelease, Qt::Key_Up, true);  // an auto-repeat's release is not a release
  REQUIRE(settle());
  key(QEvent::KeyRelease, Qt::Key_Up);
  key(QEvent::KeyRelease, Qt::Key_PageUp);
  REQUIRE(steps(20));
  const sim::Vec3 moved = runner.latest().teleop.target_position - before;
  INFO("target moved " << moved.transpose() << " expected " << speed * n * m.dt << " along +x and +z");
  CHECK(moved.x() == Approx(speed * n * m.dt).epsilon(1e-9));
  CHECK(moved.z() == Approx(speed * n * m.dt).epsilon(1e-9));
  CHECK(std::abs(moved.y()) < 1e-12);
  CHECK(window.teleop().held_keys() == HeldKeys{});

  // The gizmo: press on the x arrow, drag, release (the panels are hidden so none is in the way).
  window.action(QStringLiteral("debug_panels"))->setChecked(false);
  const sim::Vec3 p0 = runner.latest().teleop.target_position;
  const OrbitCamera camera = viewport->camera();
  const int w = viewport->width(), h = viewport->height();
  const double size = TargetGizmo::world_size(GizmoView{camera, w, h}, p0);
  double ax = 0, ay = 0;
  REQUIRE(camera.project(p0 + 0.75 * size * sim::Vec3::UnitX(), w, h, ax, ay));
  const QPointF press(ax, ay), release(ax + 20, ay + 12);  // 9 cm along x: within the arm's reach
  mouse(QEvent::MouseMove, press, Qt::NoButton, Qt::NoButton);
  CHECK(window.teleop().gizmo_highlight() == GizmoHandle::MoveX);
  const double yaw = camera.yaw;
  mouse(QEvent::MouseButtonPress, press, Qt::LeftButton, Qt::LeftButton);
  REQUIRE(window.teleop().gizmo_dragging());
  mouse(QEvent::MouseMove, (press + release) / 2, Qt::NoButton, Qt::LeftButton);
  mouse(QEvent::MouseMove, release, Qt::NoButton, Qt::LeftButton);
  mouse(QEvent::MouseButtonRelease, release, Qt::LeftButton, Qt::NoButton);
  CHECK_FALSE(window.teleop().gizmo_dragging());
  CHECK(viewport->camera().yaw == yaw);  // the drag was the gizmo's, not the camera's
  REQUIRE(settle());
  // The dragged pose is a goal the target approaches at the approach speed: it is there once
  // the panel no longer says "moving".
  REQUIRE(steps(static_cast<int>(std::lround(2.5 / m.dt))));
  CHECK_FALSE(runner.latest().teleop.moving_to_goal);
  // The oracle: both cursor rays meet the plane through p0 that contains the x axis and faces the
  // camera; the target moves by the difference of the hits' x coordinates.
  const sim::Vec3 f = camera.forward();
  const sim::Vec3 normal = sim::Vec3(0, f.y(), f.z()).normalized();
  auto hit_x = [&](const QPointF& at) {
    sim::Vec3 o, d;
    camera.pixel_ray(at.x(), at.y(), w, h, o, d);
    return (o + ((p0 - o).dot(normal) / d.dot(normal)) * d).x();
  };
  const sim::Vec3 dragged = runner.latest().teleop.target_position;
  INFO("dragged from " << p0.transpose() << " to " << dragged.transpose());
  CHECK(dragged.x() - p0.x() == Approx(hit_x(release) - hit_x(press)).epsilon(1e-6));
  CHECK(std::abs(dragged.x() - p0.x()) > 0.01);
  CHECK(dragged.y() == p0.y());
  CHECK(dragged.z() == p0.z());
  window.action(QStringLiteral("debug_panels"))->setChecked(true);

  // G closes the gripper: the fingers move towards their upper limits.
  int finger = -1;
  for (int j = 0; j < m.joint_count; ++j)
    if (m.joint_name[static_cast<std::size_t>(j)] == "finger_left") finger = j;
  REQUIRE(finger >= 0);
  const double open = sim::chain_positions(m, runner.latest().state, {finger}).front();
  key(QEvent::KeyPress, Qt::Key_G);
  key(QEvent::KeyRelease, Qt::Key_G);
  REQUIRE(settle());
  CHECK(runner.latest().teleop.gripper_closed);
  REQUIRE(steps(static_cast<int>(std::lround(0.8 / m.dt))));
  const double closed = sim::chain_positions(m, runner.latest().state, {finger}).front();
  INFO("finger_left " << open << " -> " << closed);
  CHECK(closed > open + 0.8 * (m.joint_upper[finger] - open));
  CHECK(frame_after());

  // The selection picks another end effector; T (through the viewport) turns teleoperation off.
  window.select({ItemKind::Body, test::body_index(m, "forearm")});
  window.action(QStringLiteral("teleop_selected"))->trigger();
  REQUIRE(settle());
  CHECK(runner.latest().teleop.end_effector == test::body_index(m, "forearm"));
  key(QEvent::KeyPress, Qt::Key_T);
  key(QEvent::KeyRelease, Qt::Key_T);
  CHECK_FALSE(teleop->isChecked());
  CHECK_FALSE(window.teleop().enabled());
  REQUIRE(settle());
  CHECK_FALSE(runner.latest().teleop.active);
  // Keys are the viewport's own again: Up no longer moves anything.
  CHECK_FALSE(window.teleop().key(Qt::Key_Up, true, false));
  CHECK(viewport->render_error().isEmpty());
}

TEST_CASE("pick and place in the main window through Qt key events: T, M, Page Down, G, Page Up, arrows, G",
          "[app][window][teleop]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the pick-and-place window test");
  if (!vulkan) return;
  const MainWindowOptions options =
      app_test::window_options("workcell", test::scratch_dir("app_pick_place"), vulkan);
  MainWindow window(options);
  window.set_error_reporter([](const QString& title, const QString& text) { FAIL(title.toStdString() + ": " + text.toStdString()); });
  app_test::show_loaded(window);
  ViewportWindow* viewport = window.viewport();
  REQUIRE(viewport != nullptr);
  SimRunner& runner = window.runner();
  const sim::Model& m = *runner.latest().model;
  const int box = test::body_index(m, "box"), platform = test::body_index(m, "scale_platform");
  auto key = [&](QEvent::Type type, int k) {
    QKeyEvent event(type, k, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &event);
  };
  auto tap = [&](int k) {
    key(QEvent::KeyPress, k);
    key(QEvent::KeyRelease, k);
  };
  // One step at a time (paused), as the person's eyes would: until `done`, at most `seconds`.
  auto step_until = [&](auto done, double seconds) {
    for (int i = 0; i < static_cast<int>(seconds / m.dt) && !done(runner.latest()); ++i) {
      const std::int64_t target = runner.latest().state.step_index + 1;
      runner.single_step(1);
      if (!app_test::pump_until([&] { return runner.latest().state.step_index >= target; }, 60000)) return false;
    }
    return static_cast<bool>(done(runner.latest()));
  };
  auto hand = [&](const Snapshot& s) { return s.teleop.effector_position; };
  auto hold_until = [&](int k, auto done, double seconds) {
    key(QEvent::KeyPress, k);
    const bool ok = step_until(done, seconds);
    key(QEvent::KeyRelease, k);
    return ok;
  };

  tap(Qt::Key_T);  // teleoperation on (and the simulation plays: pause it to step by hand)
  REQUIRE(window.teleop().enabled());
  runner.set_playing(false);
  window.select({ItemKind::Body, box});  // double click on the box, as the hint says
  tap(Qt::Key_M);                        // the hand moves above it
  REQUIRE(step_until([](const Snapshot& s) { return s.teleop.moving_to_goal; }, 1));
  REQUIRE(step_until([](const Snapshot& s) { return !s.teleop.moving_to_goal; }, 15));
  const double box_z = runner.latest().state.body_position(box).z();
  CHECK(hold_until(Qt::Key_PageDown, [&](const Snapshot& s) { return hand(s).z() <= box_z + 0.01; }, 10));
  tap(Qt::Key_G);
  step_until([](const Snapshot&) { return false; }, 0.6);
  CHECK(runner.latest().teleop.gripper_closed);
  const double platform_top = runner.latest().state.body_position(platform).z() + 0.01;
  CHECK(hold_until(Qt::Key_PageUp, [&](const Snapshot& s) { return s.state.body_position(box).z() >= platform_top + 0.12; }, 10));
  const sim::Vec3 target = runner.latest().state.body_position(platform);
  CHECK(hold_until(Qt::Key_Up, [&](const Snapshot& s) { return s.state.body_position(box).x() >= target.x(); }, 15));
  CHECK(hold_until(Qt::Key_Left, [&](const Snapshot& s) { return s.state.body_position(box).y() >= target.y(); }, 15));
  CHECK(hold_until(Qt::Key_PageDown, [&](const Snapshot& s) { return s.state.body_position(box).z() - 0.025 <= platform_top + 0.002; }, 10));
  tap(Qt::Key_G);
  step_until([](const Snapshot&) { return false; }, 1.5);
  const Snapshot& s = runner.latest();
  const sim::Vec3 placed = s.state.body_position(box), p = s.state.body_position(platform);
  INFO("box " << placed.transpose() << ", platform " << p.transpose() << " after " << s.state.time << " s");
  CHECK_FALSE(s.teleop.gripper_closed);
  CHECK(std::abs(placed.x() - p.x()) < 0.05);
  CHECK(std::abs(placed.y() - p.y()) < 0.05);
  CHECK(placed.z() == Approx(p.z() + 0.01 + 0.025).margin(0.003));
  CHECK(s.state.time < 60);
  CHECK(s.teleop.largest_force <= s.teleop.link_force_limit);
  CHECK(viewport->render_error().isEmpty());
}

namespace {

// Requests sent so far have been applied once a publish follows them.
bool settle_requests(SimRunner& runner) {
  const std::uint64_t seen = runner.published_count();
  runner.single_step(0);
  return app_test::pump_until([&] { return runner.latest().sequence > seen; });
}

void send_key(ViewportWindow* viewport, QEvent::Type type, int key) {
  QKeyEvent event(type, key, Qt::NoModifier, QString(), false);
  QCoreApplication::sendEvent(viewport, &event);
}

}  // namespace

TEST_CASE("teleoperating the PneuNet gripper: ] and [ held inflate and deflate its chamber, the panel shows it",
          "[app][window][teleop]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the soft pressure teleoperation test");
  if (!vulkan) return;
  const MainWindowOptions options = app_test::window_options("pneunet", test::scratch_dir("app_teleop_pressure"), vulkan);
  MainWindow window(options);
  window.set_error_reporter([](const QString& title, const QString& text) { FAIL(title.toStdString() + ": " + text.toStdString()); });
  app_test::show_loaded(window);
  ViewportWindow* viewport = window.viewport();
  REQUIRE(viewport != nullptr);
  SimRunner& runner = window.runner();
  auto settle = [&] { return settle_requests(runner); };
  auto key = [&](QEvent::Type type, int k) { send_key(viewport, type, k); };
  QAction* teleop = window.action(QStringLiteral("teleop"));
  REQUIRE(teleop != nullptr);
  teleop->trigger();
  REQUIRE(window.teleop().enabled());
  REQUIRE(settle());
  const double initial = runner.latest().soft_pressure.at(0);  // the scene's 40 MPa; the slider spans ± twice that
  ui::TeleopPanelView view;
  window.teleop().fill_panel_view(runner.latest(), view);
  REQUIRE(view.soft_groups == std::vector<std::string>{"chamber"});
  CHECK(view.soft_pressure_kpa.at(0) == Approx(initial / 1000));
  REQUIRE(initial > 0);
  CHECK(view.soft_pressure_range_kpa.at(0) == Approx(2 * initial / 1000));
  // ] held: the pressure rises (the slider's range in 2 s) while the driver polls, and stops on the release.
  key(QEvent::KeyPress, Qt::Key_BracketRight);
  CHECK(window.teleop().held_keys()[static_cast<std::size_t>(TeleopKey::Inflate)]);
  auto pressure_now = [&] {
    runner.single_step(0);  // a publish after the requests so far
    return runner.latest().soft_pressure.at(0);
  };
  REQUIRE(app_test::pump_until([&] { return pressure_now() > initial + 2e5; }, 20000));
  key(QEvent::KeyRelease, Qt::Key_BracketRight);
  REQUIRE(settle());
  const double raised = runner.latest().soft_pressure.at(0);
  window.teleop().fill_panel_view(runner.latest(), view);
  CHECK(view.soft_pressure_kpa.at(0) == Approx(raised / 1000));
  app_test::pump_until([] { return false; }, 200);  // polls with nothing held
  REQUIRE(settle());
  CHECK(runner.latest().soft_pressure.at(0) == raised);
  // With a colour field on, the viewport draws its legend (and, with COULOMB_TEST_SCREENSHOT_PRESSURE
  // set, saves the frame there to look at: the Teleop panel's pressure slider and the legend).
  QAction* strain = window.action(QStringLiteral("color_by_volumetric_strain"));
  REQUIRE(strain != nullptr);
  strain->trigger();
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t n = viewport->frames_rendered();
    viewport->requestUpdate();
    REQUIRE(app_test::pump_until([&] { return viewport->frames_rendered() > n || !viewport->render_error().isEmpty(); }, 60000));
  }
  CHECK(viewport->render_error().isEmpty());
  CHECK(viewport->legend().shown);
  CHECK(viewport->legend().name == "volumetric strain");
  if (const char* out = std::getenv("COULOMB_TEST_SCREENSHOT_PRESSURE"); out && viewport->supportsGrab())
    viewport->screenshot().save(QString::fromLocal8Bit(out));
  // [ held: it falls.
  key(QEvent::KeyPress, Qt::Key_BracketLeft);
  REQUIRE(app_test::pump_until([&] { return pressure_now() < raised - 2e5; }, 20000));
  key(QEvent::KeyRelease, Qt::Key_BracketLeft);
  CHECK(window.teleop().held_keys() == HeldKeys{});
}
