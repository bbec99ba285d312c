#include "ui/color_legend.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>

namespace ui {

std::string legend_number(float value) {
  if (!std::isfinite(value)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", static_cast<double>(value));
  return text;
}

void color_legend(const ColorLegendView& v) {
  if (!v.shown || v.colors.size() < 2) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Top centre: between the panel columns, clear of the teleoperation hints at the bottom.
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, 8.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.6f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##color_legend", nullptr, flags)) {
    ImGui::Text("%s%s%s%s", v.name.c_str(), v.unit.empty() ? "" : " [", v.unit.c_str(), v.unit.empty() ? "" : "]");
    const float width = 220.0f, height = 14.0f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    auto color = [](const std::array<float, 3>& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c[0], c[1], c[2], 1.0f)); };
    const std::size_t n = v.colors.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {  // one horizontal gradient per pair of stops
      const float x0 = at.x + width * static_cast<float>(i) / static_cast<float>(n - 1);
      const float x1 = at.x + width * static_cast<float>(i + 1) / static_cast<float>(n - 1);
      const ImU32 a = color(v.colors[i]), b = color(v.colors[i + 1]);
      draw->AddRectFilledMultiColor(ImVec2(x0, at.y), ImVec2(x1, at.y + height), a, b, b, a);
    }
    ImGui::Dummy(ImVec2(width, height));
    const std::string lo = legend_number(v.lo), hi = legend_number(v.hi);
    ImGui::TextUnformatted(lo.c_str());
    ImGui::SameLine(width - ImGui::CalcTextSize(hi.c_str()).x + ImGui::GetStyle().WindowPadding.x);
    ImGui::TextUnformatted(hi.c_str());
    const ImVec2 swatch = ImGui::GetCursorScreenPos();
    draw->AddRectFilled(swatch, ImVec2(swatch.x + height, swatch.y + height), color(v.none));
    ImGui::Dummy(ImVec2(height, height));
    ImGui::SameLine();
    ImGui::TextDisabled("no value (not a soft body, inverted)");
  }
  ImGui::End();
}

}  // namespace ui
