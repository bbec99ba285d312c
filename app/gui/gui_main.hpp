// Entry points of the desktop app for the `coulomb` executable (app/cli/main.cpp): whether a
// display is there to open a window on, and the Qt application itself.
#pragma once

#include <string>

namespace coulomb::gui {

struct DisplayCheck {
  bool available = false;
  std::string reason;  // why not (for the headless fallback's message), or which display
};

// A window can be opened when $WAYLAND_DISPLAY or $DISPLAY names a reachable display (its socket
// exists; remote X displays are trusted) and QT_QPA_PLATFORM does not ask for a windowless
// platform (offscreen, minimal, vnc).
DisplayCheck check_display();

// Runs the Qt application with the main window; opens `scene_path` (empty: the last scene or
// the default one) and steps on the CUDA device where one is found, or on the CPU from the start
// with `start_on_cpu` (`coulomb open --backend cpu`; the Solver panel still offers the device).
// Returns the exit code.
int run_gui(int argc, char** argv, const std::string& scene_path, bool start_on_cpu);

}  // namespace coulomb::gui
