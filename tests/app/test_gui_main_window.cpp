// The main window under a display (xvfb-run in CTest): it opens a scene with the Vulkan viewport
// rendering, runs and edits it, persists settings, asks before losing edits, reports bad files,
// and closes cleanly. Skips with a message when there is no display.
#include <catch2/catch.hpp>

#include <QAction>
#include <QCloseEvent>
#include <QDoubleSpinBox>
#include <QImage>
#include <QMouseEvent>
#include <QSettings>
#include <QUndoStack>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "gui/main_window.hpp"
#include "gui/property_panel.hpp"
#include "gui/scene_document.hpp"
#include "gui/scene_tree_panel.hpp"
#include "gui/sim_runner.hpp"
#include "gui/viewport_window.hpp"
#include "gui/vulkan_validation.hpp"
#include "support/scratch_files.hpp"

using namespace coulomb::gui;
namespace fs = std::filesystem;

TEST_CASE("the main window opens a scene, renders, runs, edits and closes cleanly", "[app][window]") {
  if (!app_test::window_system_or_skip("the main window test")) return;
  QVulkanInstance* vulkan = app_test::vulkan_instance();
  if (!vulkan) WARN("no Vulkan instance: the window runs without its viewport");
  const fs::path dir = test::scratch_dir("app_window_open");
  const int validation_errors = coulomb::gui::vulkan_validation_error_count();
  const MainWindowOptions options = app_test::window_options("incline", dir, vulkan);
  QStringList errors;

  {
    MainWindow window(options);
    window.set_error_reporter([&](const QString& title, const QString& text) { errors << title + ": " + text; });
    app_test::show_loaded(window);
    CHECK(window.document().spec().name == "incline");
    CHECK(window.windowTitle().contains(QStringLiteral("incline.xml")));
    CHECK(window.scene_tree().topLevelItemCount() > 4);

    if (vulkan) {
      ViewportWindow* viewport = window.viewport();
      REQUIRE(viewport != nullptr);
      app_test::check_renders(*viewport, 3);
      CHECK(viewport->frames_rendered() >= 3);
      // The simulation thread writes poses into the renderer's buffer.
      window.action(QStringLiteral("step"))->trigger();
      CHECK(app_test::pump_until([&] { return viewport->bridge()->writes() >= 1; }));
      // The picture holds the scene: the box and the incline differ from the sky's colour.
      if (viewport->supportsGrab()) {
        const QImage image = viewport->screenshot();
        REQUIRE_FALSE(image.isNull());
        if (const char* out = std::getenv("COULOMB_TEST_SCREENSHOT")) image.save(QString::fromLocal8Bit(out));
        // The box (body 0: the palette's orange, red well above blue) fills the centre, in the
        // colours the renderer drew (the screenshot undoes a BGRA swapchain's byte order).
        const QRgb box = image.pixel(image.width() / 2, image.height() / 2);
        INFO("centre pixel " << qRed(box) << " " << qGreen(box) << " " << qBlue(box));
        CHECK(qRed(box) > qBlue(box) + 40);
        const QRgb corner = image.pixel(2, 2);
        int different = 0;
        for (int y = 0; y < image.height(); y += 8)
          for (int x = 0; x < image.width(); x += 8) different += image.pixel(x, y) != corner;
        const int samples = (image.height() / 8) * (image.width() / 8);
        CHECK(different > samples / 10);

        // View menu toggles change the picture: the contact overlay (the box rests on the
        // incline after the step, so it has contacts), then the colour field; off again gives
        // the first picture back.
        auto differing = [](const QImage& a, const QImage& b) {
          int n = 0;
          for (int y = 0; y < a.height(); y += 2)
            for (int x = 0; x < a.width(); x += 2) {
              const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
              n += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q)) > 24;
            }
          return n;
        };
        REQUIRE(window.runner().latest().workspace.contacts.size() > 0);
        const QImage plain = viewport->screenshot();
        window.action(QStringLiteral("overlay_contacts"))->setChecked(true);
        const QImage contacts = viewport->screenshot();
        CHECK(differing(plain, contacts) > 4);
        window.action(QStringLiteral("overlay_contacts"))->setChecked(false);
        window.action(QStringLiteral("color_by_speed"))->setChecked(true);
        CHECK(viewport->overlays().element_field == render::ElementField::Speed);
        const QImage coloured = viewport->screenshot();
        CHECK(differing(plain, coloured) > 100);  // the whole box changes colour
        window.action(QStringLiteral("color_by_none"))->setChecked(true);
        CHECK(differing(plain, viewport->screenshot()) == 0);
        // View > Save screenshot writes that picture as a PNG.
        const QString png = QString::fromStdString((dir / "shot.png").string());
        REQUIRE(window.save_screenshot(png));
        const QImage saved(png);
        REQUIRE(saved.size() == plain.size());
        CHECK(differing(plain, saved.convertToFormat(plain.format())) == 0);
      }

      // Mouse: a double click on the box (framed in the middle) selects it; Ctrl+drag upwards
      // pulls it with the spring (drawn as a line) while every overlay is on.
      for (const char* name : {"overlay_contacts", "overlay_normals", "overlay_forces", "overlay_joint_frames",
                               "overlay_body_frames", "overlay_bounds"})
        window.action(QString::fromLatin1(name))->setChecked(true);
      const QPointF centre(viewport->width() / 2.0, viewport->height() / 2.0);
      auto mouse = [&](QEvent::Type type, const QPointF& at, Qt::MouseButton button, Qt::MouseButtons buttons,
                       Qt::KeyboardModifiers modifiers) {
        QMouseEvent event(type, at, viewport->mapToGlobal(at), button, buttons, modifiers);
        QCoreApplication::sendEvent(viewport, &event);
      };
      mouse(QEvent::MouseButtonDblClick, centre, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
      CHECK(window.selection() == ItemRef{ItemKind::Body, 0});
      CHECK(window.scene_tree().selected() == ItemRef{ItemKind::Body, 0});
      mouse(QEvent::MouseButtonRelease, centre, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);

      window.action(QStringLiteral("play"))->trigger();
      mouse(QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton, Qt::ControlModifier);
      REQUIRE(viewport->current_grab().kind == Grab::Body);
      const double z0 = window.runner().latest().state.body_position(0).z();
      for (int i = 1; i <= 10; ++i) {
        mouse(QEvent::MouseMove, centre - QPointF(0, 0.04 * viewport->height() * i), Qt::NoButton, Qt::LeftButton, Qt::ControlModifier);
        app_test::pump(20);
      }
      const std::uint64_t frames = viewport->frames_rendered();
      CHECK(app_test::pump_until([&] { return viewport->frames_rendered() > frames + 2; }, 60000));
      const bool lifted = app_test::pump_until([&] { return window.runner().latest().state.body_position(0).z() > z0 + 0.02; }, 5000);
      INFO("z0 " << z0 << " now " << window.runner().latest().state.body_position(0).transpose() << " step "
                 << window.runner().latest().state.step_index << " playing " << window.runner().latest().playing);
      CHECK(lifted);
      if (const char* out = std::getenv("COULOMB_TEST_SCREENSHOT_GRAB"); out && viewport->supportsGrab())
        viewport->screenshot().save(QString::fromLocal8Bit(out));
      mouse(QEvent::MouseButtonRelease, centre, Qt::LeftButton, Qt::NoButton, Qt::ControlModifier);
      CHECK(viewport->current_grab().kind == Grab::None);
      window.action(QStringLiteral("play"))->trigger();
      CHECK(viewport->render_error().isEmpty());

      // The ImGui panels (on by default) take the mouse over them; elsewhere the camera does.
      REQUIRE(viewport->panels_visible());
      const QPointF over_stats(60, 40);  // the Stats panel sits in the top left corner
      auto frame_after = [&] {
        const std::uint64_t n = viewport->frames_rendered();
        viewport->requestUpdate();
        return app_test::pump_until([&] { return viewport->frames_rendered() > n; }, 30000);
      };
      mouse(QEvent::MouseMove, over_stats, Qt::NoButton, Qt::NoButton, Qt::NoModifier);
      CHECK(frame_after());
      const double yaw = viewport->camera().yaw;
      mouse(QEvent::MouseButtonPress, over_stats, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
      mouse(QEvent::MouseMove, over_stats + QPointF(40, 0), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
      mouse(QEvent::MouseButtonRelease, over_stats + QPointF(40, 0), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
      CHECK(frame_after());
      CHECK(viewport->camera().yaw == yaw);
      mouse(QEvent::MouseMove, centre, Qt::NoButton, Qt::NoButton, Qt::NoModifier);
      CHECK(frame_after());
      mouse(QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
      mouse(QEvent::MouseMove, centre + QPointF(40, 0), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
      mouse(QEvent::MouseButtonRelease, centre + QPointF(40, 0), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
      CHECK(viewport->camera().yaw != yaw);
      CHECK(frame_after());
      CHECK(viewport->render_error().isEmpty());
    }

    // Play from the Simulation menu's action; the status bar follows the snapshots.
    window.action(QStringLiteral("as_fast_as_possible"))->trigger();
    window.action(QStringLiteral("play"))->trigger();
    CHECK(app_test::pump_until([&] { return window.runner().latest().state.step_index > 60; }));
    window.action(QStringLiteral("play"))->trigger();
    CHECK(app_test::pump_until([&] { return !window.runner().latest().playing; }));
    window.action(QStringLiteral("reset"))->trigger();
    CHECK(app_test::pump_until([&] { return window.runner().latest().state.step_index == 0; }));

    // Select the material in the tree and edit μ in the property view, as a user would.
    window.select({ItemKind::Material, 0});
    auto* friction = qobject_cast<QDoubleSpinBox*>(window.properties().editor("friction"));
    REQUIRE(friction != nullptr);
    friction->setValue(0.2);  // the spin box commits on value change (keyboard tracking off)
    CHECK(window.document().spec().materials[0].friction == sim::Real(0.2));
    CHECK(window.document().modified());
    CHECK(window.isWindowModified());
    CHECK(app_test::pump_until([&] { return window.runner().latest().model->material_friction[0] == sim::Real(0.2); }));
    // Undo from the Edit menu restores the value, in the panel too.
    window.action(QStringLiteral("undo"))->trigger();
    CHECK(window.document().spec().materials[0].friction == sim::Real(0.5));
    CHECK(friction->value() == 0.5);
    CHECK_FALSE(window.document().modified());
    window.action(QStringLiteral("redo"))->trigger();
    CHECK(window.document().spec().materials[0].friction == sim::Real(0.2));

    if (const char* out = std::getenv("COULOMB_TEST_SCREENSHOT_WINDOW")) {
      app_test::pump(300);
      window.grab().save(QString::fromLocal8Bit(out));
    }

    // Closing with unsaved edits asks; Cancel keeps the window, Discard closes it.
    int asked = 0;
    window.set_close_prompt([&] {
      ++asked;
      return MainWindow::CloseChoice::Cancel;
    });
    CHECK_FALSE(window.close());
    CHECK(asked == 1);
    CHECK(window.isVisible());
    window.set_close_prompt([&] {
      ++asked;
      return MainWindow::CloseChoice::Discard;
    });
    CHECK(window.close());
    CHECK(asked == 2);
    app_test::pump(50);
  }
  CHECK(errors.isEmpty());
  INFO("Vulkan validation: " << coulomb::gui::vulkan_validation_errors().join('\n').toStdString());
  CHECK(coulomb::gui::vulkan_validation_error_count() == validation_errors);

  // Settings persisted: the scene, the recent files, the window geometry.
  QSettings settings(options.settings_file, QSettings::IniFormat);
  CHECK(settings.value(QStringLiteral("files/last_scene")).toString().endsWith(QStringLiteral("incline.xml")));
  CHECK(settings.value(QStringLiteral("files/recent")).toStringList().size() == 1);
  CHECK_FALSE(settings.value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
  CHECK(settings.value(QStringLiteral("preferences/real_time")).toBool() == false);
}

TEST_CASE("the main window restores the last scene, saves, and reports bad files", "[app][window]") {
  if (!app_test::window_system_or_skip("the main window test")) return;
  const fs::path dir = test::scratch_dir("app_window_restore");
  const int validation_errors = coulomb::gui::vulkan_validation_error_count();
  const QString copy = QString::fromStdString((dir / "pendulum.xml").string());
  fs::copy_file(app_test::scene_path("pendulum").toStdString(), copy.toStdString());
  MainWindowOptions options;
  options.settings_file = QString::fromStdString((dir / "settings.ini").string());
  options.vulkan = app_test::vulkan_instance();
  {
    QSettings settings(options.settings_file, QSettings::IniFormat);
    settings.setValue(QStringLiteral("files/last_scene"), copy);
  }
  QStringList errors;
  MainWindow window(options);
  window.set_error_reporter([&](const QString& title, const QString& text) { errors << title + ": " + text; });
  window.show();
  REQUIRE(app_test::pump_until([&] { return window.runner().latest().model != nullptr; }));
  CHECK(window.document().path() == copy);

  // A bad file: the parser's message in the error dialog, the scene kept.
  const std::string bad = (dir / "bad.xml").string();
  {
    std::ofstream out(bad);
    out << "<scene>\n  <material name=\"m\" friction=\"abc\"/>\n</scene>\n";
  }
  CHECK_FALSE(window.open_scene(QString::fromStdString(bad)));
  REQUIRE(errors.size() == 1);
  INFO(errors.front().toStdString());
  CHECK(errors.front().contains(QString::fromStdString(bad + ":2: <material>: ")));
  CHECK(window.document().path() == copy);

  // Edit, save with the File menu's action, reopen: the edit is in the file.
  QString error;
  REQUIRE(window.document().set_property({{ItemKind::Joint, 0}, "limited"}, true, &error));
  REQUIRE(window.document().set_property({{ItemKind::Joint, 0}, "upper"}, 0.75, &error));
  // The joint's property view holds the field table's joint fields: armature, edited as a user
  // would (a value edit: patched into the running model).
  window.select({ItemKind::Joint, 0});
  auto* armature = qobject_cast<QDoubleSpinBox*>(window.properties().editor("armature"));
  REQUIRE(armature != nullptr);
  CHECK(armature->value() == 0.0);
  CHECK(armature->minimum() == 0.0);
  armature->setValue(0.05);
  CHECK(window.document().spec().joints[0].armature == sim::Real(0.05));
  CHECK(app_test::pump_until([&] { return window.runner().latest().model->joint_armature[0] == sim::Real(0.05); }));
  if (const char* out = std::getenv("COULOMB_TEST_SCREENSHOT_JOINT")) {
    app_test::pump(300);
    window.grab().save(QString::fromLocal8Bit(out));
  }
  window.action(QStringLiteral("save"))->trigger();
  CHECK_FALSE(window.document().modified());
  // A read-only file: Save asks first (gui/save_decision.hpp); a no leaves the file as it was and
  // the edit unsaved, a yes replaces it and it stays read-only.
  {
    const fs::path file = copy.toStdString();
    auto contents = [&] {
      std::ifstream in(file, std::ios::binary);
      return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const auto read_only = fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
    fs::permissions(file, read_only);
    const std::string saved = contents();
    REQUIRE(window.document().set_property({{ItemKind::Joint, 0}, "lower"}, -0.5, &error));
    QStringList questions;
    bool answer = false;
    window.set_confirm_prompt([&](const QString&, const QString& text) {
      questions << text;
      return answer;
    });
    CHECK_FALSE(window.save());
    REQUIRE(questions.size() == 1);
    CHECK(questions.front().contains(QStringLiteral("is read-only")));
    CHECK(window.document().modified());
    CHECK(contents() == saved);
    answer = true;
    CHECK(window.save());
    CHECK(questions.size() == 2);
    CHECK_FALSE(window.document().modified());
    CHECK(contents() != saved);
    CHECK((fs::status(file).permissions() & fs::perms::all) == read_only);
    CHECK(errors.size() == 1);  // no error dialog on the way
    fs::permissions(file, read_only | fs::perms::owner_write);
  }
  window.set_close_prompt([] { return MainWindow::CloseChoice::Cancel; });  // must not be asked
  REQUIRE(window.open_scene(app_test::scene_path("incline")));
  REQUIRE(window.open_scene(copy));
  CHECK(window.document().spec().joints[0].limited);
  CHECK(window.document().spec().joints[0].upper == sim::Real(0.75));
  CHECK(window.document().spec().joints[0].armature == sim::Real(0.05));
  CHECK(window.recent_files().size() == 2);
  CHECK(window.recent_files().front() == copy);

  // Double-click picking selects in the tree; here through the same slot the viewport calls.
  window.select({ItemKind::Body, 0});
  CHECK(window.scene_tree().selected() == ItemRef{ItemKind::Body, 0});
  CHECK(window.properties().item() == ItemRef{ItemKind::Body, 0});
  CHECK(window.close());
  INFO("Vulkan validation: " << coulomb::gui::vulkan_validation_errors().join('\n').toStdString());
  CHECK(coulomb::gui::vulkan_validation_error_count() == validation_errors);
}
