// The descriptor arrays of the field table (sim/spec_fields.hpp): one sim::Field per entry, with
// member pointers into the Spec type and the Model, so loops over them keep compile-time types.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <type_traits>

#include "sim/model.hpp"
#include "sim/spec.hpp"
#include "sim/spec_fields.hpp"

namespace sim {

#define SIM_FIELD_ENTRY(Spec, member, model_array, element, label, unit, linear_unit, value, range_kind, unset, \
                        unset_word, step, doc)                                                                      \
  Field<Spec>{#member, element, label, unit, linear_unit, Real(value), FieldRange::range_kind, Real(unset),           \
              unset_word, Real(step), doc, &Spec::member, &Model::model_array},
#define SIM_DERIVED_FIELD_ENTRY(Spec, member, element, label, unit, linear_unit, value, range_kind, unset, unset_word, \
                                step, doc)                                                                           \
  Field<Spec>{#member, element, label, unit, linear_unit, Real(value), FieldRange::range_kind, Real(unset),           \
              unset_word, Real(step), doc, &Spec::member, nullptr},

#define SIM_JOINT_ENTRY(...) SIM_FIELD_ENTRY(JointSpec, __VA_ARGS__)
#define SIM_BODY_DERIVED_ENTRY(...) SIM_DERIVED_FIELD_ENTRY(BodySpec, __VA_ARGS__)
#define SIM_MATERIAL_ENTRY(...) SIM_FIELD_ENTRY(MaterialSpec, __VA_ARGS__)
#define SIM_MATERIAL_DERIVED_ENTRY(...) SIM_DERIVED_FIELD_ENTRY(MaterialSpec, __VA_ARGS__)
#define SIM_PARTICLE_ENTRY(...) SIM_FIELD_ENTRY(ParticleSpec, __VA_ARGS__)
#define SIM_PARTICLE_DERIVED_ENTRY(...) SIM_DERIVED_FIELD_ENTRY(ParticleSpec, __VA_ARGS__)

inline constexpr std::array kJointFields{SIM_JOINT_FIELDS(SIM_JOINT_ENTRY)};
inline constexpr std::array kBodyFields{SIM_BODY_DERIVED_FIELDS(SIM_BODY_DERIVED_ENTRY)};
inline constexpr std::array kMaterialFields{SIM_MATERIAL_FIELDS(SIM_MATERIAL_ENTRY)
                                                SIM_MATERIAL_DERIVED_FIELDS(SIM_MATERIAL_DERIVED_ENTRY)};
inline constexpr std::array kParticleFields{SIM_PARTICLE_FIELDS(SIM_PARTICLE_ENTRY)
                                                SIM_PARTICLE_DERIVED_FIELDS(SIM_PARTICLE_DERIVED_ENTRY)};

#undef SIM_JOINT_ENTRY
#undef SIM_BODY_DERIVED_ENTRY
#undef SIM_MATERIAL_ENTRY
#undef SIM_MATERIAL_DERIVED_ENTRY
#undef SIM_PARTICLE_ENTRY
#undef SIM_PARTICLE_DERIVED_ENTRY
#undef SIM_FIELD_ENTRY
#undef SIM_DERIVED_FIELD_ENTRY

// The table of a Spec type.
template <class Spec>
constexpr const auto& fields_of() {
  if constexpr (std::is_same_v<Spec, JointSpec>) return kJointFields;
  else if constexpr (std::is_same_v<Spec, BodySpec>) return kBodyFields;
  else if constexpr (std::is_same_v<Spec, MaterialSpec>) return kMaterialFields;
  else return kParticleFields;
}

// The entry named `name` of a table, or null.
template <class Spec>
const Field<Spec>* find_field(std::string_view name) {
  for (const Field<Spec>& f : fields_of<Spec>())
    if (f.name == name) return &f;
  return nullptr;
}

// The first field of `spec` outside its range, or null (compile_model's and the editor's check).
template <class Spec>
const Field<Spec>* field_out_of_range(const Spec& spec) {
  for (const Field<Spec>& f : fields_of<Spec>())
    if (!f.accepts(spec.*f.spec)) return &f;
  return nullptr;
}

}  // namespace sim
