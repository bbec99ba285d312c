// The test process's one QApplication: on the display when there is one (xvfb-run sets $DISPLAY;
// the CTest wrapper sets QT_QPA_PLATFORM=xcb), else on Qt's offscreen platform so the parts that
// need no window (document, undo, property panel) still run. Window and Vulkan tests skip with a
// message when has_window_system() is false.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QThread>
#include <QVersionNumber>
#include <QVulkanInstance>
#include <QString>
#include <cstdlib>
#include <functional>
#include <string>

#include "gui/gui_main.hpp"
#include "gui/vulkan_validation.hpp"
#include "support/shipped_scenes.hpp"

namespace app_test {

inline bool& display_flag() {
  static bool flag = false;
  return flag;
}

inline QApplication& qt_app() {
  // Created once and never destroyed: Qt does not support a second QApplication in one process,
  // and tearing down the platform plugin during static destruction is fragile.
  static QApplication* app = [] {
    const coulomb::gui::DisplayCheck display = coulomb::gui::check_display();
    display_flag() = display.available;
    if (!display.available) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "coulomb_tests";
    static char* argv[] = {name, nullptr};
    auto* a = new QApplication(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("CoulombTests"));
    QApplication::setApplicationName(QStringLiteral("coulomb_tests"));
    return a;
  }();
  return *app;
}

// True when real windows can be shown (not the offscreen platform).
inline bool has_window_system() {
  qt_app();
  return display_flag();
}

inline bool& validation_flag() {
  static bool flag = false;
  return flag;
}

// The Vulkan instance for viewports, or null (no display, no Vulkan driver).
inline QVulkanInstance* vulkan_instance() {
  if (!has_window_system()) return nullptr;
  static QVulkanInstance* instance = [] {
    auto* v = new QVulkanInstance;
    v->setApiVersion(QVersionNumber(1, 1));  // as the app: the shaders are SPIR-V 1.3
    // Validation on whenever the layer is installed (packaging/install-deps.sh installs it): the
    // window tests fail on any error it reports (see validation_errors_checked()).
    validation_flag() = coulomb::gui::enable_vulkan_validation(*v);
    if (!v->create()) {
      delete v;
      return static_cast<QVulkanInstance*>(nullptr);
    }
    return v;
  }();
  return instance;
}

// has_window_system(), after a WARN naming the skipped `test` when false.
inline bool window_system_or_skip(const std::string& test) {
  if (has_window_system()) return true;
  WARN("no display ($DISPLAY/$WAYLAND_DISPLAY): skipping " << test << " (run it under xvfb-run)");
  return false;
}

// vulkan_instance(), or null after a WARN naming the skipped `test` and why (no display, no
// Vulkan driver).
inline QVulkanInstance* vulkan_instance_or_skip(const std::string& test) {
  if (!window_system_or_skip(test)) return nullptr;
  QVulkanInstance* instance = vulkan_instance();
  if (!instance) WARN("no Vulkan instance (no driver): skipping " << test);
  return instance;
}

// A shipped scene's path (assets/scenes/<name>.xml) as Qt takes it.
inline QString scene_path(const std::string& name) { return QString::fromStdString(test::scene_path(name)); }

// Processes events for `ms` milliseconds.
inline void pump(int ms) {
  QElapsedTimer t;
  t.start();
  do {
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    QThread::msleep(1);
  } while (t.elapsed() < ms);
}

// Processes events until `done` or the timeout; returns `done()`.
inline bool pump_until(const std::function<bool()>& done, int timeout_ms = 30000) {
  QElapsedTimer t;
  t.start();
  while (!done() && t.elapsed() < timeout_ms) {
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    QThread::msleep(1);
  }
  return done();
}

}  // namespace app_test
