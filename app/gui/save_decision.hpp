// What saving a scene over a path asks the user first (issue 19, item 2), decided without Qt so
// it is tested directly; the main window shows the questions and notes (MainWindow::save_as).
// From sim::destination_info: a read-only file is replaced only after a yes (and keeps its
// permissions); a symbolic link is written through to its target, which the note names (a
// dangling one creates its target); a file with other hard links is asked about, since the
// rename gives this name new bytes and leaves the other names with the old ones.
#pragma once

#include <string>
#include <vector>

namespace coulomb::gui {

struct SavePlan {
  std::string error;                   // the file cannot be saved there at all (a folder, a device)
  std::vector<std::string> questions;  // each needs a yes before saving
  std::vector<std::string> notes;      // said after saving (where the bytes went)
  bool replace_read_only = false;      // the save needs sim::AtomicWriteOptions::replace_read_only
};

SavePlan plan_save(const std::string& path);

}  // namespace coulomb::gui
