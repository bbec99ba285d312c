// The field table: the scalar per-joint, per-body, per-material and per-particle values of a scene,
// one entry each. An entry declares the Spec member (with its default), the Model array it is
// copied into by compile_model (or none, where compile derives the Model's value), its scene XML
// attribute and element, its label, unit, range and documentation. Everything that lists such
// fields iterates the descriptor arrays made from these lists instead of naming the fields:
//   spec.hpp / model.hpp   members and arrays (SIM_*_FIELDS expanded into the structs)
//   compile_model.cpp      copies every copied field, checks every range (file:line: <element>)
//   scene_xml.cpp          reads the attributes with the range, scene_xml_writer.cpp writes them
//                          (and the <robot> overrides), both from the same entries
//   recompile.cpp          patch_model copies the edited field into its array
//   the app's property view (app/gui/scene_properties.cpp) and the tests' spec and model
//   comparisons (tests/support/spec_equal.hpp).
// Adding a scalar field is adding one line here (and using it where the physics needs it).
//
// Entry: X(member, model_array, element, label, unit, linear_unit, default, range, unset, unset_word, step, doc)
//   member       Spec member and XML attribute / property name
//   model_array  the Model array (per owner) it is copied into
//   element      the XML element holding the attribute: the owner's own, or "drive" (a joint's <drive>)
//   unit         SI unit (revolute joints), linear_unit (prismatic joints; other owners: the same)
//   range        FieldRange: Any, NonNegative or Positive, checked on load, on compile and on edit
//   unset        a value outside the range meaning "not given" (mass -1: from the shapes), or kNoUnset
//   unset_word   how the XML writes the unset value ("unlimited"); "": it is written by leaving the
//                attribute out (then it must be the default)
//   step         the property view's spin-box step
// Fields whose Model value is derived (a body's mass becomes 1/m and scales the inertia) are in
// the *_DERIVED_FIELDS lists: same entry without model_array.
//
// Outside the table, and why: vectors, poses and quaternions (positions, velocities, inertia, com,
// shape sizes: several numbers per attribute), choices and flags (joint type, drive mode, fixed),
// references (parent/child body, material), a joint's limits (one attribute `limit="lo hi"` with
// the `limited` flag), shape thickness and density (inherited from <body>/<world> defaults in the
// XML), distance constraints and the grain (a structure field of its own, sim/structure_field.hpp).
#pragma once

#include <array>
#include <limits>
#include <string_view>
#include <vector>

#include "sim/math.hpp"

namespace sim {

enum class FieldRange { Any, NonNegative, Positive };
inline constexpr Real kNoUnset = std::numeric_limits<Real>::infinity();

// clang-format off
#define SIM_JOINT_FIELDS(X)                                                                                          \
  X(linear_compliance, joint_linear_compliance, "joint", "linear compliance", "m/N", "m/N", 0, NonNegative,          \
    kNoUnset, "", 1e-6, "e of the positional rows (eq. 8): 1/stiffness; 0 rigid")                                        \
  X(angular_compliance, joint_angular_compliance, "joint", "angular compliance", "rad/(N m)", "rad/(N m)", 0,         \
    NonNegative, kNoUnset, "", 1e-6, "e of the rotational rows (eq. 8): 1/stiffness; 0 rigid")                           \
  X(armature, joint_armature, "joint", "armature", "kg m²", "kg m²", 0, NonNegative, kNoUnset, "", 0.001,                   \
    "rotor inertia about the axis (revolute) or about every axis (ball), added to the child body's inertia about "   \
    "its centre of mass (compile_model: + armature a a^T); prismatic and fixed joints refuse it")                    \
  X(stiffness, joint_stiffness, "drive", "drive stiffness kp", "N m/rad", "N/m", 0, NonNegative, kNoUnset, "", 10,        \
    "implicit PD drive: force = -kp (q - target) - kd (qdot - target_velocity)")                                     \
  X(damping, joint_damping, "drive", "drive damping kd", "N m s/rad", "N s/m", 0, NonNegative, kNoUnset, "", 1,            \
    "drive damping; a velocity drive's compliance is 1/kd")                                                          \
  X(max_force, joint_max_force, "drive", "drive max force", "N m", "N", -1, NonNegative, -1, "unlimited", 1,                        \
    "effort limit of the drive; -1 (XML: unlimited) none")                                                           \
  X(target, joint_initial_target, "drive", "drive target", "rad", "m", 0, Any, kNoUnset, "", 0.01,                         \
    "initial position target (Control::joint_target)")                                                               \
  X(target_velocity, joint_initial_target_velocity, "drive", "drive target velocity", "rad/s", "m/s", 0, Any,          \
    kNoUnset, "", 0.01, "initial velocity target (Control::joint_target_velocity)")

#define SIM_BODY_DERIVED_FIELDS(X)                                                                                   \
  X(mass, "body", "mass", "kg", "kg", -1, Positive, -1, "", 0.1,                                                         \
    "total mass; the shapes' inertia is scaled to it. -1: from the shapes' densities")

#define SIM_MATERIAL_FIELDS(X)                                                                                       \
  X(friction, material_friction, "material", "friction", "", "", 0.5, NonNegative, kNoUnset, "", 0.05,                    \
    "Coulomb coefficient; a pair combines by the geometric mean")

#define SIM_MATERIAL_DERIVED_FIELDS(X)                                                                               \
  X(friction_major, "material", "friction along the grain", "", "", -1, NonNegative, -1, "", 0.05,                        \
    "anisotropic friction (eq. 34): the cone's axis along an aligned grain; -1: = friction")                         \
  X(friction_minor, "material", "friction across the grain", "", "", -1, NonNegative, -1, "", 0.05,                       \
    "anisotropic friction (eq. 34): the cone's axis across an aligned grain; -1: = friction")

#define SIM_PARTICLE_FIELDS(X)                                                                                       \
  X(radius, particle_radius, "particle", "radius", "m", "m", 0.01, Positive, kNoUnset, "", 0.001,                          \
    "collision radius (thickness d of eq. 9)")

#define SIM_PARTICLE_DERIVED_FIELDS(X)                                                                               \
  X(mass, "particle", "mass", "kg", "kg", 1, NonNegative, kNoUnset, "", 0.01, "mass; 0: pinned in space")
// clang-format on

// Declares the Spec members of a list (inside the Spec struct).
#define SIM_DECLARE_SPEC_FIELD(member, model_array, element, label, unit, linear_unit, value, range, unset, unset_word, \
                               step, doc)                                                                               \
  Real member = Real(value);
#define SIM_DECLARE_DERIVED_SPEC_FIELD(member, element, label, unit, linear_unit, value, range, unset, unset_word, \
                                       step, doc) \
  Real member = Real(value);
// Declares the Model arrays of a list (inside Model).
#define SIM_DECLARE_MODEL_FIELD(member, model_array, element, label, unit, linear_unit, value, range, unset, unset_word, \
                                step, doc)                                                                               \
  std::vector<Real> model_array;

struct Model;

// One scalar field of a Spec type (JointSpec, BodySpec, MaterialSpec, ParticleSpec).
template <class Spec>
struct Field {
  std::string_view name;        // Spec member, XML attribute, property name
  std::string_view element;     // XML element holding it
  std::string_view label;
  std::string_view unit;        // revolute joints and other owners
  std::string_view linear_unit; // prismatic joints
  Real default_value;
  FieldRange range;
  Real unset;                   // kNoUnset, or the value meaning "not given" (outside the range)
  std::string_view unset_word;  // the XML's word for it ("unlimited"), "" none
  Real step;                    // the property view's step
  std::string_view doc;
  Real Spec::*spec;
  std::vector<Real> Model::*model;  // null: compile_model derives the Model's value
  bool has_unset() const { return unset != kNoUnset; }
  // Whether `value` is allowed (in range, or the unset value).
  bool accepts(Real value) const {
    if (has_unset() && value == unset) return true;
    switch (range) {
      case FieldRange::Any: return value == value && value - value == 0;  // finite
      case FieldRange::NonNegative: return value >= 0 && value - value == 0;
      case FieldRange::Positive: return value > 0 && value - value == 0;
    }
    return false;
  }
  // "must be >= 0" etc.; for messages (the unset value, where there is one, is allowed too).
  std::string_view range_text() const {
    switch (range) {
      case FieldRange::Any: return "must be finite";
      case FieldRange::NonNegative: return "must be >= 0";
      case FieldRange::Positive: return "must be > 0";
    }
    return "";
  }
};

}  // namespace sim
