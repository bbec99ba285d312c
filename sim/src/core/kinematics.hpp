// Positions as a function of velocities over one step: q(u) = q⁻ + h G(q⁻) u (eq. 63), with
// G = blockdiag(I, ½ Q(θ)) for rigid bodies (eq. 88) and the quaternion renormalised (§9.4).
// Configuration: the poses and positions at one such q, as the constraint rows read them.
#pragma once

#include <vector>

#include "sim/math.hpp"
#include "sim/model.hpp"

namespace sim {

// q_out = q0 + h G(q0) u for all bodies and particles.
void integrate_positions(const Model& model, const Real* q0, const Real* u, Real h, Real* q_out);

struct Configuration {
  std::vector<Pose> body_pose;          // com frame in the world (body_count)
  std::vector<Vec3> particle_position;  // [m] (particle_count)
  void assign(const Model& model, const Real* q);
};

// World position of a point fixed in body b's com frame.
inline Vec3 body_point(const Configuration& c, int b, const Vec3& local) { return c.body_pose[b].apply(local); }

}  // namespace sim
