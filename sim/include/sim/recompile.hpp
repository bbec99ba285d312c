// Edits of a running scene, engine side (MuJoCo's mj_recompile): a value edit of the SceneSpec is
// patched into the compiled Model in place (no compile), anything else is a recompile whose State
// is carried over from the old model (bodies and joints by name). Editors call these; they never
// repeat compile logic.
#pragma once

#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/spec.hpp"
#include "sim/state.hpp"

namespace sim {

// What an edit touched: an item of the SceneSpec and one of its fields, by the names the field
// table (sim/spec_fields.hpp) and the editors use ("friction", "mass", "armature", "pos.x",
// "gravity.z", "grain_direction.y", solver option keys, ...).
enum class SpecItemKind { Scene, Solver, Material, Body, Shape, Joint, Particle };
struct SpecEdit {
  SpecItemKind kind = SpecItemKind::Scene;
  int index = -1;   // material, body, joint or particle; for shapes the body (-1: world geometry)
  int sub = -1;     // shapes: the shape's index in its body (or in the world's list)
  std::string field;
};

// Whether `edit` changes values only (no topology, no shape geometry or poses), so patch_model
// can apply it: the table's fields, limits, drive mode, masses, armature, friction and grains,
// shape thickness and (named) material, particle mass, radius and material, dt, gravity, solver
// options. The spec is the edited one (a choice's new value decides, e.g. "(default)" material).
bool is_value_edit(const SceneSpec& spec, const SpecEdit& edit);

// The checks compile_model would make for the edited item, without compiling: "" or the error
// ("file:line: <joint> 'elbow': a position drive needs stiffness > 0").
std::string check_value_edit(const SceneSpec& spec, const SpecEdit& edit);

enum class PatchOutcome {
  Patched,         // the model equals compile_model(spec)'s in every array the edit reaches (a
                   // body's principal frame: kept when a recomputed one differs below 1e-12)
  NeedsRecompile,  // not a value edit, or its result moves a body's principal frame (an inertia
                   // whose axes turn): recompile and remap the state. The model is untouched.
  Failed,          // the spec does not compile (check_value_edit's message); the model is untouched
};
struct PatchResult {
  PatchOutcome outcome = PatchOutcome::NeedsRecompile;
  std::string error;  // Failed: why
};

// Applies the edited value of `spec` (already edited; otherwise the spec `model` was compiled
// from) to `model` in place.
PatchResult patch_model(Model& model, const SceneSpec& spec, const SpecEdit& edit);

// The state of `new_model` continuing `old_state` of `old_model` (a recompile):
// - bodies matched by name keep the world pose and velocity of their authored frame (their centre
//   of mass may have moved within the body when its shapes changed); bodies named in
//   `restart_bodies` (e.g. whose pose was edited) and bodies without a match take their initial
//   pose and velocity;
// - joints matched by name and type keep their unwrapped coordinate (a wheel keeps its turns);
// - particles are matched by index; time and step index carry over;
// - the warm start carries over where it still means the same rows: the joint/drive/limit/
//   distance multipliers when the joints (names, types, bodies, drive modes, limits) and the
//   distance constraints are unchanged, the contact multipliers (keyed by shape and particle
//   indices) when every old shape keeps its index, body and kind and the particles their count.
//   Otherwise that part starts cold (a Newton iteration or two, nothing more).
State remap_state(const Model& old_model, const State& old_state, const Model& new_model,
                  const std::vector<std::string>& restart_bodies = {});

// Drive targets carried over by joint name; wrenches and forces are cleared.
Control remap_control(const Model& old_model, const Control& old_control, const Model& new_model);

// compile_model(spec) and the old run carried over onto it.
struct Recompiled {
  Model model;
  State state;
  Control control;
};
Result<Recompiled> recompile(const SceneSpec& spec, const Model& old_model, const State& old_state,
                             const Control& old_control, const std::vector<std::string>& restart_bodies = {});

}  // namespace sim
