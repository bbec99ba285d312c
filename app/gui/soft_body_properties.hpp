// A soft body's material in the property path (scene_properties.hpp): Young's modulus "E" [Pa],
// Poisson's ratio "nu", "density" [kg/m³] and stiffness-proportional "damping" β [s]
// (sim::SoftMaterialSpec). They are structural edits: the document compiles the edited spec and
// the simulation thread replaces the model, particles carried over by index (sim::remap_state).
// Ranges (with the reason in the message): E > 0, 0 <= ν < 0.5 (0.5 is incompressible: λ
// infinite), density > 0, damping >= 0. No Qt here.
#pragma once

#include <string>
#include <vector>

#include "gui/scene_properties.hpp"

namespace coulomb::gui {

// Appends the material's properties. A body given by Lamé parameters shows the E and ν they
// amount to (E = μ(3λ + 2μ)/(λ + μ), ν = λ/(2(λ + μ))).
void soft_body_properties(std::vector<PropertyInfo>& out, const ItemRef& item, const sim::SoftMaterialSpec& material);

// Sets one of them on soft body `body`; "" or why the value is refused (the spec is unchanged
// then). Editing E or ν of a body given by Lamé parameters switches it to E and ν (the other one
// kept at its derived value). A density edit recomputes the lumped masses of the body's free
// particles, ρ V/4 per tet corner as sim::add_soft_body does (pinned particles stay massless).
std::string set_soft_body_property(sim::SceneSpec& spec, int body, const std::string& name, sim::Real value);

}  // namespace coulomb::gui
