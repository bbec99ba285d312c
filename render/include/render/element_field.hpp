// The per-element colour field overlay: one scalar per body and per particle (speed, contact
// force, mass), mapped through a perceptually uniform colour map (viridis) onto the elements in
// place of their own colours. The caller computes the values (it holds the State and the
// Workspace the renderer never sees) and passes them in FrameInput::element_values.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"

namespace render {

enum class ElementField {
  None,
  Speed,         // |v| of the centre of mass or particle [m/s]
  ContactForce,  // sum of the normal contact forces λ_n the element receives [N]
  Mass,          // [kg]; fixed bodies and particles: NaN (drawn grey)
  // Soft bodies (render/src/tet_fields.hpp): per tet, carried to the particles (the surface
  // vertices) by rest-volume-weighted means; NaN for bodies and particles without tets.
  VolumetricStrain,  // J − 1 = det F − 1 (paper Fig. 13)
  MaxStretch,        // largest principal stretch σ_max(F); cloth and ropes: largest l/l₀
  VonMises,          // von Mises equivalent of the material's Cauchy stress [Pa]
  MinDihedral,       // element quality: smallest dihedral angle of the particle's tets [deg]
};

// "speed", "contact force", "mass", "volumetric strain", "max stretch", "von Mises stress",
// "min dihedral angle", "none"
const char* element_field_name(ElementField field);
const char* element_field_unit(ElementField field);  // "m/s", "N", "kg", "", "", "Pa", "deg", ""
// "none", "speed", "contact_force" (or "contact force"), "mass", "volumetric_strain",
// "max_stretch", "von_mises", "min_dihedral"; nullopt for anything else.
std::optional<ElementField> parse_element_field(const std::string& name);

// values[0 .. body_count) per body, then per particle (resized to body_count + particle_count).
// `workspace` may be null (ContactForce then gives 0). NaN marks elements the field does not
// apply to. No allocation once `values` has its size.
void compute_element_field(const sim::Model& model, const sim::State& state, const sim::Workspace* workspace,
                           ElementField field, std::vector<float>& values);

struct FieldRange {
  float lo = 0, hi = 0;
};
// The finite values' minimum and maximum; an all-NaN or empty field gives {0, 0}.
FieldRange field_range(std::span<const float> values);
// What the colour map spans for `field`: field_range, widened about its middle to the field's
// smallest meaningful span (strain and stretch 0.02, von Mises 1 Pa, dihedral angle 1 deg), so
// that a body at rest (J − 1 ~ 1e-15 everywhere) is one colour, not its round-off in every colour.
FieldRange display_range(ElementField field, std::span<const float> values);

// Viridis (matplotlib's colour map, a polynomial fit), linear RGB, for t in [0, 1] (clamped).
glm::vec3 viridis(float t);
// What an element of value v is drawn with: viridis((v − lo)/(hi − lo)) (the middle of the map
// when hi <= lo), grey for NaN.
glm::vec3 field_color(float v, const FieldRange& range);
// The same map for legends drawn outside the renderer (the viewport's ImGui overlay, the PNGs of
// `coulomb render`): `stops` >= 2 evenly spaced colours from lo to hi, and the no-value grey,
// sRGB-encoded in [0, 1] as they appear on screen.
std::vector<glm::vec3> field_map_srgb(int stops);
glm::vec3 field_none_srgb();
// Paints the map as a bar into an RGBA8 image (rows top to bottom, sRGB) at its bottom left:
// low end left, high end right, framed in black, a no-value grey swatch beside it. The numbers go
// beside the image (`coulomb render` prints them): the renderer draws no text.
void draw_field_legend_bar(std::vector<std::uint8_t>& rgba, int width, int height);

}  // namespace render
