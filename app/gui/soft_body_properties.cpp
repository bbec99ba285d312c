#include "gui/soft_body_properties.hpp"

#include <cmath>
#include <iterator>

namespace coulomb::gui {

namespace {

using sim::Real;

struct YoungPoisson {
  Real E = 0, nu = 0;
};

YoungPoisson young_poisson(const sim::SoftMaterialSpec& m) {
  if (m.lame_lambda >= 0 && m.lame_mu >= 0 && m.lame_lambda + m.lame_mu > 0) {
    const Real l = m.lame_lambda, mu = m.lame_mu;
    return {mu * (3 * l + 2 * mu) / (l + mu), l / (2 * (l + mu))};
  }
  return {m.youngs_modulus, m.poisson_ratio};
}

// The four properties in display order: name, label, range, unit, decimals, step, tooltip.
struct MaterialField {
  const char* name;
  const char* label;
  double lo, hi;
  const char* unit;
  int decimals;
  double step;
  const char* tooltip;
};
constexpr MaterialField kMaterialFields[] = {
    {"E", "Young's modulus E", 0, 1e12, "Pa", 0, 1000, "stiffness, > 0 (rubber ~1e6 Pa, a tomato ~1e5 Pa)"},
    {"nu", "Poisson's ratio ν", 0, 0.5, "", 4, 0.01, "0 <= ν < 0.5; near 0.5 the body keeps its volume"},
    {"density", "density", 0, 1e6, "kg/m³", 1, 10, "> 0; the particles' lumped masses are ρ V/4 per tet corner"},
    {"damping", "damping β", 0, 1e3, "s", 4, 0.001, "stiffness-proportional damping, >= 0"},
};

}  // namespace

void soft_body_properties(std::vector<PropertyInfo>& out, const ItemRef& item, const sim::SoftMaterialSpec& material) {
  const YoungPoisson yp = young_poisson(material);
  const double values[] = {yp.E, yp.nu, material.density, material.damping};
  for (std::size_t k = 0; k < std::size(kMaterialFields); ++k) {
    const MaterialField& f = kMaterialFields[k];
    PropertyInfo p;
    p.key = {item, f.name};
    p.label = f.label;
    p.value = values[k];
    p.minimum = f.lo, p.maximum = f.hi, p.step = f.step;
    p.decimals = f.decimals;
    p.unit = f.unit;
    p.structural = true;
    p.tooltip = f.tooltip;
    out.push_back(std::move(p));
  }
}

std::string set_soft_body_property(sim::SceneSpec& spec, int body, const std::string& name, Real value) {
  if (body < 0 || body >= static_cast<int>(spec.soft_bodies.size())) return "no such soft body";
  sim::SoftBodySpec& b = spec.soft_bodies[static_cast<std::size_t>(body)];
  sim::SoftMaterialSpec& m = b.material;
  if (!std::isfinite(value)) return "expected a finite number";
  if (name == "E" || name == "nu") {
    if (name == "E" && !(value > 0)) return "Young's modulus must be > 0 (got " + std::to_string(value) + ")";
    if (name == "nu" && !(value >= 0 && value < Real(0.5)))
      return "Poisson's ratio must be in [0, 0.5) (0.5 is incompressible: λ infinite; got " + std::to_string(value) + ")";
    const YoungPoisson yp = young_poisson(m);
    m.youngs_modulus = name == "E" ? value : yp.E;
    m.poisson_ratio = name == "nu" ? value : yp.nu;
    m.lame_lambda = m.lame_mu = -1;  // E and ν from now on
    return {};
  }
  if (name == "damping") {
    if (!(value >= 0)) return "damping must be >= 0 (got " + std::to_string(value) + ")";
    m.damping = value;
    return {};
  }
  if (name == "density") {
    if (!(value > 0)) return "density must be > 0 (got " + std::to_string(value) + ")";
    // Lumped masses from the spec's rest positions, summed as add_soft_body sums them.
    std::vector<Real> mass(spec.particles.size(), Real(0));
    std::vector<char> in_body(spec.particles.size(), 0);
    for (const auto& k : b.tets) {
      for (int c : k)
        if (c < 0 || c >= static_cast<int>(spec.particles.size())) return "tet names particle " + std::to_string(c) + " of " +
                                                                         std::to_string(spec.particles.size());
      auto x = [&](int c) { return spec.particles[static_cast<std::size_t>(k[static_cast<std::size_t>(c)])].position; };
      const Real vol = (x(1) - x(0)).cross(x(2) - x(0)).dot(x(3) - x(0)) / 6;
      for (int c : k) mass[static_cast<std::size_t>(c)] += value * vol / 4, in_body[static_cast<std::size_t>(c)] = 1;
    }
    for (std::size_t p = 0; p < spec.particles.size(); ++p)
      if (in_body[p] && spec.particles[p].mass > 0) spec.particles[p].mass = mass[p];
    m.density = value;
    return {};
  }
  return "no property '" + name + "'";
}

}  // namespace coulomb::gui
