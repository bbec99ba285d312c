// Engine-side edits of a running scene (sim/recompile.hpp): value patches of the Model, driven by
// the field table, and the state carried over a recompile.
#include "sim/recompile.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "compile/body_inertia.hpp"
#include "sim/compile.hpp"
#include "sim/field_table.hpp"

namespace sim {

namespace {

// "pos.y" -> "pos"; "mass" -> "mass".
std::string base_name(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

bool is_grain_field(const std::string& base) { return base == "grain" || base.rfind("grain_", 0) == 0; }

template <class T>
bool in_range(const std::vector<T>& v, int i) {
  return i >= 0 && i < static_cast<int>(v.size());
}

const ShapeSpec* find_shape(const SceneSpec& spec, const SpecEdit& edit) {
  if (edit.sub < 0) return nullptr;
  const std::vector<ShapeSpec>* shapes = edit.index < 0                    ? &spec.world_shapes
                                         : in_range(spec.bodies, edit.index) ? &spec.bodies[static_cast<std::size_t>(edit.index)].shapes
                                                                             : nullptr;
  return shapes && in_range(*shapes, edit.sub) ? &(*shapes)[static_cast<std::size_t>(edit.sub)] : nullptr;
}

// Index of the model's shape `shape` of spec body `body` (-1: world shapes, which come first).
int model_shape_index(const SceneSpec& spec, int body, int shape) {
  if (body < 0) return shape;
  int index = static_cast<int>(spec.world_shapes.size());
  for (int b = 0; b < body && b < static_cast<int>(spec.bodies.size()); ++b)
    index += static_cast<int>(spec.bodies[static_cast<std::size_t>(b)].shapes.size());
  return index + shape;
}

bool is_joint_value(const std::string& base) {
  return find_field<JointSpec>(base) || base == "limited" || base == "lower" || base == "upper" || base == "drive" ||
         base == "target_limited" || base == "target_lower" || base == "target_upper";
}

// Friction as compile_model checks it (every material's and body's grain, by refresh_friction)
// into a scratch model that has only the friction arrays.
std::string check_friction(const SceneSpec& spec) {
  Model scratch;
  scratch.material_count = static_cast<int>(spec.materials.size());
  scratch.material_friction.assign(spec.materials.size(), Real(0));
  scratch.body_count = static_cast<int>(spec.bodies.size());
  return refresh_friction(spec, scratch);
}

// Copies item `i`'s table fields that have a Model array.
template <class Spec>
void copy_fields(const Spec& spec, Model& m, std::size_t i) {
  for (const Field<Spec>& f : fields_of<Spec>())
    if (f.model) (m.*f.model)[i] = spec.*f.spec;
}

// Body `b`'s mass properties recomputed from the spec; NeedsRecompile (nothing written) when its
// principal frame moved, since poses, joint frames and the state are expressed in it.
PatchOutcome patch_body_mass(Model& m, const SceneSpec& spec, int b, std::string& error) {
  auto mass = detail::body_mass_properties(spec, b);
  if (!mass) {
    error = mass.error();
    return PatchOutcome::Failed;
  }
  const auto i = static_cast<std::size_t>(b);
  // The frame as compile_model computes it. The principal axes of a scaled tensor (a new mass)
  // can differ from the old ones in the last bits: below 1e-12 the model keeps its frame (the
  // state is written in it) and takes the new moments.
  const Pose body_in_com = mass->com_in_body.inverse();
  const Pose& current = m.body_frame_in_com[i];
  const Real scale = Real(1) + current.pos.norm();
  if ((body_in_com.pos - current.pos).norm() > Real(1e-12) * scale || body_in_com.rot.angularDistance(current.rot) > Real(1e-12))
    return PatchOutcome::NeedsRecompile;
  const bool dynamic = !spec.bodies[i].fixed;
  m.body_inv_mass[i] = dynamic ? Real(1) / mass->mass : Real(0);
  m.body_inertia[i] = mass->moments;
  Vec3 inv = Vec3::Zero();
  if (dynamic)
    for (int k = 0; k < 3; ++k) inv[k] = mass->moments[k] > 0 ? Real(1) / mass->moments[k] : Real(0);
  m.body_inv_inertia[i] = inv;
  return PatchOutcome::Patched;
}

std::unordered_map<std::string, int> index_by_name(const std::vector<std::string>& names) {
  std::unordered_map<std::string, int> out;
  for (std::size_t i = 0; i < names.size(); ++i) out.emplace(names[i], static_cast<int>(i));
  return out;
}

std::string body_name_or_world(const Model& m, int body) {
  return body >= 0 ? m.body_name[static_cast<std::size_t>(body)] : std::string("\x01world");
}

// The rows before the contacts (joints, drives, limits, distances, tets) are the same rows in both.
bool same_joint_rows(const Model& a, const Model& b) {
  if (a.joint_count != b.joint_count || a.distance_count != b.distance_count) return false;
  for (std::size_t j = 0; j < static_cast<std::size_t>(a.joint_count); ++j) {
    if (a.joint_name[j] != b.joint_name[j] || a.joint_type[j] != b.joint_type[j] || a.joint_drive[j] != b.joint_drive[j] ||
        a.joint_limited[j] != b.joint_limited[j] ||
        body_name_or_world(a, a.joint_body_a[j]) != body_name_or_world(b, b.joint_body_a[j]) ||
        body_name_or_world(a, a.joint_body_b[j]) != body_name_or_world(b, b.joint_body_b[j]))
      return false;
  }
  return a.distance_particle_a == b.distance_particle_a && a.distance_particle_b == b.distance_particle_b &&
         a.tet_particle == b.tet_particle && a.tet_compliance == b.tet_compliance;
}

// Contact keys (collision/collide.cpp) hash shape and particle indices: they name the same
// contacts when every old shape keeps its index, kind and body, and the particles their count.
bool same_contact_keys(const Model& a, const Model& b) {
  if (a.particle_count != b.particle_count || b.shape_count < a.shape_count) return false;
  for (std::size_t s = 0; s < static_cast<std::size_t>(a.shape_count); ++s)
    if (a.shape_type[s] != b.shape_type[s] ||
        body_name_or_world(a, a.shape_body[s]) != body_name_or_world(b, b.shape_body[s]))
      return false;
  return true;
}

}  // namespace

bool is_value_edit(const SceneSpec& spec, const SpecEdit& edit) {
  const std::string base = base_name(edit.field);
  switch (edit.kind) {
    case SpecItemKind::Scene: return base == "dt" || base == "gravity";
    case SpecItemKind::Solver: return true;
    case SpecItemKind::Material: return find_field<MaterialSpec>(base) || is_grain_field(base);
    case SpecItemKind::Body: return find_field<BodySpec>(base) || is_grain_field(base);
    case SpecItemKind::Shape: {
      if (base == "thickness") return true;
      // A named material exists in the model under the same index; "(default)" may have to be added.
      const ShapeSpec* s = find_shape(spec, edit);
      return base == "material" && s && s->material >= 0;
    }
    case SpecItemKind::Joint: return is_joint_value(base);
    case SpecItemKind::Particle:
      if (base == "material")
        return in_range(spec.particles, edit.index) && spec.particles[static_cast<std::size_t>(edit.index)].material >= 0;
      return find_field<ParticleSpec>(base) != nullptr;
  }
  return false;
}

std::string check_value_edit(const SceneSpec& spec, const SpecEdit& edit) {
  const std::string base = base_name(edit.field);
  const auto i = static_cast<std::size_t>(edit.index);
  switch (edit.kind) {
    case SpecItemKind::Scene:
      if (!(spec.dt > 0) || !std::isfinite(spec.dt)) return detail::where({spec.source_file, 0}, "scene") + ": dt must be > 0";
      return {};
    case SpecItemKind::Solver: return {};  // set_solver_option checked it
    case SpecItemKind::Material: {
      if (!in_range(spec.materials, edit.index)) return "no material " + std::to_string(edit.index);
      const MaterialSpec& mat = spec.materials[i];
      if (std::string e = check_material(mat); !e.empty()) return e;
      return check_friction(spec);
    }
    case SpecItemKind::Body: {
      if (!in_range(spec.bodies, edit.index)) return "no body " + std::to_string(edit.index);
      const BodySpec& body = spec.bodies[i];
      if (is_grain_field(base)) return check_friction(spec);
      const std::string w = detail::where(body.source, "body") + " '" + body.name + "'";
      if (const Field<BodySpec>* f = field_out_of_range(body))
        return w + ": " + std::string(f->name) + " " + std::string(f->range_text()) + " (or -1: from the shapes)";
      auto mass = detail::body_mass_properties(spec, edit.index);
      return mass ? std::string() : mass.error();
    }
    case SpecItemKind::Shape: {
      const ShapeSpec* s = find_shape(spec, edit);
      if (!s) return "no such shape";
      if (!(s->thickness >= 0)) return detail::where(s->source, "shape") + ": thickness must be >= 0";
      return {};
    }
    case SpecItemKind::Joint: {
      if (!in_range(spec.joints, edit.index)) return "no joint " + std::to_string(edit.index);
      if (std::string e = check_joint(spec.joints[i], static_cast<int>(spec.bodies.size())); !e.empty()) return e;
      if (base == "armature") {  // the child's inertia with it
        auto mass = detail::body_mass_properties(spec, spec.joints[i].body_b);
        return mass ? std::string() : mass.error();
      }
      return {};
    }
    case SpecItemKind::Particle:
      if (!in_range(spec.particles, edit.index)) return "no particle " + std::to_string(edit.index);
      return check_particle(spec.particles[i]);
  }
  return {};
}

PatchResult patch_model(Model& m, const SceneSpec& spec, const SpecEdit& edit) {
  if (!is_value_edit(spec, edit)) return {PatchOutcome::NeedsRecompile, {}};
  if (std::string e = check_value_edit(spec, edit); !e.empty()) return {PatchOutcome::Failed, e};
  const std::string base = base_name(edit.field);
  const int index = edit.index;
  const auto i = static_cast<std::size_t>(index);
  std::string error;
  switch (edit.kind) {
    case SpecItemKind::Scene:
      if (base == "dt") m.dt = spec.dt;
      else m.gravity = spec.gravity;
      return {PatchOutcome::Patched, {}};
    case SpecItemKind::Solver:
      // The contact margin widens the SDF grids' band (baked at compile time).
      if (base == "contact_margin" && !m.meshes.empty() && spec.solver.contact_margin != m.solver.contact_margin)
        return {PatchOutcome::NeedsRecompile, {}};
      m.solver = spec.solver;
      return {PatchOutcome::Patched, {}};
    case SpecItemKind::Material: {
      if (index >= m.material_count || spec.materials.size() > static_cast<std::size_t>(m.material_count))
        return {PatchOutcome::NeedsRecompile, {}};
      Model patched_friction = m;  // refresh_friction can fail half-way: keep the model whole
      copy_fields(spec.materials[i], patched_friction, i);
      if (std::string e = refresh_friction(spec, patched_friction); !e.empty()) return {PatchOutcome::Failed, e};
      m = std::move(patched_friction);
      return {PatchOutcome::Patched, {}};
    }
    case SpecItemKind::Body: {
      if (index >= m.body_count) return {PatchOutcome::NeedsRecompile, {}};
      if (is_grain_field(base)) {
        Model patched_friction = m;
        if (std::string e = refresh_friction(spec, patched_friction); !e.empty()) return {PatchOutcome::Failed, e};
        m = std::move(patched_friction);
        return {PatchOutcome::Patched, {}};
      }
      const PatchOutcome outcome = patch_body_mass(m, spec, index, error);
      return {outcome, error};
    }
    case SpecItemKind::Shape: {
      const int s = model_shape_index(spec, edit.index, edit.sub);
      if (s < 0 || s >= m.shape_count) return {PatchOutcome::NeedsRecompile, {}};
      const ShapeSpec& shape = *find_shape(spec, edit);
      if (base == "thickness") {
        m.shape_thickness[static_cast<std::size_t>(s)] = shape.thickness;
      } else {
        if (shape.material < 0 || shape.material >= m.material_count) return {PatchOutcome::NeedsRecompile, {}};
        m.shape_material[static_cast<std::size_t>(s)] = shape.material;
      }
      return {PatchOutcome::Patched, {}};
    }
    case SpecItemKind::Joint: {
      if (index >= m.joint_count) return {PatchOutcome::NeedsRecompile, {}};
      const JointSpec& j = spec.joints[i];
      // Armature is inertia of the child body (compile/body_inertia.hpp): recomputed first, so a
      // moved principal frame leaves the model untouched.
      if (base == "armature") {
        const PatchOutcome outcome = patch_body_mass(m, spec, j.body_b, error);
        if (outcome != PatchOutcome::Patched) return {outcome, error};
      }
      m.joint_limited[i] = j.limited ? 1 : 0;
      m.joint_lower[i] = j.lower;
      m.joint_upper[i] = j.upper;
      m.joint_drive[i] = j.drive;
      m.joint_target_limited[i] = j.target_limited ? 1 : 0;
      m.joint_target_lower[i] = j.target_lower;
      m.joint_target_upper[i] = j.target_upper;
      copy_fields(j, m, i);
      return {PatchOutcome::Patched, {}};
    }
    case SpecItemKind::Particle: {
      if (index >= m.particle_count) return {PatchOutcome::NeedsRecompile, {}};
      const ParticleSpec& p = spec.particles[i];
      if (base == "material") {
        if (p.material < 0 || p.material >= m.material_count) return {PatchOutcome::NeedsRecompile, {}};
        m.particle_material[i] = p.material;
      }
      m.particle_inv_mass[i] = p.mass > 0 ? Real(1) / p.mass : Real(0);
      copy_fields(p, m, i);
      return {PatchOutcome::Patched, {}};
    }
  }
  return {PatchOutcome::NeedsRecompile, {}};
}

State remap_state(const Model& old_model, const State& old_state, const Model& new_model,
                  const std::vector<std::string>& restart_bodies) {
  State out = make_initial_state(new_model);
  out.time = old_state.time;
  out.step_index = old_state.step_index;
  if (static_cast<int>(old_state.q.size()) != old_model.coord_count() ||
      static_cast<int>(old_state.u.size()) != old_model.dof_count())
    return out;

  const auto old_bodies = index_by_name(old_model.body_name);
  bool restarted = false;
  for (int b = 0; b < new_model.body_count; ++b) {
    const std::string& name = new_model.body_name[static_cast<std::size_t>(b)];
    if (std::find(restart_bodies.begin(), restart_bodies.end(), name) != restart_bodies.end()) {
      restarted = true;
      continue;
    }
    const auto it = old_bodies.find(name);
    if (it == old_bodies.end()) continue;
    const int a = it->second;
    // World pose of the authored body frame, then the new com frame inside it.
    const Pose frame = old_state.body_pose(a) * old_model.body_frame_in_com[static_cast<std::size_t>(a)];
    const int d = new_model.body_dof(b);
    const int old_d = old_model.body_dof(a);
    const Pose& old_in_com = old_model.body_frame_in_com[static_cast<std::size_t>(a)];
    const Pose& new_in_com = new_model.body_frame_in_com[static_cast<std::size_t>(b)];
    if (old_in_com.pos == new_in_com.pos && old_in_com.rot.coeffs() == new_in_com.rot.coeffs()) {
      // The same centre-of-mass frame: pose and velocity bit for bit.
      out.set_body_pose(b, old_state.body_pose(a));
      for (int k = 0; k < 6; ++k) out.u[static_cast<std::size_t>(d + k)] = old_state.u[static_cast<std::size_t>(old_d + k)];
      continue;
    }
    Pose com = frame * new_in_com.inverse();
    com.rot.normalize();
    out.set_body_pose(b, com);
    const Vec3 v = old_state.body_velocity(a);
    const Vec3 w = old_state.body_angular_velocity(a);
    const Vec3 v_new = v + w.cross(com.pos - old_state.body_position(a));
    for (int k = 0; k < 3; ++k) {
      out.u[static_cast<std::size_t>(d + k)] = v_new[k];
      out.u[static_cast<std::size_t>(d + 3 + k)] = w[k];
    }
  }

  // Joint coordinates from the remapped poses, on the branch of the old joint of the same name.
  reset_joint_positions(new_model, out);
  const auto old_joints = index_by_name(old_model.joint_name);
  const bool old_positions = static_cast<int>(old_state.joint_position.size()) == old_model.joint_count;
  for (int j = 0; old_positions && j < new_model.joint_count; ++j) {
    const auto it = old_joints.find(new_model.joint_name[static_cast<std::size_t>(j)]);
    if (it == old_joints.end() ||
        old_model.joint_type[static_cast<std::size_t>(it->second)] != new_model.joint_type[static_cast<std::size_t>(j)])
      continue;
    // The coordinate at the remapped poses on the old one's branch; the old value itself when that
    // is it up to round-off (an unchanged joint continues bit for bit).
    const Real old_position = old_state.joint_position[static_cast<std::size_t>(it->second)];
    out.joint_position[static_cast<std::size_t>(j)] = old_position;
    const Real position = joint_position(new_model, out, j);
    out.joint_position[static_cast<std::size_t>(j)] = std::abs(position - old_position) <= Real(1e-9) ? old_position : position;
  }

  const int particles = std::min(old_model.particle_count, new_model.particle_count);
  for (int p = 0; p < particles; ++p) {
    for (int k = 0; k < 3; ++k) {
      out.q[static_cast<std::size_t>(new_model.particle_coord(p) + k)] =
          old_state.q[static_cast<std::size_t>(old_model.particle_coord(p) + k)];
      out.u[static_cast<std::size_t>(new_model.particle_dof(p) + k)] =
          old_state.u[static_cast<std::size_t>(old_model.particle_dof(p) + k)];
    }
  }

  // The warm start, where its rows and contact keys still mean the same (see the header). A
  // restarted body jumps: its old multipliers would push it the wrong way.
  if (!restarted && same_joint_rows(old_model, new_model)) out.warm_start.row_lambda = old_state.warm_start.row_lambda;
  if (!restarted && same_contact_keys(old_model, new_model)) {
    out.warm_start.contact_key = old_state.warm_start.contact_key;
    out.warm_start.contact_lambda = old_state.warm_start.contact_lambda;
  }
  return out;
}

Control remap_control(const Model& old_model, const Control& old_control, const Model& new_model) {
  Control out = make_initial_control(new_model);
  const auto old_joints = index_by_name(old_model.joint_name);
  for (int j = 0; j < new_model.joint_count; ++j) {
    const auto it = old_joints.find(new_model.joint_name[static_cast<std::size_t>(j)]);
    if (it == old_joints.end()) continue;
    const auto a = static_cast<std::size_t>(it->second);
    if (a < old_control.joint_target.size()) out.joint_target[static_cast<std::size_t>(j)] = old_control.joint_target[a];
    if (a < old_control.joint_target_velocity.size())
      out.joint_target_velocity[static_cast<std::size_t>(j)] = old_control.joint_target_velocity[a];
  }
  const auto old_groups = index_by_name(old_model.soft_group_name);  // soft-body pressures by group name
  for (int g = 0; g < new_model.soft_group_count; ++g) {
    const auto it = old_groups.find(new_model.soft_group_name[static_cast<std::size_t>(g)]);
    if (it != old_groups.end() && static_cast<std::size_t>(it->second) < old_control.soft_pressure.size())
      out.soft_pressure[static_cast<std::size_t>(g)] = old_control.soft_pressure[static_cast<std::size_t>(it->second)];
  }
  return out;
}

Result<Recompiled> recompile(const SceneSpec& spec, const Model& old_model, const State& old_state,
                             const Control& old_control, const std::vector<std::string>& restart_bodies) {
  auto compiled = compile_model(spec);
  if (!compiled) return Error{compiled.error()};
  Recompiled out;
  out.state = remap_state(old_model, old_state, *compiled, restart_bodies);
  out.control = remap_control(old_model, old_control, *compiled);
  out.model = std::move(compiled.value());
  return out;
}

}  // namespace sim
