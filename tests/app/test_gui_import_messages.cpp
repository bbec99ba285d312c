// The import simplifications on open (app/gui/import_messages_dialog.*): opening an MJCF model
// whose import dropped or approximated something shows a non-modal dialog listing each with
// file:line; a scene without any hides it. The same dialog lists an SDF cache entry found
// damaged on open (deleted and baked again). Skips with a message when there is no display.
#include <catch2/catch.hpp>

#include <QAction>
#include <QDialog>
#include <QPlainTextEdit>
#include <filesystem>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "gui/import_messages_dialog.hpp"
#include "gui/main_window.hpp"
#include "gui/scene_document.hpp"
#include "support/parse_checks.hpp"
#include "support/scoped_resources.hpp"
#include "support/scratch_files.hpp"

using namespace coulomb::gui;
namespace fs = std::filesystem;

TEST_CASE("opening a model lists its import simplifications with file and line", "[app][window][mjcf]") {
  if (!app_test::window_system_or_skip("the import messages test")) return;
  const fs::path dir = test::scratch_dir("app_import_messages");
  test::write_file(dir / "model.xml", test::xml_lines({
      "<mujoco>",                                                                   // 1
      "  <worldbody>",                                                              // 2
      "    <body name='a' pos='0 0 0.5'>",                                          // 3
      "      <joint name='j' axis='0 1 0'/>",                                       // 4
      "      <geom type='cylinder' size='0.05 0.1' fluidshape='ellipsoid'/>",       // 5
      "    </body>",                                                                // 6
      "  </worldbody>",                                                             // 7
      "  <actuator><motor name='m' joint='j'/></actuator>",                         // 8
      "</mujoco>",                                                                  // 9
  }));
  MainWindowOptions options = app_test::window_options("incline", dir, nullptr);
  MainWindow window(options);
  QStringList errors;
  window.set_error_reporter([&](const QString& title, const QString& text) { errors << title + ": " + text; });
  app_test::show_loaded(window);
  auto* dialog = window.findChild<QDialog*>(QStringLiteral("import_messages"));
  CHECK((dialog == nullptr || !dialog->isVisible()));  // the shipped scene has nothing to list

  REQUIRE(window.open_scene(QString::fromStdString((dir / "model.xml").string())));
  CHECK(errors.isEmpty());
  dialog = window.findChild<QDialog*>(QStringLiteral("import_messages"));
  REQUIRE(dialog != nullptr);
  CHECK(app_test::pump_until([&] { return dialog->isVisible(); }));
  CHECK_FALSE(dialog->isModal());
  const QString text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("import_messages_list"))->toPlainText();
  INFO(text.toStdString());
  const QString file = QString::fromStdString((dir / "model.xml").string());
  CHECK(text.contains(file + QStringLiteral(":5: <geom>: unsupported attribute 'fluidshape'")));
  CHECK(text.contains(file + QStringLiteral(":8: <motor>: actuator 'm'")));
  CHECK(import_message_count(window.document().spec()) == 2);

  // Another scene without messages: the dialog goes away.
  REQUIRE(window.open_scene(QString::fromStdString(app_test::scene_path("incline").toStdString())));
  CHECK_FALSE(dialog->isVisible());
}

TEST_CASE("File > URDF robots open with a free base frees the root link", "[app][window][mjcf]") {
  if (!app_test::window_system_or_skip("the free base test")) return;
  const fs::path dir = test::scratch_dir("app_urdf_free_base");
  test::write_file(dir / "r.urdf", test::xml_lines({
      "<robot name='r'>",
      "  <link name='base'><inertial><mass value='2'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>",
      "    <collision><geometry><box size='0.2 0.2 0.2'/></geometry></collision></link>",
      "</robot>",
  }));
  MainWindow window(app_test::window_options("incline", dir, nullptr));
  window.set_error_reporter([](const QString&, const QString&) {});
  app_test::show_loaded(window);
  const QString path = QString::fromStdString((dir / "r.urdf").string());
  REQUIRE(window.open_scene(path));
  CHECK(window.document().spec().bodies.at(0).fixed);  // the default: a mounted robot
  QAction* free_base = window.findChild<QAction*>(QStringLiteral("urdf_free_base"));
  REQUIRE(free_base != nullptr);
  free_base->setChecked(true);
  REQUIRE(window.open_scene(path));
  CHECK_FALSE(window.document().spec().bodies.at(0).fixed);
}

TEST_CASE("opening a scene whose SDF cache entry is damaged lists the re-bake with the load messages",
          "[app][window][sdf]") {
  if (!app_test::window_system_or_skip("the SDF cache warning test")) return;
  const fs::path dir = test::scratch_dir("app_cache_problems");
  const test::TempDir cache("coulomb-app-cache-problems");
  const test::ScopedEnv cache_env("COULOMB_CACHE", cache.path.string());
  // A tetrahedron collides through its baked SDF, which goes through the cache.
  test::write_file(dir / "tetra.xml", test::xml_lines({
      "<scene>",
      "  <world><plane/></world>",
      "  <body pos='0 0 1'><mesh vertices='0 0 0 0.1 0 0 0 0.1 0 0 0 0.1' triangles='0 2 1 0 1 3 0 3 2 1 2 3'/></body>",
      "</scene>",
  }));
  const QString scene = QString::fromStdString((dir / "tetra.xml").string());
  MainWindow window(app_test::window_options("incline", dir, nullptr));
  QStringList errors;
  window.set_error_reporter([&](const QString& title, const QString& text) { errors << title + ": " + text; });
  app_test::show_loaded(window);

  // First open: baked and written to the cache, nothing to say.
  REQUIRE(window.open_scene(scene));
  CHECK(window.document().open_warnings().isEmpty());
  auto* dialog = window.findChild<QDialog*>(QStringLiteral("import_messages"));
  CHECK((dialog == nullptr || !dialog->isVisible()));
  std::vector<fs::path> entries;
  for (const auto& e : fs::recursive_directory_iterator(cache.path))
    if (e.path().extension() == ".vdb") entries.push_back(e.path());
  REQUIRE(entries.size() == 1);

  // The entry replaced by what a bake on a full disk left (issue 13): the next open reports it,
  // deletes it and bakes again; the scene opens.
  fs::copy_file(fs::path(COULOMB_SOURCE_DIR) / "tests/data/bad-inputs/vdb_cache_truncated_by_full_disk.vdb", entries[0],
                fs::copy_options::overwrite_existing);
  REQUIRE(window.open_scene(scene));
  CHECK(errors.isEmpty());
  REQUIRE(window.document().open_warnings().size() == 1);
  dialog = window.findChild<QDialog*>(QStringLiteral("import_messages"));
  REQUIRE(dialog != nullptr);
  CHECK(app_test::pump_until([&] { return dialog->isVisible(); }));
  const QString text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("import_messages_list"))->toPlainText();
  INFO(text.toStdString());
  const QString entry = QString::fromStdString(entries[0].string());
  CHECK(text.contains(QStringLiteral("warning: sdf cache: ") + entry + QStringLiteral(": not a cache entry")));
  CHECK(text.contains(QStringLiteral("entry deleted, baking again")));
  CHECK(fs::file_size(entries[0]) > 64);  // baked again, whole

  // The third open reads the re-baked entry: nothing to report, the dialog goes away.
  REQUIRE(window.open_scene(scene));
  CHECK(window.document().open_warnings().isEmpty());
  CHECK_FALSE(dialog->isVisible());
}
