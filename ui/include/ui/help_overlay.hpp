// The F1 help overlay: every shortcut of the app (menu actions with their keys, the viewport's
// mouse and keys, teleoperation) in a two-column table over the viewport, as MuJoCo simulate's F1.
#pragma once

#include <string>
#include <vector>

namespace ui {

struct ShortcutRow {
  std::string keys;     // "Ctrl+O", "Left drag"; empty: a section heading (what)
  std::string what;
};

// Draws the overlay while *open; its close button (or Escape while it has focus) clears *open.
void help_overlay(const std::vector<ShortcutRow>& rows, bool* open);

}  // namespace ui
