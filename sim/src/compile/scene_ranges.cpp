#include "compile/scene_ranges.hpp"

#include <algorithm>

#include "compile/body_inertia.hpp"
#include "core/number_text.hpp"
#include "sim/load_limits.hpp"

namespace sim::detail {

namespace {

// The position, speed and spin of one body or particle against the step's bounds.
std::string check_motion(const SolverOptions& o, const Vec3& position, const Vec3& velocity, const Vec3& spin) {
  if (!(position.cwiseAbs().maxCoeff() <= o.world_bound))
    return "initial position (" + number_text(position.x()) + ", " + number_text(position.y()) + ", " + number_text(position.z()) +
           ") m is beyond solver world_bound " + number_text(o.world_bound) + " m";
  if (!(velocity.norm() <= o.speed_limit))
    return "initial speed " + number_text(velocity.norm()) + " m/s is above solver speed_limit " + number_text(o.speed_limit) +
           " m/s";
  if (!(spin.norm() <= o.angular_speed_limit))
    return "initial angular speed " + number_text(spin.norm()) + " rad/s is above solver angular_speed_limit " +
           number_text(o.angular_speed_limit) + " rad/s";
  return {};
}

// A shape's reach from its frame's origin [m]: half extents, radius + half length, or the
// farthest vertex; 0 for a plane (unbounded by design).
Real shape_reach(const ShapeSpec& s) {
  if (s.type == ShapeType::Plane) return 0;
  Real reach = std::max(s.half_extents.cwiseAbs().maxCoeff(), s.radius + s.half_length);
  for (const Vec3& v : s.vertices) reach = std::max(reach, v.cwiseAbs().maxCoeff());
  return reach;
}

std::string check_shape(const SolverOptions& o, const ShapeSpec& s) {
  const Real reach = shape_reach(s);
  if (reach <= o.world_bound) return {};
  return where(s.source, "shape") + ": its size (" + number_text(reach) + " m from its origin) is beyond solver world_bound " +
         number_text(o.world_bound) + " m";
}

}  // namespace

std::string check_scene_ranges(const SceneSpec& spec) {
  const std::string scene = where({spec.source_file, 0}, "scene");
  if (!(spec.dt <= limits::kMaxTimeStep))
    return scene + ": dt = " + number_text(spec.dt) + " s is above the largest time step, " + number_text(limits::kMaxTimeStep) +
           " s (docs/LIMITS.md)";
  if (!(spec.gravity.norm() <= limits::kMaxGravity))
    return scene + ": |gravity| = " + number_text(spec.gravity.norm()) + " m/s^2 is above " + number_text(limits::kMaxGravity) +
           " m/s^2 (docs/LIMITS.md)";
  for (const ShapeSpec& s : spec.world_shapes)
    if (std::string e = check_shape(spec.solver, s); !e.empty()) return e;
  for (const BodySpec& b : spec.bodies) {
    if (std::string e = check_motion(spec.solver, b.pose.pos, b.linear_velocity, b.angular_velocity); !e.empty())
      return where(b.source, "body") + ": '" + b.name + "': " + e;
    for (const ShapeSpec& s : b.shapes)
      if (std::string e = check_shape(spec.solver, s); !e.empty()) return e;
  }
  for (std::size_t i = 0; i < spec.particles.size(); ++i) {
    const ParticleSpec& p = spec.particles[i];
    if (std::string e = check_motion(spec.solver, p.position, p.velocity, Vec3::Zero()); !e.empty())
      return where(p.source, "particle") + ": particle " + std::to_string(i) + ": " + e;
  }
  return {};
}

}  // namespace sim::detail
