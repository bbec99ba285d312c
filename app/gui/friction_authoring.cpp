#include "gui/friction_authoring.hpp"

#include <cmath>
#include <numbers>

namespace coulomb::gui {

void fill_friction_view(const sim::SceneSpec& spec, const sim::Workspace* workspace, ui::FrictionPanelView& view) {
  view.materials.clear();
  for (const sim::MaterialSpec& m : spec.materials) view.materials.push_back(m.name);
  if (view.material < 0 || view.material >= static_cast<int>(spec.materials.size())) view.material = 0;
  if (!spec.materials.empty()) {
    const sim::MaterialSpec& m = spec.materials[static_cast<std::size_t>(view.material)];
    view.mu = static_cast<float>(m.friction);
    view.mu_major = static_cast<float>(m.major());
    view.mu_minor = static_cast<float>(m.minor());
    const auto& choices = ui::friction_grain_choices();
    view.grain = -1;  // texture: not offered
    for (std::size_t i = 0; i < choices.size(); ++i)
      if (choices[i] == sim::to_string(m.structure.kind)) view.grain = static_cast<int>(i);
    const sim::Vec3& d = m.structure.direction;
    view.direction_deg = static_cast<float>(std::atan2(d.y(), d.x()) * 180 / std::numbers::pi);
    view.width = static_cast<float>(m.structure.width);
    view.amplitude = static_cast<float>(m.structure.amplitude);
    view.wavelength = static_cast<float>(m.structure.wavelength);
    view.center[0] = static_cast<float>(m.structure.center.x());
    view.center[1] = static_cast<float>(m.structure.center.y());
    const bool texture = m.structure.kind == sim::StructureFieldKind::Texture && m.structure.image;
    view.texture = texture;
    view.texture_file = texture ? m.structure.texture : std::string();
    view.texture_width = texture ? m.structure.image->width : 0;
    view.texture_height = texture ? m.structure.image->height : 0;
  } else {
    view.texture = false;
  }
  view.contacts = view.anisotropic_contacts = 0;
  view.mean_alignment = 0;
  if (!workspace) return;
  double alignment = 0;
  for (const sim::Contact& c : workspace->contacts.contacts) {
    ++view.contacts;
    if (!c.anisotropic) continue;
    ++view.anisotropic_contacts;
    alignment += c.grain_alignment;
  }
  if (view.anisotropic_contacts > 0) view.mean_alignment = static_cast<float>(alignment / view.anisotropic_contacts);
}

std::vector<std::pair<PropertyKey, PropertyValue>> friction_property_edits(const ui::FrictionPanelEdits& edits) {
  std::vector<std::pair<PropertyKey, PropertyValue>> out;
  if (!edits.any()) return out;
  for (const ui::FrictionPanelEdit& e : edits.edits) {
    PropertyKey key{{ItemKind::Material, edits.material, -1}, e.name};
    if (!e.text.empty()) out.emplace_back(key, PropertyValue(e.text));
    else out.emplace_back(key, PropertyValue(e.number));
  }
  return out;
}

}  // namespace coulomb::gui
