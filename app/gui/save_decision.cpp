// Save's questions before replacing a file (gui/save_decision.hpp).
#include "gui/save_decision.hpp"

#include "sim/atomic_file.hpp"

namespace coulomb::gui {

SavePlan plan_save(const std::string& path) {
  SavePlan plan;
  const sim::DestinationInfo d = sim::destination_info(path);
  if (!d.error.empty()) {
    plan.error = path + ": " + d.error;
    return plan;
  }
  if (d.via_symlink)
    plan.notes.push_back(path + " is a symbolic link: " + (d.dangling ? "created its target " : "saved to its target ") +
                         d.target);
  if (!d.exists) return plan;
  if (d.read_only) {
    plan.questions.push_back(d.target + " is read-only. Replace it anyway (it stays read-only)?");
    plan.replace_read_only = true;
  }
  if (d.hard_links > 1)
    plan.questions.push_back(d.target + " has " + std::to_string(d.hard_links - 1) + " other hard link" +
                             (d.hard_links > 2 ? "s" : "") +
                             ", which will keep the previous contents (saving gives this name a new file). Save anyway?");
  return plan;
}

}  // namespace coulomb::gui
