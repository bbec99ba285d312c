#include "ui/help_overlay.hpp"

#include <imgui.h>

namespace ui {

void help_overlay(const std::vector<ShortcutRow>& rows, bool* open) {
  if (!*open) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const ImVec2 size(viewport->WorkSize.x * 0.6f, viewport->WorkSize.y * 0.8f);
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                                 viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.94f);
  ImGui::SetNextWindowFocus();
  if (ImGui::Begin("Help: shortcuts (F1 closes)", open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize |
                                                            ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::IsWindowFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) *open = false;
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
      ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, size.x * 0.4f);
      ImGui::TableSetupColumn("what");
      for (const ShortcutRow& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (r.keys.empty()) {
          ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", r.what.c_str());
          ImGui::TableNextColumn();
          continue;
        }
        ImGui::TextUnformatted(r.keys.c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", r.what.c_str());
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace ui
