// The anisotropic-friction properties of the property path (scene_properties.hpp): a material's
// μ_major and μ_minor, and the grain (structure field, sim/structure_field.hpp) of a material or a
// body: "grain" (the type), "grain_direction.x", "grain_normal.y", "grain_center.z",
// "grain_width", "grain_amplitude", "grain_wavelength". All are parameter edits: the running model
// takes them through sim::refresh_friction, between two steps. No Qt here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gui/scene_properties.hpp"

namespace coulomb::gui {

// The choices of the "grain" property (the types that need no file), in display order.
const std::vector<std::string>& grain_type_choices();

// Appends the grain's properties of `item` (a material or a body).
void describe_grain(const sim::StructureFieldSpec& grain, const ItemRef& item, std::vector<PropertyInfo>& out);

// True for the names describe_grain produces ("grain", "grain_*").
bool is_grain_property(const std::string& base_name);

// Sets a grain property (base name and vector component split off); "" or why the value is
// refused (the grain is left unchanged: a zero direction, one along the normal, width <= 0 ...).
std::string set_grain_property(sim::StructureFieldSpec& grain, const std::string& base_name, int component,
                               std::optional<double> number, std::optional<std::string> text);

}  // namespace coulomb::gui
