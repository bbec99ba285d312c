// The viewer features under a display (xvfb-run in CTest): a quick click (press and release
// between two frames) opens an ImGui panel; the docked panels never overlap; F1 shows the
// shortcuts; a dropped scene file opens; keyframes go through the scene file and restore the
// state; video recording writes the frames asked for; wireframe and transparency change the
// picture. Skips with a message without a display; fails on any Vulkan validation error.
#include <catch2/catch.hpp>

#include <QAction>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QImage>
#include <QMimeData>
#include <QMouseEvent>
#include <QProcess>
#include <QStandardPaths>
#include <QUrl>
#include <cstdlib>
#include <filesystem>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "gui/debug_panels.hpp"
#include "gui/main_window.hpp"
#include "gui/property_panel.hpp"
#include "gui/scene_document.hpp"
#include "gui/sim_runner.hpp"
#include "gui/teleop_driver.hpp"
#include "gui/teleop_session.hpp"
#include "gui/video_recorder.hpp"
#include "gui/viewer_controller.hpp"
#include "gui/viewport_window.hpp"
#include "gui/vulkan_validation.hpp"
#include "support/scratch_files.hpp"

using namespace coulomb::gui;
namespace fs = std::filesystem;

namespace {

// A scene of the test's own: boxes on a plane and a driven hinge.
constexpr const char* kScene = R"(<?xml version="1.0"?>
<scene name="dropped" dt="0.01">
  <world><plane/></world>
  <body name="crate" pos="0 0 0.3" euler="0 0 20" mass="1"><box size="0.3 0.2 0.2"/></body>
  <body name="lid" pos="0 0 0.6" mass="0.3"><box size="0.25 0.25 0.03"/></body>
  <body name="arm" pos="0.5 0 0.4" mass="0.5"><box size="0.3 0.05 0.05"/></body>
  <body name="slab" pos="-0.6 0 0.1"><box size="0.2 0.1 0.05" density="500"/></body>
  <joint name="hinge" type="revolute" parent="world" child="arm" pos="0.35 0 0.4" axis="0 1 0">
    <drive mode="position" stiffness="40" damping="2" target="0.5"/>
  </joint>
</scene>
)";

// Renders until the panels exist and have been laid out, then returns them.
DebugPanels* panels_ready(ViewportWindow& viewport) {
  const bool ready = app_test::pump_until([&] {
    viewport.requestUpdate();
    return viewport.panels() && viewport.panels()->panel("Solver") != nullptr && viewport.frames_rendered() > 3;
  }, 60000);
  REQUIRE(ready);
  return viewport.panels();
}

void send_mouse(QWindow* window, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons,
                Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
  QMouseEvent event(type, pos, window->mapToGlobal(pos), button, buttons, modifiers);
  QCoreApplication::sendEvent(window, &event);
}

// Fraction of pixels (every second in x and y) differing by more than 24 in a channel.
double differing(const QImage& a, const QImage& b) {
  if (a.size() != b.size()) return 1.0;
  int n = 0, all = 0;
  for (int y = 0; y < a.height(); y += 2)
    for (int x = 0; x < a.width(); x += 2, ++all) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      n += std::abs(qRed(p) - qRed(q)) > 24 || std::abs(qGreen(p) - qGreen(q)) > 24 || std::abs(qBlue(p) - qBlue(q)) > 24;
    }
  return double(n) / double(std::max(all, 1));
}

void save_shot(const QImage& image, const char* name) {
  if (const char* dir = std::getenv("COULOMB_VIEWER_SHOTS")) image.save(QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name)));
}

}  // namespace

TEST_CASE("viewer: a quick click opens a panel, docked panels never overlap, F1 lists the shortcuts", "[app][viewer][viewer_input]") {
  if (!app_test::window_system_or_skip("the viewer input test")) return;
  QVulkanInstance* vulkan = app_test::vulkan_instance();
  if (!vulkan) {
    WARN("skipped: no Vulkan instance, no viewport to click");
    return;
  }
  const int validation_errors = vulkan_validation_error_count();
  const fs::path dir = test::scratch_dir("app_viewer_click");
  {
    MainWindow window(app_test::window_options("incline", dir, vulkan));
    app_test::show_loaded(window);
    ViewportWindow& viewport = *window.viewport();
    DebugPanels* panels = panels_ready(viewport);
    const PanelRect solver = *panels->panel("Solver");
    REQUIRE(solver.collapsed);

    // Press and release on the Solver panel's collapse arrow with no frame between them.
    const std::uint64_t frames = viewport.frames_rendered();
    const QPointF arrow(solver.x + 10, solver.y + solver.height / 2);
    send_mouse(&viewport, QEvent::MouseMove, arrow, Qt::NoButton, Qt::NoButton);
    send_mouse(&viewport, QEvent::MouseButtonPress, arrow, Qt::LeftButton, Qt::LeftButton);
    send_mouse(&viewport, QEvent::MouseButtonRelease, arrow, Qt::LeftButton, Qt::NoButton);
    CHECK(viewport.frames_rendered() == frames);  // both arrived between two frames
    // The viewport draws for the queued input by itself (paused scene, nobody asks for frames).
    const bool opened = app_test::pump_until([&] {
      const PanelRect* p = viewport.panels()->panel("Solver");
      return p && !p->collapsed;
    }, 30000);
    CHECK(opened);
    CHECK(viewport.frames_rendered() >= frames + 2);  // the press's frame, the release's frame
    save_shot(viewport.screenshot(), "panel_opened.png");

    // The panels in the columns: disjoint, title bars inside the viewport.
    const std::vector<PanelRect> rects = viewport.panels()->panel_rects();
    CHECK(rects.size() >= 4);
    for (std::size_t i = 0; i < rects.size(); ++i) {
      INFO(rects[i].name << " at " << rects[i].x << "," << rects[i].y << " size " << rects[i].width << "x" << rects[i].height);
      CHECK(rects[i].y >= 0);
      CHECK(rects[i].y + 12 <= float(viewport.height()));  // at least the title bar shows
      for (std::size_t j = i + 1; j < rects.size(); ++j) {
        const PanelRect& a = rects[i];
        const PanelRect& b = rects[j];
        const bool overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        INFO("overlaps " << b.name);
        CHECK_FALSE(overlap);
      }
    }

    // F1: the overlay lists the menu shortcuts (Save As and screenshot no longer share a key).
    QAction* help = window.action(QStringLiteral("help"));
    REQUIRE(help != nullptr);
    CHECK(help->shortcut() == QKeySequence(Qt::Key_F1));
    CHECK(window.action(QStringLiteral("save_as"))->shortcut() != window.action(QStringLiteral("save_screenshot"))->shortcut());
    help->trigger();
    CHECK(app_test::pump_until([&] { return viewport.panels()->panel("Help") != nullptr; }, 30000));
    const std::vector<ui::ShortcutRow> rows = window.viewer().shortcut_rows();
    auto listed = [&](const std::string& keys) {
      for (const ui::ShortcutRow& r : rows)
        if (r.keys == keys) return true;
      return false;
    };
    CHECK(listed("Ctrl+P"));
    CHECK(listed("Ctrl+Shift+S"));
    CHECK(listed("F1"));
    CHECK(listed("Space"));
    CHECK(listed("Ctrl+right drag"));
    save_shot(viewport.screenshot(), "help.png");
    help->trigger();
    CHECK(app_test::pump_until([&] { viewport.requestUpdate(); return viewport.panels()->panel("Help") == nullptr; }, 30000));
  }
  INFO("Vulkan validation: " << vulkan_validation_errors().join('\n').toStdString());
  CHECK(vulkan_validation_error_count() == validation_errors);
}

TEST_CASE("viewer: drop a scene, keyframes through the file, recording, wireframe and transparency", "[app][viewer][viewer_files]") {
  if (!app_test::window_system_or_skip("the viewer file and display test")) return;
  QVulkanInstance* vulkan = app_test::vulkan_instance();
  const int validation_errors = vulkan_validation_error_count();
  const fs::path dir = test::scratch_dir("app_viewer_files");
  const fs::path scene = dir / "dropped.xml";
  test::write_file(scene, kScene);
  {
    MainWindow window(app_test::window_options("incline", dir, vulkan));
    QStringList errors;
    window.set_error_reporter([&](const QString& title, const QString& text) { errors << title + ": " + text; });
    window.set_close_prompt([] { return MainWindow::CloseChoice::Discard; });
    app_test::show_loaded(window);

    // Drag and drop: entering with a scene file is accepted, dropping opens it.
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(scene.string()))});
    QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    CHECK(enter.isAccepted());
    QDropEvent drop(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    CHECK(app_test::pump_until([&] { return window.document().spec().name == "dropped"; }));
    CHECK(QFileInfo(window.document().path()) == QFileInfo(QString::fromStdString(scene.string())));
    REQUIRE(app_test::pump_until([&] { return window.runner().latest().model && window.runner().latest().model->body_count == 4; }));

    // A body whose mass comes from its shapes shows the computed mass (500 kg/m³ x 1 dm³ = 0.5 kg), not -1.
    window.select({ItemKind::Body, 3});
    auto* mass = qobject_cast<QDoubleSpinBox*>(window.properties().editor("mass"));
    REQUIRE(mass != nullptr);
    CHECK(mass->value() == -1);
    CHECK(app_test::pump_until([&] { return mass->text() == QStringLiteral("computed: 0.5 kg"); }, 5000));
    INFO(mass->text().toStdString());
    // A file Coulomb does not open is refused at the door.
    QMimeData text;
    text.setUrls({QUrl::fromLocalFile(QString::fromStdString((dir / "settings.ini").string()))});
    QDragEnterEvent refused(QPoint(200, 200), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &refused);
    CHECK_FALSE(refused.isAccepted());

    // Keyframe: saved into the scene, written by Save As, read back, restored bit for bit.
    window.runner().single_step(37);
    REQUIRE(app_test::pump_until([&] { return window.runner().latest().state.step_index == 37; }));
    const sim::State saved = window.runner().latest().state;
    QString error;
    REQUIRE(window.viewer().save_keyframe(QStringLiteral("after 37"), &error));
    CHECK(window.document().modified());
    const QString copy = QString::fromStdString((dir / "with_keyframe.xml").string());
    REQUIRE(window.save_as(copy));
    window.runner().single_step(20);
    REQUIRE(app_test::pump_until([&] { return window.runner().latest().state.step_index == 57; }));
    REQUIRE(window.open_scene(copy));
    REQUIRE(window.document().spec().keyframes.size() == 1);
    CHECK(window.document().spec().keyframes[0].name == "after 37");
    REQUIRE(app_test::pump_until([&] { return window.runner().latest().model != nullptr && window.runner().latest().state.step_index == 0; }));
    REQUIRE(window.viewer().restore_keyframe(0, &error));
    // Positions, velocities, time and joint angles bit for bit (and the solver's warm start).
    CHECK(app_test::pump_until([&] {
      const sim::State& now = window.runner().latest().state;
      return now.q == saved.q && now.u == saved.u && now.time == saved.time && now.joint_position == saved.joint_position;
    }));
    // Save As starts in a user folder, never among the shipped assets.
    CHECK_FALSE(ViewerController::is_shipped(window.viewer().scene_folder()));
    CHECK(ViewerController::is_shipped(app_test::scene_path("incline")));
    CHECK_FALSE(ViewerController::is_shipped(window.viewer().screenshot_folder()));

    if (vulkan && window.viewport()->supportsGrab()) {
      ViewportWindow& viewport = *window.viewport();
      app_test::check_renders(viewport, viewport.frames_rendered() + 2);

      // Recording: exactly the frames asked for, each the viewport's size, while the scene plays.
      const fs::path frames_dir = dir / "video";
      window.action(QStringLiteral("play"))->trigger();
      REQUIRE(window.viewer().start_recording(QString::fromStdString(frames_dir.string()), 0, false, 5, &error));
      VideoRecorder* recorder = window.viewer().recorder();
      CHECK(app_test::pump_until([&] { return !recorder->recording(); }, 120000));
      window.action(QStringLiteral("play"))->trigger();
      const QStringList written = QDir(QString::fromStdString(frames_dir.string())).entryList({QStringLiteral("frame_*.png")}, QDir::Files, QDir::Name);
      CHECK(written.size() == 5);
      CHECK(recorder->frames_written() == 5);
      if (!written.isEmpty()) {
        const QImage first(QDir(QString::fromStdString(frames_dir.string())).filePath(written.first()));
        CHECK(first.size() == viewport.screenshot().size());
      }
      CHECK(recorder->status().contains(QStringLiteral("5 frames")));
      // MP4 where ffmpeg is installed: the same number of frames in the video, encoded after the last.
      if (!VideoRecorder::ffmpeg().isEmpty()) {
        const fs::path mp4_dir = dir / "clip";
        REQUIRE(window.viewer().start_recording(QString::fromStdString(mp4_dir.string()), 0, true, 4, &error));
        CHECK(app_test::pump_until([&] { return !recorder->recording() && !recorder->encoding(); }, 120000));
        INFO(recorder->status().toStdString());
        const QString mp4 = recorder->mp4_path();
        CHECK(QFileInfo(mp4).size() > 0);
        CHECK(recorder->encode_progress() == Approx(1.0));
        const QString ffprobe = QStandardPaths::findExecutable(QStringLiteral("ffprobe"));
        if (!ffprobe.isEmpty()) {
          QProcess probe;
          probe.start(ffprobe, {QStringLiteral("-v"), QStringLiteral("error"), QStringLiteral("-count_frames"),
                                QStringLiteral("-select_streams"), QStringLiteral("v:0"), QStringLiteral("-show_entries"),
                                QStringLiteral("stream=nb_read_frames,codec_name"), QStringLiteral("-of"),
                                QStringLiteral("csv=p=0"), mp4});
          REQUIRE(probe.waitForFinished(60000));
          const QString out = QString::fromLocal8Bit(probe.readAllStandardOutput()).trimmed();
          CHECK(out == QStringLiteral("h264,4"));
        }
      } else {
        WARN("skipped: MP4 recording (no ffmpeg on PATH; apt-get install ffmpeg)");
      }
      // Starting again into a folder that holds frames is refused (nothing overwritten).
      CHECK_FALSE(window.viewer().start_recording(QString::fromStdString(frames_dir.string()), 0, false, 2, &error));
      CHECK(error.contains(QStringLiteral("already holds frames")));

      // Wireframe and transparency change the picture; off again gives it back.
      viewport.set_panels_visible(false);
      auto shot = [&] {
        const std::uint64_t n = viewport.frames_rendered();
        app_test::pump_until([&] { viewport.requestUpdate(); return viewport.frames_rendered() > n + 1; }, 30000);
        return viewport.screenshot();
      };
      const QImage plain = shot();
      window.action(QStringLiteral("wireframe"))->trigger();
      const QImage wire = shot();
      window.action(QStringLiteral("wireframe"))->trigger();
      window.action(QStringLiteral("transparent"))->trigger();
      const QImage see_through = shot();
      window.action(QStringLiteral("transparent"))->trigger();
      const QImage again = shot();
      save_shot(plain, "plain.png");
      save_shot(wire, "wireframe.png");
      save_shot(see_through, "transparent.png");
      INFO("wireframe " << differing(plain, wire) << ", transparent " << differing(plain, see_through) << ", again "
                        << differing(plain, again));
      CHECK(differing(plain, wire) > 0.005);  // the bodies cover a few percent of the view
      CHECK(differing(plain, see_through) > 0.005);
      CHECK(differing(plain, again) < 0.0005);
      // View ▸ Visual / Collision geometry reach the viewport's settings (the pictures they give are
      // tested offscreen: tests/render/test_visual_shapes.cpp; this scene has no visual shapes).
      CHECK(viewport.render_settings().geometry.visuals);
      CHECK_FALSE(viewport.render_settings().geometry.collision);
      window.action(QStringLiteral("visual_geometry"))->trigger();
      window.action(QStringLiteral("collision_geometry"))->trigger();
      CHECK_FALSE(viewport.render_settings().geometry.visuals);
      CHECK(viewport.render_settings().geometry.collision);
      CHECK(differing(plain, shot()) < 0.0005);  // no visuals: the collision shapes as before
      window.action(QStringLiteral("visual_geometry"))->trigger();
      window.action(QStringLiteral("collision_geometry"))->trigger();
      CHECK(viewport.render_settings().geometry.visuals);
    } else {
      WARN("skipped: the recording and display checks need a Vulkan viewport that reads back");
    }
    INFO(errors.join('\n').toStdString());
    CHECK(errors.isEmpty());
  }
  INFO("Vulkan validation: " << vulkan_validation_errors().join('\n').toStdString());
  CHECK(vulkan_validation_error_count() == validation_errors);
}

TEST_CASE("viewer: the Teleop panel shows the opened scene's robot, not the last one's choice", "[app][viewer][viewer_teleop][teleop]") {
  if (!app_test::window_system_or_skip("the teleop panel refresh test")) return;
  const fs::path dir = test::scratch_dir("app_viewer_teleop_panel");
  MainWindow window(app_test::window_options("workcell", dir, nullptr));
  window.set_close_prompt([] { return MainWindow::CloseChoice::Discard; });
  app_test::show_loaded(window);
  const Snapshot& first = window.runner().latest();
  int chosen = -1;
  for (int b = 0; b < first.model->body_count; ++b)
    if (first.model->body_name[static_cast<std::size_t>(b)] == "forearm") chosen = b;
  REQUIRE(chosen >= 0);
  window.teleop().set_end_effector(chosen);  // teleoperation off: a choice for later
  ui::TeleopPanelView view;
  window.teleop().fill_panel_view(window.runner().latest(), view);
  CHECK(view.end_effector == chosen);

  REQUIRE(window.open_scene(app_test::scene_path("grasp")));
  REQUIRE(app_test::pump_until([&] {
    const Snapshot& s = window.runner().latest();
    return s.model && s.model->body_count > 0 && window.document().spec().name == "grasp" &&
           static_cast<int>(s.state.q.size()) == s.model->coord_count();
  }));
  app_test::pump_until([] { return false; }, 100);  // the driver's 16 ms poll sees the new scene
  window.teleop().fill_panel_view(window.runner().latest(), view);
  const sim::Model& grasp = *window.runner().latest().model;
  CHECK(view.end_effector == coulomb::gui::default_teleop_setup(grasp).end_effector);
  REQUIRE(view.end_effector >= 0);
  CHECK(grasp.body_name[static_cast<std::size_t>(view.end_effector)] == "palm");
}
