// Structure fields (thesis ch. 3.3): compiling a StructureFieldSpec (sim/structure_field.hpp) and
// evaluating the grain at a point of the owner's frame. Used once per contact at contact
// generation; no allocation.
#pragma once

#include <string>

#include "sim/result.hpp"
#include "sim/structure_field.hpp"

namespace sim::detail {

// Checks and compiles a field; `where` prefixes errors ("scene.xml:12: <grain>"). Texture fields
// load their image (collision/structure_texture.hpp) from `texture_path` (the spec's file resolved
// against the scene's directory).
Result<StructureField> compile_structure_field(const StructureFieldSpec& spec, const std::string& where,
                                               const std::string& texture_path = {});

// The grain at point p (owner frame) as a vector of the owner frame, not normalised and not yet
// projected into any contact plane; zero where the field has no direction (kind None, the centre of
// a radial field, a non-finite formula value). Texture fields need surface coordinates: see
// structure_texture.hpp; here they give zero.
Vec3 structure_direction(const StructureField& field, const Vec3& p);

}  // namespace sim::detail
