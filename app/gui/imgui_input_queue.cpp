#include "gui/imgui_input_queue.hpp"

#include <imgui.h>

namespace coulomb::gui {

void ImGuiInputQueue::mouse_position(float x, float y) {
  // Consecutive moves collapse into the latest (only the position at the next frame matters).
  if (!events_.empty() && events_.back().kind == Kind::MousePosition) {
    events_.back().x = x;
    events_.back().y = y;
    return;
  }
  Event e{Kind::MousePosition};
  e.x = x;
  e.y = y;
  events_.push_back(e);
}

void ImGuiInputQueue::mouse_button(int button, bool down) {
  if (button < 0 || button >= 5) return;
  Event e{Kind::MouseButton};
  e.index = button;
  e.down = down;
  events_.push_back(e);
}

void ImGuiInputQueue::mouse_wheel(float steps) {
  Event e{Kind::MouseWheel};
  e.y = steps;
  events_.push_back(e);
}

void ImGuiInputQueue::key(int imgui_key, bool down) {
  if (imgui_key < 0 || imgui_key >= 512) return;
  Event e{Kind::Key};
  e.index = imgui_key;
  e.down = down;
  events_.push_back(e);
}

void ImGuiInputQueue::character(unsigned int code_point) {
  Event e{Kind::Character};
  e.code_point = code_point;
  events_.push_back(e);
}

void ImGuiInputQueue::modifiers(bool ctrl, bool shift, bool alt) {
  Event e{Kind::Modifiers};
  e.ctrl = ctrl;
  e.shift = shift;
  e.alt = alt;
  events_.push_back(e);
}

bool ImGuiInputQueue::apply(ImGuiIO& io) {
  bool button_changed[5] = {};
  bool any_button_changed = false;
  bool keys_changed[512] = {};
  while (!events_.empty()) {
    const Event& e = events_.front();
    switch (e.kind) {
      case Kind::MousePosition:
        if (any_button_changed) return true;
        io.MousePos = ImVec2(e.x, e.y);
        break;
      case Kind::MouseButton:
        if (button_changed[e.index] && io.MouseDown[e.index] != e.down) return true;
        if (io.MouseDown[e.index] != e.down) {
          button_changed[e.index] = true;
          any_button_changed = true;
        }
        io.MouseDown[e.index] = e.down;
        break;
      case Kind::MouseWheel: io.MouseWheel += e.y; break;
      case Kind::Key:
        if (keys_changed[e.index] && io.KeysDown[e.index] != e.down) return true;
        if (io.KeysDown[e.index] != e.down) keys_changed[e.index] = true;
        io.KeysDown[e.index] = e.down;
        break;
      case Kind::Character:
        io.AddInputCharacter(e.code_point);  // 1.86 queues characters itself
        break;
      case Kind::Modifiers:
        io.KeyCtrl = e.ctrl;
        io.KeyShift = e.shift;
        io.KeyAlt = e.alt;
        break;
    }
    events_.pop_front();
  }
  return false;
}

}  // namespace coulomb::gui
