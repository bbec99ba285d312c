// The SDF overlays in the main window (under a display, xvfb-run in CTest): the View menu's SDF
// slice and SDF contacts actions switch the viewport's overlays, keep the slice's axis and
// position (the baker panel's), persist, and the viewport renders them without errors while the
// bowl scene runs. Skips with a message when there is no display.
#include <catch2/catch.hpp>

#include <QAction>
#include <QImage>
#include <cstdlib>
#include <filesystem>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "gui/main_window.hpp"
#include "gui/sim_runner.hpp"
#include "gui/viewport_window.hpp"
#include "support/scratch_files.hpp"

using namespace coulomb::gui;
namespace fs = std::filesystem;

TEST_CASE("the View menu's SDF overlays reach the viewport and render", "[app][window][sdf]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the SDF overlay window test");
  if (!vulkan) return;
  const fs::path dir = test::scratch_dir("app_sdf_overlays");
  const MainWindowOptions options = app_test::window_options("sdf_bowl", dir, vulkan);
  {
    MainWindow window(options);
    app_test::show_loaded(window);
    ViewportWindow* viewport = window.viewport();
    REQUIRE(viewport != nullptr);
    QAction* slice = window.action(QStringLiteral("overlay_sdf_slice"));
    QAction* samples = window.action(QStringLiteral("overlay_sdf_samples"));
    REQUIRE(slice != nullptr);
    REQUIRE(samples != nullptr);
    // The panel's slice settings (PanelEdits::sdf_slice lands here) survive toggling the menu.
    render::Overlays o = viewport->overlays();
    o.sdf_slice_axis = 0;
    o.sdf_slice_position = 0.3f;
    viewport->set_overlays(o);
    slice->setChecked(true);
    samples->setChecked(true);
    CHECK(viewport->overlays().sdf_slice);
    CHECK(viewport->overlays().sdf_samples);
    CHECK(viewport->overlays().sdf_slice_axis == 0);
    CHECK(viewport->overlays().sdf_slice_position == 0.3f);
    window.action(QStringLiteral("step"))->trigger();
    window.action(QStringLiteral("step"))->trigger();
    app_test::check_renders(*viewport, 4);
    if (const char* out = std::getenv("COULOMB_TEST_SCREENSHOT_SDF"); out && viewport->supportsGrab())
      viewport->screenshot().save(QString::fromLocal8Bit(out));
    slice->setChecked(false);
    CHECK_FALSE(viewport->overlays().sdf_slice);
    CHECK(viewport->overlays().sdf_samples);
  }
  fs::remove_all(dir);
}
