#include "ui/sdf_baker_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace ui {

namespace {

// ImGui's InputText over a std::string (grows the string as the user types).
int resize_callback(ImGuiInputTextCallbackData* data) {
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* s = static_cast<std::string*>(data->UserData);
    s->resize(static_cast<std::size_t>(data->BufTextLen));
    data->Buf = s->data();
  }
  return 0;
}

bool input_string(const char* label, std::string& s) {
  return ImGui::InputText(label, s.data(), s.capacity() + 1, ImGuiInputTextFlags_CallbackResize, resize_callback, &s);
}

const char* feature_name(int k) {
  static const char* const names[6] = {"-", "vertex", "edge", "face", "core", "cloth face"};
  return names[std::clamp(k, 0, 5)];
}

}  // namespace

SdfContactSummary summarise_sdf_contacts(const sim::Workspace& workspace) {
  SdfContactSummary s;
  long long total = 0;
  int n = 0;
  for (const sim::Contact& c : workspace.contacts.contacts) {
    if (c.sdf_feature == sim::SdfFeature::None) continue;
    ++s.count[static_cast<std::size_t>(c.sdf_feature)];
    total += c.sdf_iterations;
    s.max_evaluations = std::max(s.max_evaluations, int(c.sdf_iterations));
    ++n;
  }
  s.mean_evaluations = n > 0 ? double(total) / n : 0.0;
  return s;
}

void choose_sdf_shape(SdfBakerPanelView& v, int index) {
  if (index < 0 || index >= int(v.shapes.size())) return;
  v.shape_choice = index;
  v.voxel_size = v.shapes[std::size_t(index)].voxel_size;
  v.band = v.shapes[std::size_t(index)].band;
}

SdfBakerRequests sdf_baker_panel(SdfBakerPanelView& v) {
  SdfBakerRequests r;
  if (!ImGui::Begin("SDF baker")) {
    ImGui::End();
    return r;
  }
  ImGui::RadioButton("scene shape", &v.source, 0);
  ImGui::SameLine();
  ImGui::RadioButton("mesh file", &v.source, 1);
  if (v.source == 0) {
    if (v.shapes.empty()) {
      ImGui::TextDisabled("the scene has no triangle-mesh shape");
    } else {
      v.shape_choice = std::clamp(v.shape_choice, 0, int(v.shapes.size()) - 1);
      const SdfBakerShape& current = v.shapes[std::size_t(v.shape_choice)];
      if (ImGui::BeginCombo("shape", current.label.c_str())) {
        for (int i = 0; i < int(v.shapes.size()); ++i)
          if (ImGui::Selectable(v.shapes[std::size_t(i)].label.c_str(), i == v.shape_choice)) choose_sdf_shape(v, i);
        ImGui::EndCombo();
      }
      ImGui::TextDisabled("%d triangles, grid %.4g m, band %.3g voxels", current.triangles, current.voxel_size,
                          current.band);
    }
  } else {
    input_string("file", v.path);
  }
  ImGui::InputFloat("voxel size [m]", &v.voxel_size, 0.0005f, 0.005f, "%.5f");
  ImGui::InputFloat("band [voxels]", &v.band, 0.5f, 1.0f, "%.2f");
  v.voxel_size = std::max(v.voxel_size, 0.0f);
  v.band = std::max(v.band, 1.0f);
  const bool have_source = v.source == 0 ? !v.shapes.empty() : !v.path.empty();
  const bool valid = have_source && v.voxel_size > 0.0f;
  ImGui::BeginDisabled(v.running || !valid);
  if (ImGui::Button("Bake")) r.bake = true;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(v.running || !v.can_apply);
  if (ImGui::Button("Apply to simulation")) r.apply = true;
  ImGui::EndDisabled();
  if (v.running || v.has_result) {
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%s %.0f%%", v.running ? v.stage.c_str() : "done", 100.0 * v.progress);
    ImGui::ProgressBar(v.progress, ImVec2(-1.0f, 0.0f), overlay);
  }
  if (v.has_result) {
    ImGui::Separator();
    ImGui::TextWrapped("%s", v.result_source.c_str());
    if (!v.result_ok) {
      ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "failed: %s", v.result_error.c_str());
    } else {
      const sim::SdfBakeReport& b = v.report;
      ImGui::Text("%s   %.3f s (bake %.3f, nanovdb %.3f, io %.3f)", b.cache_hit ? "cache hit" : "cache miss",
                  b.seconds, b.bake_seconds, b.convert_seconds, b.io_seconds);
      ImGui::Text("voxel %.4g m, band %.3g voxels, %s", double(b.voxel_size), double(b.band),
                  b.signed_field ? "signed" : "unsigned (open mesh)");
      ImGui::Text("%zu active voxels, NanoVDB %.2f MB", b.active_voxels, double(b.nanovdb_bytes) / 1e6);
      if (b.openvdb_bytes > 0) ImGui::Text("OpenVDB %.2f MB, peak RSS %.0f MB", double(b.openvdb_bytes) / 1e6,
                                           double(b.peak_rss_bytes) / 1e6);
      for (const std::string& w : b.warnings) ImGui::TextColored(ImVec4(1, 0.8f, 0.2f, 1), "%s", w.c_str());
    }
  }
  if (ImGui::CollapsingHeader("Slice and samples overlays", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::TextDisabled("View menu: SDF slice, SDF samples");
    static const char* const axes[3] = {"x", "y", "z"};
    if (ImGui::Combo("slice axis", &v.slice_axis, axes, 3)) r.slice = true;
    if (ImGui::SliderFloat("slice position", &v.slice_position, 0.0f, 1.0f, "%.3f")) r.slice = true;
    ImGui::Text("SDF contacts:");
    for (int k = 1; k < 6; ++k)
      if (v.contacts.count[std::size_t(k)] > 0) {
        ImGui::SameLine();
        ImGui::Text("%s %d", feature_name(k), v.contacts.count[std::size_t(k)]);
      }
    ImGui::Text("evaluations: mean %.1f, max %d", v.contacts.mean_evaluations, v.contacts.max_evaluations);
    ImGui::TextDisabled("colour: 1 cyan, %d yellow, %d magenta", std::max(v.max_iterations / 2, 1), v.max_iterations);
    ImGui::TextDisabled("markers: vertex +, edge x, face hexagon");
  }
  ImGui::End();
  return r;
}

}  // namespace ui
