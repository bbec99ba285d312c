#include "ui/friction_panel.hpp"

#include <imgui.h>

#include <cmath>
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
  ImGui::Separator();
  ImGui::Text("Last step: %d contacts, %d anisotropic", view.contacts, view.anisotropic_contacts);
  if (view.anisotropic_contacts > 0) ImGui::Text("Mean grain alignment d: %.3f", double(view.mean_alignment));
  ImGui::End();
  return out;
}

}  // namespace ui
