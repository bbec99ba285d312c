// Queued input for Dear ImGui 1.86 (Debian 12), which has no event queue: its io.MouseDown[] and
// io.KeysDown[] are sampled once per frame, so a press and release that both arrive between two
// frames (a quick click at 3-5 frames per second on lavapipe) never reach it. ImGui 1.87 added
// io.AddMouseButtonEvent / AddKeyEvent with "input trickling": events are applied in order and a
// frame stops before the second change of the same kind, so the press shows in one frame and the
// release in the next. This queue does the same for 1.86: the viewport pushes Qt's events as
// they come, DebugPanels applies them before each ImGui::NewFrame and asks for another frame while
// some remain.
#pragma once

#include <deque>

struct ImGuiIO;

namespace coulomb::gui {

class ImGuiInputQueue {
 public:
  void mouse_position(float x, float y);
  void mouse_button(int button, bool down);  // 0 left, 1 right, 2 middle
  void mouse_wheel(float steps);             // + away from the user
  void key(int imgui_key, bool down);        // an ImGuiKey index (io.KeyMap is the identity)
  void character(unsigned int code_point);
  void modifiers(bool ctrl, bool shift, bool alt);

  // Applies the queued events to `io` in order for one frame, stopping before an event that
  // would change a mouse button or key a second time in this frame, and before a mouse move
  // after a button change (the click lands where it was pressed). True while events remain: the
  // caller draws another frame for them.
  bool apply(ImGuiIO& io);
  bool empty() const { return events_.empty(); }
  std::size_t size() const { return events_.size(); }
  void clear() { events_.clear(); }

 private:
  enum class Kind { MousePosition, MouseButton, MouseWheel, Key, Character, Modifiers };
  struct Event {
    Kind kind;
    float x = 0, y = 0;
    int index = 0;  // button, key
    bool down = false;
    unsigned int code_point = 0;
    bool ctrl = false, shift = false, alt = false;
  };
  std::deque<Event> events_;
};

}  // namespace coulomb::gui
