#include "ui/friction_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <numbers>

namespace ui {

const std::vector<std::string>& friction_grain_choices() {
  static const std::vector<std::string> kChoices = {"none", "constant", "channel", "spread", "slalom", "radial", "expression"};
  return kChoices;
}

void choose_grain(const FrictionPanelView& view, int choice, FrictionPanelEdits& out) {
  const auto& choices = friction_grain_choices();
  if (choice < 0 || choice >= static_cast<int>(choices.size())) return;
  out.material = view.material;
  out.edits.push_back({"grain", 0, choices[static_cast<std::size_t>(choice)]});
}

void set_grain_angle(const FrictionPanelView& view, float degrees, FrictionPanelEdits& out) {
  const double a = double(degrees) * std::numbers::pi / 180.0;
  const double x = std::cos(a), y = std::sin(a);
  out.material = view.material;
  if (std::abs(x) >= std::abs(y)) {
    out.edits.push_back({"grain_direction.x", x, {}});
    out.edits.push_back({"grain_direction.y", y, {}});
  } else {
    out.edits.push_back({"grain_direction.y", y, {}});
    out.edits.push_back({"grain_direction.x", x, {}});
  }
}

const std::vector<int>& texture_resolutions() {
  static const std::vector<int> kSizes = {64, 128, 256, 512, 1024};
  return kSizes;
}

const char* brush_mode_name(int mode) {
  static const char* const kNames[] = {"comb", "smooth", "rotate", "erase"};
  return mode >= 0 && mode < 4 ? kNames[mode] : "comb";
}

void set_brush(FrictionPanelView& view, const FrictionBrushView& brush, FrictionPanelEdits& out) {
  view.brush = brush;
  out.material = view.material;  // the brush paints the selected material's texture
  out.brush_changed = true;
  out.brush = brush;
}

void texture_action(const FrictionPanelView& view, TextureAction action, FrictionPanelEdits& out) {
  out.material = view.material;
  out.texture = action;
  const auto& sizes = texture_resolutions();
  out.resolution = sizes[static_cast<std::size_t>(std::clamp(view.new_resolution, 0, int(sizes.size()) - 1))];
  out.path = view.texture_path;
}

namespace {

void texture_section(FrictionPanelView& view, FrictionPanelEdits& out) {
  if (!ImGui::CollapsingHeader("Texture grain", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (view.texture)
    ImGui::Text("%s: %d x %d texels", view.texture_file.c_str(), view.texture_width, view.texture_height);
  else
    ImGui::TextWrapped("A grain painted over a mesh's UVs. Create a blank texture (the material's shapes need UVs).");
  const auto& sizes = texture_resolutions();
  const std::string size_label = std::to_string(sizes[static_cast<std::size_t>(std::clamp(view.new_resolution, 0, int(sizes.size()) - 1))]);
  ImGui::SetNextItemWidth(90);
  if (ImGui::BeginCombo("##resolution", size_label.c_str())) {
    for (int i = 0; i < static_cast<int>(sizes.size()); ++i)
      if (ImGui::Selectable(std::to_string(sizes[static_cast<std::size_t>(i)]).c_str(), i == view.new_resolution))
        view.new_resolution = i;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("New blank texture")) texture_action(view, TextureAction::NewBlank, out);
  ImGui::InputText("File", view.texture_path, sizeof view.texture_path);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip(".png (16-bit; 8-bit read too) or .exr; relative to the working folder");
  if (ImGui::Button("Import")) texture_action(view, TextureAction::Import, out);
  ImGui::SameLine();
  if (view.texture && ImGui::Button("Export")) texture_action(view, TextureAction::Export, out);
  if (!view.texture_message.empty()) ImGui::TextWrapped("%s", view.texture_message.c_str());
  if (!view.texture) return;
  ImGui::Separator();
  FrictionBrushView& b = view.brush;
  bool changed = ImGui::Checkbox("Paint (left drag on the mesh)", &b.painting);
  for (int m = 0; m < 4; ++m) {
    if (m) ImGui::SameLine();
    changed = ImGui::RadioButton(brush_mode_name(m), &b.mode, m) || changed;
  }
  changed = ImGui::SliderFloat("Radius [m]", &b.radius, 0.005f, 2.0f, "%.3f", ImGuiSliderFlags_Logarithmic) || changed;
  changed = ImGui::SliderFloat("Strength", &b.strength, 0.01f, 1.0f, "%.2f") || changed;
  if (b.mode == 2) changed = ImGui::SliderFloat("Turn per dab [deg]", &b.rotate_deg, -45.0f, 45.0f, "%.1f") || changed;
  changed = ImGui::Checkbox("Show grain glyphs", &b.glyphs) || changed;
  if (changed) set_brush(view, b, out);
  ImGui::TextDisabled("Ctrl+Z / Ctrl+Shift+Z undo and redo a stroke");
}

}  // namespace

FrictionPanelEdits friction_panel(FrictionPanelView& view) {
  FrictionPanelEdits out;
  if (!ImGui::Begin("Friction")) {
    ImGui::End();
    return out;
  }
  if (view.materials.empty()) {
    ImGui::TextUnformatted("The scene has no materials.");
    ImGui::End();
    return out;
  }
  if (view.material < 0 || view.material >= static_cast<int>(view.materials.size())) view.material = 0;
  if (ImGui::BeginCombo("Material", view.materials[static_cast<std::size_t>(view.material)].c_str())) {
    for (int i = 0; i < static_cast<int>(view.materials.size()); ++i)
      if (ImGui::Selectable(view.materials[static_cast<std::size_t>(i)].c_str(), i == view.material)) view.material = i;
    ImGui::EndCombo();
  }
  auto number = [&](const char* label, const char* name, float& value, float lo, float hi, const char* format) {
    if (ImGui::SliderFloat(label, &value, lo, hi, format)) {
      out.material = view.material;
      out.edits.push_back({name, double(value), {}});
    }
  };
  number("mu (isotropic)", "friction", view.mu, 0.0f, 2.0f, "%.3f");
  number("mu_major (along grain)", "friction_major", view.mu_major, 0.0f, 2.0f, "%.3f");
  number("mu_minor (across grain)", "friction_minor", view.mu_minor, 0.0f, 2.0f, "%.3f");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The cone is the ellipse (mu_major, mu_minor) where both grains align, mu where they cross.");
  const auto& choices = friction_grain_choices();
  const char* current = view.grain >= 0 && view.grain < static_cast<int>(choices.size())
                            ? choices[static_cast<std::size_t>(view.grain)].c_str() : "texture";
  if (ImGui::BeginCombo("Grain", current)) {
    for (int i = 0; i < static_cast<int>(choices.size()); ++i)
      if (ImGui::Selectable(choices[static_cast<std::size_t>(i)].c_str(), i == view.grain) && i != view.grain) {
        view.grain = i;
        choose_grain(view, i, out);
      }
    ImGui::EndCombo();
  }
  const std::string& kind = view.grain >= 0 && view.grain < static_cast<int>(choices.size())
                                ? choices[static_cast<std::size_t>(view.grain)] : std::string("texture");
  if (kind != "none" && kind != "texture") {
    if (ImGui::SliderFloat(kind == "constant" ? "Direction [deg]" : "Axis [deg]", &view.direction_deg, -180.0f, 180.0f, "%.1f"))
      set_grain_angle(view, view.direction_deg, out);
  }
  if (kind == "channel" || kind == "spread") number("Width [m]", "grain_width", view.width, 0.01f, 5.0f, "%.3f");
  if (kind == "slalom") {
    number("Amplitude [m]", "grain_amplitude", view.amplitude, -2.0f, 2.0f, "%.3f");
    number("Wavelength [m]", "grain_wavelength", view.wavelength, 0.05f, 20.0f, "%.2f");
  }
  if (kind != "none" && kind != "constant" && kind != "texture") {
    number("Centre x [m]", "grain_center.x", view.center[0], -10.0f, 10.0f, "%.2f");
    number("Centre y [m]", "grain_center.y", view.center[1], -10.0f, 10.0f, "%.2f");
  }
  texture_section(view, out);
  ImGui::Separator();
  ImGui::Text("Last step: %d contacts, %d anisotropic", view.contacts, view.anisotropic_contacts);
  if (view.anisotropic_contacts > 0) ImGui::Text("Mean grain alignment d: %.3f", double(view.mean_alignment));
  ImGui::End();
  return out;
}

}  // namespace ui
