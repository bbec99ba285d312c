// The History panel (MuJoCo simulate's history scrubber and keyframes): a slider over the states
// the simulation recorded (bounded by a memory budget, shown with what it holds), buttons one step
// back and forward, and the scene's keyframes (save the current state by name, restore, delete).
// Moving the slider pauses on that state; Play or Step resumes from it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ui {

struct HistoryPanelView {
  std::size_t size = 0;          // states held
  std::size_t capacity = 0;      // states the budget holds
  long cursor = -1;              // the state shown; -1: the newest (live)
  double first_time = 0, last_time = 0;  // [s]
  std::size_t bytes = 0, budget = 0;     // [bytes]
  std::vector<std::string> keyframes;    // the scene's keyframe names
  char new_keyframe[64] = "key";         // the name field (caller-owned, kept between frames)
};

struct HistoryPanelEdits {
  std::optional<long> seek;              // show this state (an index into the history)
  long step = 0;                         // show the state this many steps away
  std::optional<std::size_t> budget;     // a new memory budget [bytes]
  std::optional<std::string> save_keyframe;  // save the current state under this name
  int restore_keyframe = -1;             // index into keyframes
  int delete_keyframe = -1;
  bool any() const {
    return seek || step != 0 || budget || save_keyframe || restore_keyframe >= 0 || delete_keyframe >= 0;
  }
};

// The budgets the panel offers [MiB].
inline constexpr int kHistoryBudgetsMiB[] = {16, 64, 256, 1024};

HistoryPanelEdits history_panel(HistoryPanelView& view);

}  // namespace ui
