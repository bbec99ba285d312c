#include "gui/gui_main.hpp"

#include <QApplication>
#include <QMessageBox>
#include <QVersionNumber>
#include <QVulkanInstance>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/backend.hpp"
#include "cli/cli_common.hpp"
#include "gui/main_window.hpp"
#include "gui/vulkan_validation.hpp"

namespace coulomb::gui {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool path_exists(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::exists(p, ec);
}

// ":0", ":1.0", "unix:2" -> the local socket's number; -1 for remote displays ("host:0").
int local_x_display(const std::string& display) {
  std::string d = display;
  if (d.rfind("unix:", 0) == 0) d = d.substr(4);
  if (d.empty() || d[0] != ':') return -1;
  const std::string number = d.substr(1, d.find('.') == std::string::npos ? std::string::npos : d.find('.') - 1);
  char* end = nullptr;
  const long n = std::strtol(number.c_str(), &end, 10);
  return end != number.c_str() && *end == '\0' && n >= 0 ? static_cast<int>(n) : -1;
}

}  // namespace

DisplayCheck check_display() {
  const std::string platform = env("QT_QPA_PLATFORM");
  for (const char* windowless : {"offscreen", "minimal", "vnc", "vkkhrdisplay", "eglfs", "linuxfb"})
    if (platform.rfind(windowless, 0) == 0) return {false, "QT_QPA_PLATFORM=" + platform + " has no desktop windows"};
  const bool want_x = platform.rfind("xcb", 0) == 0;
  const bool want_wayland = platform.rfind("wayland", 0) == 0;

  const std::string wayland = env("WAYLAND_DISPLAY");
  if (!wayland.empty() && !want_x) {
    const std::filesystem::path socket =
        wayland[0] == '/' ? std::filesystem::path(wayland) : std::filesystem::path(env("XDG_RUNTIME_DIR")) / wayland;
    if (path_exists(socket)) return {true, "Wayland display " + wayland};
  }
  const std::string x = env("DISPLAY");
  if (!x.empty() && !want_wayland) {
    const int n = local_x_display(x);
    if (n < 0) return {true, "X display " + x};
    if (path_exists("/tmp/.X11-unix/X" + std::to_string(n))) return {true, "X display " + x};
    return {false, "$DISPLAY=" + x + " but no X server listens there"};
  }
  return {false, "no $DISPLAY or $WAYLAND_DISPLAY"};
}

int run_gui(int argc, char** argv, const std::string& scene_path, bool start_on_cpu) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Coulomb"));
  QApplication::setApplicationName(QStringLiteral("coulomb"));
  QApplication::setApplicationDisplayName(QStringLiteral("Coulomb"));

  QVulkanInstance vulkan;
  vulkan.setApiVersion(QVersionNumber(1, 1));  // the shaders are SPIR-V 1.3 (Vulkan 1.1)
  if (!env("COULOMB_VULKAN_VALIDATION").empty() && !enable_vulkan_validation(vulkan))
    std::fprintf(stderr, "coulomb: COULOMB_VULKAN_VALIDATION is set but VK_LAYER_KHRONOS_validation is not installed\n");
  const bool have_vulkan = vulkan.create();

  MainWindowOptions options;
  // A shipped scene's name works as on the command line ("arch"); a bad path reaches the window,
  // which shows why it cannot be opened.
  auto resolved = scene_path.empty() ? sim::Result<std::string>(std::string()) : resolve_scene(scene_path);
  options.scene_path = QString::fromStdString(resolved ? *resolved : scene_path);
  options.vulkan = have_vulkan ? &vulkan : nullptr;
  const Backend backend = detect_backend();
  options.device = backend.device;
  options.start_on_cpu = start_on_cpu;
  options.device_missing = backend.why_not;
  if (backend.device)
    std::printf("coulomb: backend %s%s\n", start_on_cpu ? "cpu (--backend cpu; the Solver panel offers " : "",
                (backend.description + (start_on_cpu ? ")" : "")).c_str());
  MainWindow window(options);
  window.show();
  if (!have_vulkan)
    QMessageBox::warning(&window, QStringLiteral("Coulomb"),
                         QStringLiteral("Vulkan is not available (error %1); the viewport is off.")
                             .arg(static_cast<int>(vulkan.errorCode())));
  return app.exec();
}

}  // namespace coulomb::gui
