#include "ui/history_panel.hpp"

#include <imgui.h>

#include <cstdio>
#include <cstring>

namespace ui {

HistoryPanelEdits history_panel(HistoryPanelView& v) {
  HistoryPanelEdits edits;
  if (!ImGui::Begin("History")) {
    ImGui::End();
    return edits;
  }
  const long last = static_cast<long>(v.size) - 1;
  if (v.size == 0) {
    ImGui::TextDisabled("no states recorded yet");
  } else {
    int shown = static_cast<int>(v.cursor >= 0 ? v.cursor : last);
    const double span = v.last_time - v.first_time;
    const double t = v.size > 1 ? v.first_time + span * double(shown) / double(last) : v.first_time;
    ImGui::SetNextItemWidth(-1);
    char label[64];
    std::snprintf(label, sizeof label, "t = %.3f s", t);
    if (ImGui::SliderInt("##history", &shown, 0, static_cast<int>(last), label)) edits.seek = shown;
    if (ImGui::ArrowButton("back", ImGuiDir_Left)) edits.step = -1;
    ImGui::SameLine();
    if (ImGui::ArrowButton("forward", ImGuiDir_Right)) edits.step = 1;
    ImGui::SameLine();
    if (ImGui::Button("Newest")) edits.seek = last;
    ImGui::SameLine();
    if (v.cursor >= 0) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "scrubbed: Play resumes here");
    else ImGui::TextDisabled("live");
    ImGui::Text("%zu states, %.3f .. %.3f s", v.size, v.first_time, v.last_time);
  }
  // Memory: what the ring holds of its budget.
  const double mib = double(v.bytes) / double(1 << 20), budget_mib = double(v.budget) / double(1 << 20);
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%.1f / %.0f MiB", mib, budget_mib);
  ImGui::ProgressBar(v.budget > 0 ? float(double(v.bytes) / double(v.budget)) : 0.0f, ImVec2(-1, 0), overlay);
  int current = 0;
  for (int i = 0; i < static_cast<int>(std::size(kHistoryBudgetsMiB)); ++i)
    if (std::size_t(kHistoryBudgetsMiB[i]) << 20 == v.budget) current = i;
  const char* names[] = {"16 MiB", "64 MiB", "256 MiB", "1 GiB"};
  ImGui::SetNextItemWidth(120);
  if (ImGui::Combo("memory budget", &current, names, IM_ARRAYSIZE(names)))
    edits.budget = std::size_t(kHistoryBudgetsMiB[current]) << 20;
  if (v.capacity > 0) ImGui::TextDisabled("holds %zu states of this scene", v.capacity);

  ImGui::Separator();
  ImGui::TextUnformatted("Keyframes (saved with the scene)");
  ImGui::SetNextItemWidth(160);
  ImGui::InputText("##name", v.new_keyframe, sizeof v.new_keyframe);
  ImGui::SameLine();
  const bool has_name = v.new_keyframe[0] != '\0';
  if (ImGui::Button("Save state") && has_name) edits.save_keyframe = std::string(v.new_keyframe);
  for (int i = 0; i < static_cast<int>(v.keyframes.size()); ++i) {
    ImGui::PushID(i);
    if (ImGui::SmallButton("Restore")) edits.restore_keyframe = i;
    ImGui::SameLine();
    if (ImGui::SmallButton("Delete")) edits.delete_keyframe = i;
    ImGui::SameLine();
    ImGui::TextUnformatted(v.keyframes[static_cast<std::size_t>(i)].c_str());
    ImGui::PopID();
  }
  if (v.keyframes.empty()) ImGui::TextDisabled("none");
  ImGui::End();
  return edits;
}

}  // namespace ui
