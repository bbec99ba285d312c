// The property path: every editable value of a scene, addressed by (item, name), read from and
// written to a SceneSpec, and classified as a parameter-only edit (patch the compiled Model's
// arrays between steps) or a structural one (recompile). The property panel, the undo commands,
// the solver combos and the tests all go through these functions. No Qt here.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/model.hpp"
#include "sim/recompile.hpp"
#include "sim/spec.hpp"

namespace coulomb::gui {

// An item of the scene tree. Shapes: `index` is the body (-1: world geometry), `sub` the shape.
enum class ItemKind { None, Scene, Solver, Material, Body, Shape, Joint, Particle, SoftBody };

struct ItemRef {
  ItemKind kind = ItemKind::None;
  int index = -1;
  int sub = -1;
  bool operator==(const ItemRef&) const = default;
};

// Names: "friction", "mass", "thickness", "pos.x", "half_extents.y", "lower", "stiffness", solver
// keys ("ncp", "linear_solver", "newton_iterations", ...), "dt", "gravity.z", ...
struct PropertyKey {
  ItemRef item;
  std::string name;
  bool operator==(const PropertyKey&) const = default;
};

// Numbers are doubles; choices (drive mode, material, solver enums) and solver options are strings
// (solver options in sim::set_solver_option's syntax).
using PropertyValue = std::variant<double, bool, std::string>;

enum class PropertyType { Real, Integer, Bool, Choice };

struct PropertyInfo {
  PropertyKey key;
  std::string label;
  PropertyType type = PropertyType::Real;
  PropertyValue value;
  std::vector<std::string> choices;  // Choice: the values (as set_property takes them)
  double minimum = -1e9, maximum = 1e9, step = 0.01;
  int decimals = 4;
  std::string unit;                  // "kg", "m", "N m/rad", ...
  bool structural = false;           // editing it recompiles the model
  std::string tooltip;
};

// Properties of an item, in display order (empty for an unknown item).
std::vector<PropertyInfo> describe_item(const sim::SceneSpec& spec, const ItemRef& item);
// The label of an item for trees and undo texts ("body 'crate'", "shape 2 of 'arm'").
std::string item_label(const sim::SceneSpec& spec, const ItemRef& item);
bool item_exists(const sim::SceneSpec& spec, const ItemRef& item);

std::optional<PropertyValue> get_property(const sim::SceneSpec& spec, const PropertyKey& key);
// Sets the value in the spec; returns an error message (the spec is unchanged then) or "".
std::string set_property(sim::SceneSpec& spec, const PropertyKey& key, const PropertyValue& value);

// The engine's name for the edit of `key` (sim/recompile.hpp); nullopt for no item and for soft
// bodies (their material edits recompile: the engine has no value patch for tets yet).
std::optional<sim::SpecEdit> spec_edit(const PropertyKey& key);
// sim::is_value_edit: the edit can be patched into a compiled Model (no recompile): the field
// table's values, friction and grains, thickness, masses, armature, joint limits and drives, dt,
// gravity and solver options. Shape sizes, poses, densities, fixed flags and the like change
// mass properties or structure and need a recompile.
bool is_parameter_only(const sim::SceneSpec& spec, const PropertyKey& key);
// sim::patch_model for the property's value in `spec` (already edited): true when patched; false
// (model untouched) when the edit needs a recompile or does not compile.
bool patch_model(sim::Model& model, const sim::SceneSpec& spec, const PropertyKey& key);

std::string to_display(const PropertyValue& value);
bool same_value(const PropertyValue& a, const PropertyValue& b);

// The soft body whose tets hold `particle` (-1: none), for the property view of a picked particle.
int soft_body_of_particle(const sim::SceneSpec& spec, int particle);

// Index of the model's first shape for spec body `body` (-1: world shapes come first).
int model_shape_index(const sim::SceneSpec& spec, int body, int shape);
// The shape item of model shape `model_shape` (kind None when there is no such shape).
ItemRef shape_item(const sim::SceneSpec& spec, int model_shape);

}  // namespace coulomb::gui
