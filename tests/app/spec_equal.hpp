// Field-by-field comparison of two SceneSpecs (source locations aside), exact to the bit: the
// scene writer's round trip must reproduce every value. Returns "" when equal, else the first
// difference ("bodies[3].pose.rot: ...").
#pragma once

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/field_table.hpp"
#include "sim/model.hpp"
#include "sim/spec.hpp"

namespace app_test {

class SpecDiff {
 public:
  std::string first;

  template <class T>
  void same(const std::string& what, const T& a, const T& b) {
    if (!first.empty() || a == b) return;
    std::ostringstream s;
    s.precision(17);
    s << what << ": " << show(a) << " vs " << show(b);
    first = s.str();
  }

  // Position and rotation (quaternion coefficients) as "<what>.pos" and "<what>.rot".
  void same_pose(const std::string& what, const sim::Pose& a, const sim::Pose& b) {
    same(what + ".pos", a.pos, b.pos);
    same(what + ".rot", a.rot.coeffs(), b.rot.coeffs());
  }

  // "<what>.size", then compare(d, "<what>[i]", a[i], b[i]) for each index both have.
  template <class T, class Compare>
  void each(const std::string& what, const std::vector<T>& a, const std::vector<T>& b, Compare&& compare) {
    same(what + ".size", a.size(), b.size());
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
      compare(*this, what + "[" + std::to_string(i) + "]", a[i], b[i]);
  }

 private:
  template <class T>
  static std::string show(const T& v) {
    std::ostringstream s;
    s.precision(17);
    if constexpr (requires { v.transpose(); }) s << v.transpose();
    else if constexpr (requires { s << v; }) s << v;
    else s << "(value)";
    return s.str();
  }
};

// Every field of the table (sim/spec_fields.hpp) of the item, as "<what>.<field>".
template <class Spec>
void compare_fields(SpecDiff& d, const std::string& w, const Spec& a, const Spec& b) {
  for (const sim::Field<Spec>& f : sim::fields_of<Spec>()) d.same(w + "." + std::string(f.name), a.*f.spec, b.*f.spec);
}

inline void compare_shape(SpecDiff& d, const std::string& w, const sim::ShapeSpec& a, const sim::ShapeSpec& b) {
  d.same(w + ".type", static_cast<int>(a.type), static_cast<int>(b.type));
  d.same_pose(w + ".local", a.local, b.local);
  d.same(w + ".radius", a.radius, b.radius);
  d.same(w + ".half_length", a.half_length, b.half_length);
  d.same(w + ".half_extents", a.half_extents, b.half_extents);
  d.each(w + ".vertices", a.vertices, b.vertices,
         [](SpecDiff& e, const std::string& v, const sim::Vec3& x, const sim::Vec3& y) { e.same(v, x, y); });
  d.same(w + ".triangles.size", a.triangles.size(), b.triangles.size());
  d.same(w + ".uvs.size", a.uvs.size(), b.uvs.size());
  d.same(w + ".uvs equal", a.uvs == b.uvs, true);
  d.same(w + ".sdf_voxel_size", a.sdf_voxel_size, b.sdf_voxel_size);
  d.same(w + ".sdf_band", a.sdf_band, b.sdf_band);
  d.same(w + ".material", a.material, b.material);
  d.same(w + ".thickness", a.thickness, b.thickness);
  d.same(w + ".density", a.density, b.density);
  d.same(w + ".contype", a.contype, b.contype);
  d.same(w + ".conaffinity", a.conaffinity, b.conaffinity);
}

inline void compare_grain(SpecDiff& d, const std::string& w, const sim::StructureFieldSpec& a,
                          const sim::StructureFieldSpec& b) {
  d.same(w + ".kind", static_cast<int>(a.kind), static_cast<int>(b.kind));
  if (a.kind == sim::StructureFieldKind::None && b.kind == sim::StructureFieldKind::None) return;
  d.same(w + ".direction", a.direction, b.direction);
  d.same(w + ".normal", a.normal, b.normal);
  d.same(w + ".center", a.center, b.center);
  d.same(w + ".width", a.width, b.width);
  d.same(w + ".amplitude", a.amplitude, b.amplitude);
  d.same(w + ".wavelength", a.wavelength, b.wavelength);
  d.same(w + ".expression", a.expression, b.expression);
  d.same(w + ".texture", a.texture, b.texture);
  d.same(w + ".image equal", a.image == b.image || (a.image && b.image && *a.image == *b.image), true);
}

inline void compare_material(SpecDiff& d, const std::string& w, const sim::MaterialSpec& a,
                             const sim::MaterialSpec& b) {
  d.same(w + ".name", a.name, b.name);
  compare_fields(d, w, a, b);
  compare_grain(d, w + ".structure", a.structure, b.structure);
}

inline void compare_body(SpecDiff& d, const std::string& w, const sim::BodySpec& a, const sim::BodySpec& b) {
  d.same(w + ".name", a.name, b.name);
  d.same_pose(w + ".pose", a.pose, b.pose);
  d.same(w + ".linear_velocity", a.linear_velocity, b.linear_velocity);
  d.same(w + ".angular_velocity", a.angular_velocity, b.angular_velocity);
  d.same(w + ".fixed", a.fixed, b.fixed);
  compare_fields(d, w, a, b);
  d.same(w + ".inertia", a.inertia, b.inertia);
  d.same(w + ".inertia_frame", a.inertia_frame.coeffs(), b.inertia_frame.coeffs());
  d.same(w + ".com", a.com, b.com);
  d.each(w + ".shapes", a.shapes, b.shapes, compare_shape);
  compare_grain(d, w + ".structure", a.structure, b.structure);
}

inline void compare_particle(SpecDiff& d, const std::string& w, const sim::ParticleSpec& a,
                             const sim::ParticleSpec& b) {
  d.same(w + ".position", a.position, b.position);
  d.same(w + ".velocity", a.velocity, b.velocity);
  compare_fields(d, w, a, b);
  d.same(w + ".material", a.material, b.material);
}

inline void compare_distance(SpecDiff& d, const std::string& w, const sim::DistanceSpec& a,
                             const sim::DistanceSpec& b) {
  d.same(w + ".particle_a", a.particle_a, b.particle_a);
  d.same(w + ".particle_b", a.particle_b, b.particle_b);
  d.same(w + ".rest_length", a.rest_length, b.rest_length);
  d.same(w + ".compliance", a.compliance, b.compliance);
}

inline void compare_attachment(SpecDiff& d, const std::string& w, const sim::ParticleAttachmentSpec& a,
                               const sim::ParticleAttachmentSpec& b) {
  d.same(w + ".particle", a.particle, b.particle);
  d.same(w + ".body", a.body, b.body);
  d.same(w + ".local_point", a.local_point, b.local_point);
  d.same(w + ".compliance", a.compliance, b.compliance);
}

inline void compare_soft_group(SpecDiff& d, const std::string& w, const sim::SoftGroupSpec& a, const sim::SoftGroupSpec& b) {
  d.same(w + ".name", a.name, b.name);
  d.same(w + ".pressure", a.pressure, b.pressure);
}

inline void compare_joint(SpecDiff& d, const std::string& w, const sim::JointSpec& a, const sim::JointSpec& b) {
  d.same(w + ".name", a.name, b.name);
  d.same(w + ".type", static_cast<int>(a.type), static_cast<int>(b.type));
  d.same(w + ".body_a", a.body_a, b.body_a);
  d.same(w + ".body_b", a.body_b, b.body_b);
  d.same_pose(w + ".frame_a", a.frame_a, b.frame_a);
  d.same_pose(w + ".frame_b", a.frame_b, b.frame_b);
  d.same(w + ".axis", a.axis, b.axis);
  d.same(w + ".limited", a.limited, b.limited);
  d.same(w + ".lower", a.lower, b.lower);
  d.same(w + ".upper", a.upper, b.upper);
  d.same(w + ".drive", static_cast<int>(a.drive), static_cast<int>(b.drive));
  compare_fields(d, w, a, b);
}

// Robot includes: the resolved path (the written `file` is relative to wherever it was saved).
inline void compare_robot(SpecDiff& d, const std::string& w, const sim::RobotIncludeSpec& a,
                          const sim::RobotIncludeSpec& b) {
  d.same(w + ".path", a.path, b.path);
  d.same(w + ".format", a.format, b.format);
  d.same_pose(w + ".base", a.base, b.base);
  d.same(w + ".fixed_base", a.fixed_base, b.fixed_base);
  d.same(w + ".self_collision", a.self_collision, b.self_collision);
  d.same(w + ".prefix", a.prefix, b.prefix);
  d.same(w + ".density", a.density, b.density);
  d.same(w + ".material", a.material, b.material);
  d.same(w + ".drive", static_cast<int>(a.drive), static_cast<int>(b.drive));
  d.same(w + ".stiffness", a.stiffness, b.stiffness);
  d.same(w + ".damping", a.damping, b.damping);
  d.same(w + ".first_material", a.first_material, b.first_material);
  d.same(w + ".material_count", a.material_count, b.material_count);
  d.same(w + ".first_world_shape", a.first_world_shape, b.first_world_shape);
  d.same(w + ".world_shape_count", a.world_shape_count, b.world_shape_count);
  d.same(w + ".first_body", a.first_body, b.first_body);
  d.same(w + ".body_count", a.body_count, b.body_count);
  d.same(w + ".first_joint", a.first_joint, b.first_joint);
  d.same(w + ".joint_count", a.joint_count, b.joint_count);
  using Position = std::pair<std::string, sim::Real>;
  d.each(w + ".joint_positions", a.joint_positions, b.joint_positions,
         [](SpecDiff& e, const std::string& v, const Position& x, const Position& y) {
           e.same(v + ".name", x.first, y.first);
           e.same(v + ".value", x.second, y.second);
         });
}

// Compares everything but source locations and source_file.
inline std::string spec_difference(const sim::SceneSpec& a, const sim::SceneSpec& b) {
  SpecDiff d;
  d.same("name", a.name, b.name);
  d.same("gravity", a.gravity, b.gravity);
  d.same("dt", a.dt, b.dt);
  const sim::SolverOptions& s = a.solver;
  const sim::SolverOptions& t = b.solver;
  d.same("solver.kind", static_cast<int>(s.kind), static_cast<int>(t.kind));
  d.same("solver.pgs_iterations", s.pgs_iterations, t.pgs_iterations);
  d.same("solver.pgs_relaxation", s.pgs_relaxation, t.pgs_relaxation);
  d.same("solver.ncp", static_cast<int>(s.ncp), static_cast<int>(t.ncp));
  d.same("solver.preconditioner", static_cast<int>(s.preconditioner), static_cast<int>(t.preconditioner));
  d.same("solver.linear_solver", static_cast<int>(s.linear_solver), static_cast<int>(t.linear_solver));
  d.same("solver.newton_iterations", s.newton_iterations, t.newton_iterations);
  d.same("solver.linear_iterations", s.linear_iterations, t.linear_iterations);
  d.same("solver.newton_tolerance", s.newton_tolerance, t.newton_tolerance);
  d.same("solver.newton_velocity_tolerance", s.newton_velocity_tolerance, t.newton_velocity_tolerance);
  d.same("solver.line_search", s.line_search, t.line_search);
  d.same("solver.linear_tolerance", s.linear_tolerance, t.linear_tolerance);
  d.same("solver.linear_forcing_max", s.linear_forcing_max, t.linear_forcing_max);
  d.same("solver.damping", s.damping, t.damping);
  d.same("solver.regularization", s.regularization, t.regularization);
  d.same("solver.warm_start", s.warm_start, t.warm_start);
  d.same("solver.geometric_stiffness", s.geometric_stiffness, t.geometric_stiffness);
  d.same("solver.element_geometric_stiffness", s.element_geometric_stiffness, t.element_geometric_stiffness);
  d.same("solver.rope_geometric_stiffness", s.rope_geometric_stiffness, t.rope_geometric_stiffness);
  d.same("solver.project_friction", s.project_friction, t.project_friction);
  d.same("solver.friction_merit_natural_map", s.friction_merit_natural_map, t.friction_merit_natural_map);
  d.same("solver.implicit_gyroscopic", s.implicit_gyroscopic, t.implicit_gyroscopic);
  d.same("solver.jacobi_weight", s.jacobi_weight, t.jacobi_weight);
  d.same("solver.substeps", s.substeps, t.substeps);
  d.same("solver.step_retries", s.step_retries, t.step_retries);
  d.same("solver.contact_margin", s.contact_margin, t.contact_margin);
  d.same("solver.divergence_limit", s.divergence_limit, t.divergence_limit);
  d.same("solver.joint_angle_error_limit", s.joint_angle_error_limit, t.joint_angle_error_limit);
  d.same("solver.joint_position_error_limit", s.joint_position_error_limit, t.joint_position_error_limit);

  d.each("materials", a.materials, b.materials, compare_material);
  d.each("world_shapes", a.world_shapes, b.world_shapes, compare_shape);
  d.each("bodies", a.bodies, b.bodies, compare_body);
  d.each("particles", a.particles, b.particles, compare_particle);
  d.each("distances", a.distances, b.distances, compare_distance);
  d.same("particle_triangles.size", a.particle_triangles.size(), b.particle_triangles.size());
  d.each("soft_groups", a.soft_groups, b.soft_groups, compare_soft_group);
  d.same("soft_bodies.size", a.soft_bodies.size(), b.soft_bodies.size());
  for (std::size_t i = 0; i < a.soft_bodies.size() && i < b.soft_bodies.size(); ++i) {
    d.same("soft_bodies[" + std::to_string(i) + "].tet_group", a.soft_bodies[i].tet_group, b.soft_bodies[i].tet_group);
    d.same("soft_bodies[" + std::to_string(i) + "].self_collision", a.soft_bodies[i].self_collision,
           b.soft_bodies[i].self_collision);
    d.same("soft_bodies[" + std::to_string(i) + "].render_mesh", bool(a.soft_bodies[i].render_mesh),
           bool(b.soft_bodies[i].render_mesh));
  }
  d.same("self_collision_particles.size", a.self_collision_particles.size(), b.self_collision_particles.size());
  d.each("attachments", a.attachments, b.attachments, compare_attachment);
  d.each("joints", a.joints, b.joints, compare_joint);
  d.each("robots", a.robots, b.robots, compare_robot);
  return d.first;
}

// The compiled values a value edit can reach, compared exactly: every Model array of the field
// table, and what compile derives from the table's other fields and the edits (masses and
// inertia, principal frames, limits and drive modes, friction axes and structure fields, shape
// thickness and material, particle masses, dt, gravity). "" when equal, else the first difference.
inline std::string model_value_difference(const sim::Model& a, const sim::Model& b) {
  SpecDiff d;
  auto arrays = [&](const auto& table) {
    for (const auto& f : table)
      if (f.model) d.same("model." + std::string(f.name), a.*f.model, b.*f.model);
  };
  arrays(sim::kJointFields);
  arrays(sim::kBodyFields);
  arrays(sim::kMaterialFields);
  arrays(sim::kParticleFields);
  d.same("body_inv_mass", a.body_inv_mass, b.body_inv_mass);
  d.each("body_inertia", a.body_inertia, b.body_inertia,
         [](SpecDiff& e, const std::string& w, const sim::Vec3& x, const sim::Vec3& y) { e.same(w, x, y); });
  d.each("body_inv_inertia", a.body_inv_inertia, b.body_inv_inertia,
         [](SpecDiff& e, const std::string& w, const sim::Vec3& x, const sim::Vec3& y) { e.same(w, x, y); });
  d.each("body_frame_in_com", a.body_frame_in_com, b.body_frame_in_com,
         [](SpecDiff& e, const std::string& w, const sim::Pose& x, const sim::Pose& y) { e.same_pose(w, x, y); });
  d.same("joint_limited", a.joint_limited, b.joint_limited);
  d.same("joint_lower", a.joint_lower, b.joint_lower);
  d.same("joint_upper", a.joint_upper, b.joint_upper);
  d.same("joint_drive.size", a.joint_drive.size(), b.joint_drive.size());
  for (std::size_t j = 0; j < a.joint_drive.size() && j < b.joint_drive.size(); ++j)
    d.same("joint_drive[" + std::to_string(j) + "]", static_cast<int>(a.joint_drive[j]), static_cast<int>(b.joint_drive[j]));
  d.same("material_friction_major", a.material_friction_major, b.material_friction_major);
  d.same("material_friction_minor", a.material_friction_minor, b.material_friction_minor);
  d.same("material_structure_field", a.material_structure_field, b.material_structure_field);
  d.same("body_structure_field", a.body_structure_field, b.body_structure_field);
  d.same("structure_fields.size", a.structure_fields.size(), b.structure_fields.size());
  d.same("shape_thickness", a.shape_thickness, b.shape_thickness);
  d.same("shape_material", a.shape_material, b.shape_material);
  d.same("particle_inv_mass", a.particle_inv_mass, b.particle_inv_mass);
  d.same("particle_material", a.particle_material, b.particle_material);
  d.same("dt", a.dt, b.dt);
  d.same("gravity", a.gravity, b.gravity);
  return d.first;
}

}  // namespace app_test
