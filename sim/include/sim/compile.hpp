// compile_model(): validate a SceneSpec and build the immutable Model (mass properties, principal
// frames, convex hulls, dense ids). Errors name the file, line and element.
#pragma once

#include <string>

#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/spec.hpp"

namespace sim {

Result<Model> compile_model(const SceneSpec& spec);

// The checks compile_model runs on one item (its table fields' ranges, sim/spec_fields.hpp, and
// the rules between fields): "" or "file:line: <element> 'name': what". For editors that validate
// a value edit without compiling (sim/recompile.hpp).
std::string check_joint(const JointSpec& joint, int body_count);
std::string check_material(const MaterialSpec& material);
std::string check_particle(const ParticleSpec& particle);

// Refills the model's friction from the spec's materials and bodies: μ, the anisotropic axes and
// the structure fields (thesis ch. 3), exactly as compile_model does (it calls this). For live
// edits between steps (the app's parameter patches); the materials and bodies must be the ones
// the model was compiled from. Returns "" or an error naming file, line and element (the model
// is then partly updated: recompile or re-apply the previous spec).
std::string refresh_friction(const SceneSpec& spec, Model& model);

// "self-collision: filtered 1 link pair overlapping at the initial pose: base_link/link_13.0
// (6.8 mm)" for the robot link pairs compile_model filtered (Model::initial_overlap_pairs); empty
// when there are none.
std::string describe_initial_overlaps(const Model& model);

}  // namespace sim
