// Field-by-field comparison of two SceneSpecs (source locations aside), exact to the bit: the
// scene writer's round trip must reproduce every value. Returns "" when equal, else the first
// difference ("bodies[3].pose.rot: ...").
#pragma once

#include <sstream>
#include <string>

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

inline void compare_shape(SpecDiff& d, const std::string& w, const sim::ShapeSpec& a, const sim::ShapeSpec& b) {
  d.same(w + ".type", static_cast<int>(a.type), static_cast<int>(b.type));
  d.same(w + ".local.pos", a.local.pos, b.local.pos);
  d.same(w + ".local.rot", a.local.rot.coeffs(), b.local.rot.coeffs());
  d.same(w + ".radius", a.radius, b.radius);
  d.same(w + ".half_length", a.half_length, b.half_length);
  d.same(w + ".half_extents", a.half_extents, b.half_extents);
  d.same(w + ".vertices.size", a.vertices.size(), b.vertices.size());
  for (std::size_t i = 0; i < a.vertices.size() && i < b.vertices.size(); ++i)
    d.same(w + ".vertices[" + std::to_string(i) + "]", a.vertices[i], b.vertices[i]);
  d.same(w + ".triangles.size", a.triangles.size(), b.triangles.size());
  d.same(w + ".sdf_voxel_size", a.sdf_voxel_size, b.sdf_voxel_size);
  d.same(w + ".sdf_band", a.sdf_band, b.sdf_band);
  d.same(w + ".material", a.material, b.material);
  d.same(w + ".thickness", a.thickness, b.thickness);
  d.same(w + ".density", a.density, b.density);
}

// Compares everything but source locations and source_file.
inline std::string spec_difference(const sim::SceneSpec& a, const sim::SceneSpec& b) {
  SpecDiff d;
  d.same("name", a.name, b.name);
  d.same("gravity", a.gravity, b.gravity);
  d.same("dt", a.dt, b.dt);
  const sim::SolverOptions& s = a.solver;
  const sim::SolverOptions& t = b.solver;
  d.same("solver.ncp", static_cast<int>(s.ncp), static_cast<int>(t.ncp));
  d.same("solver.preconditioner", static_cast<int>(s.preconditioner), static_cast<int>(t.preconditioner));
  d.same("solver.linear_solver", static_cast<int>(s.linear_solver), static_cast<int>(t.linear_solver));
  d.same("solver.newton_iterations", s.newton_iterations, t.newton_iterations);
  d.same("solver.linear_iterations", s.linear_iterations, t.linear_iterations);
  d.same("solver.newton_tolerance", s.newton_tolerance, t.newton_tolerance);
  d.same("solver.linear_tolerance", s.linear_tolerance, t.linear_tolerance);
  d.same("solver.damping", s.damping, t.damping);
  d.same("solver.regularization", s.regularization, t.regularization);
  d.same("solver.warm_start", s.warm_start, t.warm_start);
  d.same("solver.geometric_stiffness", s.geometric_stiffness, t.geometric_stiffness);
  d.same("solver.project_friction", s.project_friction, t.project_friction);
  d.same("solver.jacobi_weight", s.jacobi_weight, t.jacobi_weight);
  d.same("solver.substeps", s.substeps, t.substeps);
  d.same("solver.contact_margin", s.contact_margin, t.contact_margin);
  d.same("solver.divergence_limit", s.divergence_limit, t.divergence_limit);

  d.same("materials.size", a.materials.size(), b.materials.size());
  for (std::size_t i = 0; i < a.materials.size() && i < b.materials.size(); ++i) {
    const std::string w = "materials[" + std::to_string(i) + "]";
    d.same(w + ".name", a.materials[i].name, b.materials[i].name);
    d.same(w + ".friction", a.materials[i].friction, b.materials[i].friction);
  }
  d.same("world_shapes.size", a.world_shapes.size(), b.world_shapes.size());
  for (std::size_t i = 0; i < a.world_shapes.size() && i < b.world_shapes.size(); ++i)
    compare_shape(d, "world_shapes[" + std::to_string(i) + "]", a.world_shapes[i], b.world_shapes[i]);
  d.same("bodies.size", a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size() && i < b.bodies.size(); ++i) {
    const sim::BodySpec& x = a.bodies[i];
    const sim::BodySpec& y = b.bodies[i];
    const std::string w = "bodies[" + std::to_string(i) + "]";
    d.same(w + ".name", x.name, y.name);
    d.same(w + ".pose.pos", x.pose.pos, y.pose.pos);
    d.same(w + ".pose.rot", x.pose.rot.coeffs(), y.pose.rot.coeffs());
    d.same(w + ".linear_velocity", x.linear_velocity, y.linear_velocity);
    d.same(w + ".angular_velocity", x.angular_velocity, y.angular_velocity);
    d.same(w + ".fixed", x.fixed, y.fixed);
    d.same(w + ".mass", x.mass, y.mass);
    d.same(w + ".inertia", x.inertia, y.inertia);
    d.same(w + ".inertia_frame", x.inertia_frame.coeffs(), y.inertia_frame.coeffs());
    d.same(w + ".com", x.com, y.com);
    d.same(w + ".shapes.size", x.shapes.size(), y.shapes.size());
    for (std::size_t k = 0; k < x.shapes.size() && k < y.shapes.size(); ++k)
      compare_shape(d, w + ".shapes[" + std::to_string(k) + "]", x.shapes[k], y.shapes[k]);
  }
  d.same("particles.size", a.particles.size(), b.particles.size());
  for (std::size_t i = 0; i < a.particles.size() && i < b.particles.size(); ++i) {
    const std::string w = "particles[" + std::to_string(i) + "]";
    d.same(w + ".position", a.particles[i].position, b.particles[i].position);
    d.same(w + ".velocity", a.particles[i].velocity, b.particles[i].velocity);
    d.same(w + ".mass", a.particles[i].mass, b.particles[i].mass);
    d.same(w + ".radius", a.particles[i].radius, b.particles[i].radius);
    d.same(w + ".material", a.particles[i].material, b.particles[i].material);
  }
  d.same("distances.size", a.distances.size(), b.distances.size());
  for (std::size_t i = 0; i < a.distances.size() && i < b.distances.size(); ++i) {
    const std::string w = "distances[" + std::to_string(i) + "]";
    d.same(w + ".particle_a", a.distances[i].particle_a, b.distances[i].particle_a);
    d.same(w + ".particle_b", a.distances[i].particle_b, b.distances[i].particle_b);
    d.same(w + ".rest_length", a.distances[i].rest_length, b.distances[i].rest_length);
    d.same(w + ".compliance", a.distances[i].compliance, b.distances[i].compliance);
  }
  d.same("particle_triangles.size", a.particle_triangles.size(), b.particle_triangles.size());
  d.same("joints.size", a.joints.size(), b.joints.size());
  for (std::size_t i = 0; i < a.joints.size() && i < b.joints.size(); ++i) {
    const sim::JointSpec& x = a.joints[i];
    const sim::JointSpec& y = b.joints[i];
    const std::string w = "joints[" + std::to_string(i) + "]";
    d.same(w + ".name", x.name, y.name);
    d.same(w + ".type", static_cast<int>(x.type), static_cast<int>(y.type));
    d.same(w + ".body_a", x.body_a, y.body_a);
    d.same(w + ".body_b", x.body_b, y.body_b);
    d.same(w + ".frame_a.pos", x.frame_a.pos, y.frame_a.pos);
    d.same(w + ".frame_a.rot", x.frame_a.rot.coeffs(), y.frame_a.rot.coeffs());
    d.same(w + ".frame_b.pos", x.frame_b.pos, y.frame_b.pos);
    d.same(w + ".frame_b.rot", x.frame_b.rot.coeffs(), y.frame_b.rot.coeffs());
    d.same(w + ".axis", x.axis, y.axis);
    d.same(w + ".limited", x.limited, y.limited);
    d.same(w + ".lower", x.lower, y.lower);
    d.same(w + ".upper", x.upper, y.upper);
    d.same(w + ".linear_compliance", x.linear_compliance, y.linear_compliance);
    d.same(w + ".angular_compliance", x.angular_compliance, y.angular_compliance);
    d.same(w + ".drive", static_cast<int>(x.drive), static_cast<int>(y.drive));
    d.same(w + ".stiffness", x.stiffness, y.stiffness);
    d.same(w + ".damping", x.damping, y.damping);
    d.same(w + ".max_force", x.max_force, y.max_force);
    d.same(w + ".target", x.target, y.target);
    d.same(w + ".target_velocity", x.target_velocity, y.target_velocity);
  }
  // Robot includes: the resolved path (the written `file` is relative to wherever it was saved).
  d.same("robots.size", a.robots.size(), b.robots.size());
  for (std::size_t i = 0; i < a.robots.size() && i < b.robots.size(); ++i) {
    const sim::RobotIncludeSpec& x = a.robots[i];
    const sim::RobotIncludeSpec& y = b.robots[i];
    const std::string w = "robots[" + std::to_string(i) + "]";
    d.same(w + ".path", x.path, y.path);
    d.same(w + ".format", x.format, y.format);
    d.same(w + ".base.pos", x.base.pos, y.base.pos);
    d.same(w + ".base.rot", x.base.rot.coeffs(), y.base.rot.coeffs());
    d.same(w + ".fixed_base", x.fixed_base, y.fixed_base);
    d.same(w + ".self_collision", x.self_collision, y.self_collision);
    d.same(w + ".prefix", x.prefix, y.prefix);
    d.same(w + ".density", x.density, y.density);
    d.same(w + ".material", x.material, y.material);
    d.same(w + ".drive", static_cast<int>(x.drive), static_cast<int>(y.drive));
    d.same(w + ".stiffness", x.stiffness, y.stiffness);
    d.same(w + ".damping", x.damping, y.damping);
    d.same(w + ".first_material", x.first_material, y.first_material);
    d.same(w + ".material_count", x.material_count, y.material_count);
    d.same(w + ".first_world_shape", x.first_world_shape, y.first_world_shape);
    d.same(w + ".world_shape_count", x.world_shape_count, y.world_shape_count);
    d.same(w + ".first_body", x.first_body, y.first_body);
    d.same(w + ".body_count", x.body_count, y.body_count);
    d.same(w + ".first_joint", x.first_joint, y.first_joint);
    d.same(w + ".joint_count", x.joint_count, y.joint_count);
    d.same(w + ".joint_positions.size", x.joint_positions.size(), y.joint_positions.size());
    for (std::size_t k = 0; k < x.joint_positions.size() && k < y.joint_positions.size(); ++k) {
      d.same(w + ".joint_positions[" + std::to_string(k) + "].name", x.joint_positions[k].first, y.joint_positions[k].first);
      d.same(w + ".joint_positions[" + std::to_string(k) + "].value", x.joint_positions[k].second, y.joint_positions[k].second);
    }
  }
  return d.first;
}

}  // namespace app_test
