// Authoring anisotropic friction in the app without a display: the property path's friction and
// grain properties (patched into a running model exactly as a recompile would build it), refused
// values, and the ImGui Friction panel's setters reaching the next step's contacts.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "gui/friction_authoring.hpp"
#include "gui/friction_properties.hpp"
#include "gui/scene_properties.hpp"
#include "sim/compile.hpp"
#include "support/scene_builders.hpp"
#include "ui/friction_panel.hpp"

using coulomb::gui::ItemKind;
using coulomb::gui::PropertyKey;
using coulomb::gui::PropertyValue;
using sim::Real;
using sim::Vec3;

namespace {

// A grained floor and two boxes, one with its own grain.
sim::SceneSpec friction_scene() {
  sim::SceneSpec spec;
  const int floor = test::add_material(spec, "floor", 0.5);
  spec.materials[floor].friction_major = 0.9;
  spec.materials[floor].friction_minor = 0.2;
  spec.materials[floor].structure.kind = sim::StructureFieldKind::Channel;
  const int crate = test::add_material(spec, "crate", 0.4);
  spec.world_shapes.push_back(test::ground_plane(floor));
  test::add_body(spec, "a", Vec3(0, 0.3, 0.1), 1, test::box_shape(Vec3(0.1, 0.1, 0.1), crate));
  test::add_body(spec, "b", Vec3(1, 0, 0.1), 1, test::box_shape(Vec3(0.1, 0.1, 0.1), crate));
  spec.bodies[1].structure.kind = sim::StructureFieldKind::Constant;
  return spec;
}

void check_same_friction(const sim::Model& patched, const sim::Model& r) {
  CHECK(patched.material_friction == r.material_friction);
  CHECK(patched.material_friction_major == r.material_friction_major);
  CHECK(patched.material_friction_minor == r.material_friction_minor);
  CHECK(patched.material_structure_field == r.material_structure_field);
  CHECK(patched.body_structure_field == r.body_structure_field);
  REQUIRE(patched.structure_fields.size() == r.structure_fields.size());
  for (std::size_t f = 0; f < r.structure_fields.size(); ++f) {
    const sim::StructureField &x = patched.structure_fields[f], &y = r.structure_fields[f];
    CHECK(x.kind == y.kind);
    CHECK(x.direction == y.direction);
    CHECK(x.normal == y.normal);
    CHECK(x.center == y.center);
    CHECK(x.width == y.width);
    CHECK(x.amplitude == y.amplitude);
    CHECK(x.wavenumber == y.wavenumber);
  }
}

}  // namespace

TEST_CASE("friction and grain edits patch the running model as a recompile builds it", "[app][friction][anisotropic]") {
  const sim::SceneSpec base = friction_scene();
  const sim::Model base_model = test::compile(base);
  const std::pair<PropertyKey, PropertyValue> edits[] = {
      {{{ItemKind::Material, 0}, "friction_major"}, 1.2},
      {{{ItemKind::Material, 0}, "friction_minor"}, 0.05},
      {{{ItemKind::Material, 0}, "friction"}, 0.3},
      {{{ItemKind::Material, 0}, "grain"}, std::string("slalom")},
      {{{ItemKind::Material, 0}, "grain_width"}, 0.25},
      {{{ItemKind::Material, 0}, "grain_direction.y"}, 0.5},
      {{{ItemKind::Material, 0}, "grain_center.x"}, -2.0},
      {{{ItemKind::Material, 1}, "grain"}, std::string("radial")},  // a material without a grain gets one
      {{{ItemKind::Material, 0}, "grain"}, std::string("none")},
      {{{ItemKind::Body, 1}, "grain_direction.z"}, 1.0},
      {{{ItemKind::Body, 0}, "grain"}, std::string("expression")},
      {{{ItemKind::Body, 1}, "grain"}, std::string("none")},
  };
  for (const auto& [key, value] : edits) {
    INFO(coulomb::gui::item_label(base, key.item) << " " << key.name);
    sim::SceneSpec edited = base;
    if (key.name == "grain_width") edited.materials[0].structure.kind = sim::StructureFieldKind::Channel;
    const std::string error = coulomb::gui::set_property(edited, key, value);
    INFO(error);
    REQUIRE(error.empty());
    REQUIRE(coulomb::gui::get_property(edited, key) == value);
    REQUIRE(coulomb::gui::is_parameter_only(edited, key));
    sim::Model patched = base_model;
    REQUIRE(coulomb::gui::patch_model(patched, edited, key));
    auto recompiled = sim::compile_model(edited);
    REQUIRE(recompiled.ok());
    check_same_friction(patched, recompiled.value());
  }
}

TEST_CASE("grain edits that cannot compile are refused and change nothing", "[app][friction][anisotropic]") {
  const sim::SceneSpec base = friction_scene();
  const std::pair<PropertyKey, PropertyValue> refused[] = {
      {{{ItemKind::Material, 0}, "grain_direction.x"}, 0.0},   // channel axis (0 0 0)... after x = 0: zero
      {{{ItemKind::Material, 0}, "grain_normal.z"}, 0.0},      // normal (0 0 0)
      {{{ItemKind::Material, 0}, "grain_width"}, 0.0},         // below the minimum
      {{{ItemKind::Material, 0}, "grain"}, std::string("zigzag")},
      {{{ItemKind::Material, 0}, "friction_major"}, -0.5},
      {{{ItemKind::Body, 1}, "grain_direction.x"}, 0.0},      // constant (0 0 0)
  };
  for (const auto& [key, value] : refused) {
    INFO(key.name);
    sim::SceneSpec edited = base;
    CHECK_FALSE(coulomb::gui::set_property(edited, key, value).empty());
    CHECK(edited.materials[0].structure == base.materials[0].structure);
    CHECK(edited.bodies[1].structure == base.bodies[1].structure);
    CHECK(edited.materials[0].friction_major == base.materials[0].friction_major);
  }
}

TEST_CASE("the Friction panel's setters turn the grain on the next step", "[app][friction][anisotropic]") {
  sim::SceneSpec spec = friction_scene();
  spec.bodies.pop_back();  // one box, on the floor's grain alone
  sim::Model model = test::compile(spec);
  ui::FrictionPanelView view;
  coulomb::gui::fill_friction_view(spec, nullptr, view);
  REQUIRE(view.materials.size() == 2);
  CHECK(view.mu_major == Approx(0.9));
  CHECK(view.grain == 2);  // channel
  ui::FrictionPanelEdits edits;
  ui::choose_grain(view, 1, edits);          // constant
  ui::set_grain_angle(view, 120.0f, edits);  // the larger component (y) first
  REQUIRE(edits.edits.size() == 3);
  CHECK(edits.edits[1].name == "grain_direction.y");
  for (const auto& [key, value] : coulomb::gui::friction_property_edits(edits)) {
    INFO(key.name);
    REQUIRE(coulomb::gui::set_property(spec, key, value).empty());
    REQUIRE(coulomb::gui::patch_model(model, spec, key));
  }
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  REQUIRE(sim::step(model, state, sim::make_initial_control(model), ws).ok());
  REQUIRE(ws.contacts.size() > 0);
  const Vec3 grain(std::cos(120 * std::numbers::pi / 180), std::sin(120 * std::numbers::pi / 180), 0);
  for (const sim::Contact& c : ws.contacts.contacts) {
    CHECK(c.anisotropic);
    CHECK(std::abs(c.tangent1.dot(grain)) == Approx(1).margin(1e-6));
  }
  coulomb::gui::fill_friction_view(spec, &ws, view);
  CHECK(view.grain == 1);
  CHECK(view.direction_deg == Approx(120).margin(1e-3));
  CHECK(view.anisotropic_contacts == ws.contacts.size());
  CHECK(view.mean_alignment == Approx(1));
}
