// Per-contact kernels: the warm start of a contact's multipliers from the state's record, and the
// read-outs of a solved step's contact forces (λ_n and the friction pair
// per contact from the row multipliers; the world force on side a, n λ_n + t1 λ_f1 + t2 λ_f2, eqs.
// 9-12). Over the views of kernels/views.hpp; called from the CPU's per-contact loops
// (pipeline/step.cpp, pipeline/contact_forces.cpp) and instantiated by sim/cuda/.
#pragma once

#include <cstdint>

#include "kernels/kernel_macros.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

// The warm-start record of the last step (State::warm_start): contact keys sorted ascending, with
// (λ_n, λ_f1, λ_f2) per key.
struct WarmStartView {
  const std::uint64_t* key;  // (count)
  const Real* lambda;        // (3 count) [N]
  int count;
};

// Contact c with stable key `key` starts from the multipliers its key had in the last step (the
// first entry of an equal key, as std::lower_bound); a new contact keeps what row_lambda holds (0).
SIM_HD inline void warm_start_contact(const WarmStartView& w, std::uint64_t key, int c, int first_normal,
                                      int first_friction, Real* row_lambda) {
  int lo = 0, hi = w.count;  // binary search: the first index whose key is >= key
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (w.key[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  if (lo == w.count || w.key[lo] != key) return;
  row_lambda[first_normal + c] = w.lambda[3 * lo];
  row_lambda[first_friction + 2 * c] = w.lambda[3 * lo + 1];
  row_lambda[first_friction + 2 * c + 1] = w.lambda[3 * lo + 2];
}

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
