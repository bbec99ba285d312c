#include "gui/panel_layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

namespace coulomb::gui {

namespace {
constexpr float kGap = 4.0f;
}

PanelColumn::PanelColumn(float x, float top, float bottom, float width, int count, std::vector<PanelRect>& placed)
    : x_(x), y_(top), bottom_(bottom), width_(width), remaining_(count), rects_(placed) {}

void PanelColumn::place(float first_height, bool start_collapsed) {
  --remaining_;
  const float title = ImGui::GetFrameHeight();
  // Room for this panel: down to the bottom less the title bars of the panels after it.
  const float room = std::max(title, bottom_ - y_ - float(std::max(remaining_, 0)) * (title + kGap));
  ImGui::SetNextWindowPos(ImVec2(x_, y_), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width_, std::min(first_height, room)), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSizeConstraints(ImVec2(width_, 0.0f), ImVec2(width_, room));
  if (start_collapsed) ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
}

void PanelColumn::placed(const char* name) {
  const ImGuiWindow* window = ImGui::FindWindowByName(name);
  if (!window) return;
  PanelRect r{name, window->Pos.x, window->Pos.y, window->Size.x, window->Size.y, window->Collapsed};
  rects_.push_back(r);
  y_ = r.y + r.height + kGap;
}

}  // namespace coulomb::gui
