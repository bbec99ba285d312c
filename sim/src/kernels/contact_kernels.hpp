// Per-contact kernels: the read-outs of a solved step's contact forces (λ_n and the friction pair
// per contact from the row multipliers; the world force on side a, n λ_n + t1 λ_f1 + t2 λ_f2, eqs.
// 9-12). Over the views of kernels/views.hpp; called from the CPU's per-contact loops
// (pipeline/step.cpp, pipeline/contact_forces.cpp) and instantiated by sim/cuda/.
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

// λ_n [N] and (λ_f1, λ_f2) [N] of contact c (Workspace::contact_normal_force / contact_friction_force).
SIM_HD inline void read_contact_force(const ContactLambdaView& v, int c, Real* normal_force, Vec2* friction_force) {
  normal_force[c] = v.row_lambda[v.first_normal + c];
  friction_force[c] = Vec2(v.row_lambda[v.first_friction + 2 * c], v.row_lambda[v.first_friction + 2 * c + 1]);
}

// World force a contact applies on its side a (side b receives the opposite): the normal points
// from b to a, the friction forces act along the frozen basis.
SIM_HD inline Vec3 contact_world_force(const Vec3& normal, const Vec3& tangent1, const Vec3& tangent2,
                                       Real normal_force, const Vec2& friction_force) {
  return normal_force * normal + friction_force.x() * tangent1 + friction_force.y() * tangent2;
}

}  // namespace sim
