// Shared set-up of the main-window tests: options for a window on a shipped scene with its
// settings in a scratch directory, showing it until the scene's model is running, and making
// its viewport render.
#pragma once

#include <catch2/catch.hpp>

#include <QString>
#include <cstdint>
#include <filesystem>
#include <string>

#include "app/qt_test_app.hpp"
#include "gui/main_window.hpp"
#include "gui/sim_runner.hpp"
#include "gui/viewport_window.hpp"

namespace app_test {

// The shipped scene `scene` (assets/scenes/<scene>.xml), settings in <dir>/settings.ini.
inline coulomb::gui::MainWindowOptions window_options(const std::string& scene, const std::filesystem::path& dir,
                                                      QVulkanInstance* vulkan) {
  coulomb::gui::MainWindowOptions options;
  options.scene_path = scene_path(scene);
  options.settings_file = QString::fromStdString((dir / "settings.ini").string());
  options.vulkan = vulkan;
  return options;
}

// Shows the window and requires it to become visible with its scene's model published.
inline void show_loaded(coulomb::gui::MainWindow& window) {
  window.show();
  REQUIRE(pump_until([&] { return window.isVisible() && window.runner().latest().model != nullptr; }));
}

// Asks the viewport for frames (an idle one draws only when asked) until `count` have been
// rendered in all, and checks that they were, without a render error.
inline void check_renders(coulomb::gui::ViewportWindow& viewport, std::uint64_t count) {
  const bool rendered = pump_until([&] {
    viewport.requestUpdate();
    return viewport.frames_rendered() >= count || !viewport.render_error().isEmpty();
  }, 60000);
  INFO("render error: " << viewport.render_error().toStdString());
  CHECK(rendered);
  CHECK(viewport.render_error().isEmpty());
}

}  // namespace app_test
