// The display check that decides between the desktop app and the headless run (app/cli/main.cpp,
// packaging/run.sh): windowless Qt platforms and missing or dead displays mean headless.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <string>

#include "gui/gui_main.hpp"

namespace {

// Sets an environment variable for the scope, restoring the old value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = std::string(old);
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("the display check: windowless platforms and dead displays run headless", "[app][display]") {
  SECTION("no display at all") {
    ScopedEnv platform("QT_QPA_PLATFORM", nullptr);
    ScopedEnv x("DISPLAY", nullptr);
    ScopedEnv wayland("WAYLAND_DISPLAY", nullptr);
    const auto check = coulomb::gui::check_display();
    CHECK_FALSE(check.available);
    CHECK(check.reason.find("DISPLAY") != std::string::npos);
  }
  SECTION("an X display nobody serves") {
    ScopedEnv platform("QT_QPA_PLATFORM", nullptr);
    ScopedEnv x("DISPLAY", ":4711");
    ScopedEnv wayland("WAYLAND_DISPLAY", nullptr);
    const auto check = coulomb::gui::check_display();
    CHECK_FALSE(check.available);
    CHECK(check.reason.find(":4711") != std::string::npos);
  }
  SECTION("the offscreen platform has no windows, whatever $DISPLAY says") {
    ScopedEnv platform("QT_QPA_PLATFORM", "offscreen");
    ScopedEnv x("DISPLAY", ":0");
    CHECK_FALSE(coulomb::gui::check_display().available);
  }
  SECTION("a remote X display is trusted") {
    ScopedEnv platform("QT_QPA_PLATFORM", nullptr);
    ScopedEnv x("DISPLAY", "otherhost:10.0");
    ScopedEnv wayland("WAYLAND_DISPLAY", nullptr);
    CHECK(coulomb::gui::check_display().available);
  }
}
