// The Model's shell arrays from the SceneSpec's shells (constraint/shell_rows.hpp).
#pragma once

#include <string>

#include "sim/model.hpp"
#include "sim/spec.hpp"

namespace sim {

// Each shell triangle's rest frame (D_m⁻¹, area) and plane-stress material, and each interior
// edge's hinge (rest dihedral angle, k = D ℓ²/(A1 + A2)) when the shell bends (D > 0), at the
// particles' positions in the spec. Returns an error naming the shell element and triangle or
// edge, else "".
std::string compile_shells(const SceneSpec& spec, Model& model);

}  // namespace sim
