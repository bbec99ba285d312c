#include "gui/friction_properties.hpp"

namespace coulomb::gui {
namespace {

using K = sim::StructureFieldKind;

PropertyInfo grain_real(const ItemRef& item, const std::string& name, const std::string& label, double value,
                        double lo, double hi, const std::string& unit) {
  PropertyInfo p;
  p.key = {item, name};
  p.label = label;
  p.type = PropertyType::Real;
  p.value = value;
  p.minimum = lo;
  p.maximum = hi;
  p.step = 0.05;
  p.decimals = 4;
  p.unit = unit;
  return p;
}

void grain_vec3(std::vector<PropertyInfo>& out, const ItemRef& item, const std::string& name, const std::string& label,
                const sim::Vec3& v, const std::string& unit) {
  static const char* const kComponents[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i)
    out.push_back(grain_real(item, name + "." + kComponents[i], label + " " + kComponents[i], v[i], -1e6, 1e6, unit));
}

bool procedural(K kind) { return kind != K::None && kind != K::Constant && kind != K::Texture; }

}  // namespace

const std::vector<std::string>& grain_type_choices() {
  static const std::vector<std::string> kChoices = {"none", "constant", "channel", "spread", "slalom", "radial", "expression"};
  return kChoices;
}

void describe_grain(const sim::StructureFieldSpec& g, const ItemRef& item, std::vector<PropertyInfo>& out) {
  PropertyInfo type;
  type.key = {item, "grain"};
  type.label = "grain (anisotropic friction)";
  type.type = PropertyType::Choice;
  type.value = std::string(sim::to_string(g.kind));
  type.choices = grain_type_choices();
  if (g.kind == K::Texture) type.choices.push_back("texture");
  type.tooltip = "the direction of greatest friction over the surface (thesis ch. 3, matchstick model)";
  out.push_back(type);
  if (g.kind == K::None || g.kind == K::Texture) return;
  grain_vec3(out, item, "grain_direction", g.kind == K::Constant ? "grain direction" : "grain x axis", g.direction, "");
  if (!procedural(g.kind)) return;
  grain_vec3(out, item, "grain_normal", "grain plane normal", g.normal, "");
  grain_vec3(out, item, "grain_center", "grain centre", g.center, "m");
  if (g.kind == K::Channel || g.kind == K::Spread)
    out.push_back(grain_real(item, "grain_width", "grain width", g.width, 1e-6, 1e6, "m"));
  if (g.kind == K::Slalom) {
    out.push_back(grain_real(item, "grain_amplitude", "slalom amplitude", g.amplitude, -1e6, 1e6, "m"));
    out.push_back(grain_real(item, "grain_wavelength", "slalom wavelength", g.wavelength, 1e-6, 1e6, "m"));
  }
}

bool is_grain_property(const std::string& base) { return base == "grain" || base.rfind("grain_", 0) == 0; }

std::string set_grain_property(sim::StructureFieldSpec& grain, const std::string& base, int component,
                               std::optional<double> number, std::optional<std::string> text) {
  sim::StructureFieldSpec g = grain;
  const sim::Real r = number ? static_cast<sim::Real>(*number) : sim::Real(0);
  if (base == "grain") {
    if (!text) return "expected a grain type";
    const auto kind = sim::parse_structure_field_kind(*text);
    if (!kind) return "unknown grain type '" + *text + "'";
    g.kind = *kind;
    if (g.kind == K::Expression && g.expression.empty()) g.expression = "0.5*sin(2*x)";
    if (g.kind == K::Texture && g.texture.empty()) return "a texture grain needs a file";
  } else if (base == "grain_direction") {
    g.direction[component] = r;
  } else if (base == "grain_normal") {
    g.normal[component] = r;
  } else if (base == "grain_center") {
    g.center[component] = r;
  } else if (base == "grain_width") {
    g.width = r;
  } else if (base == "grain_amplitude") {
    g.amplitude = r;
  } else if (base == "grain_wavelength") {
    g.wavelength = r;
  } else {
    return "no grain property '" + base + "'";
  }
  if (std::string e = sim::check_structure_field(g); !e.empty()) return e;
  grain = g;
  return {};
}

}  // namespace coulomb::gui
