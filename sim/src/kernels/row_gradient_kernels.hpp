// Kernels writing a row's value C and gradient ∇C G (constraint/rows.hpp: one block per slot of
// the row's kind, only the slots with an entry written, as row_slot_mask says) into the RowSet's
// arrays. Every row kind's evaluation (joint_row_kernels.hpp, joint_coordinate_row_kernels.hpp,
// distance_row_kernel.hpp, contact_row_kernels.hpp) writes through these; RowSet::set_gradient is
// the host's call of the same function.
#pragma once

#include <cstdint>

#include "kernels/kernel_macros.hpp"
#include "sim/contact_side.hpp"
#include "sim/math.hpp"

namespace sim {

// The RowSet's arrays a row evaluation writes (row_value, entry_grad) and the structure it reads.
struct RowGradientView {
  const int* row_entry_first;         // CSR offsets into the entries (rows + 1)
  const std::uint8_t* row_slot_mask;  // bit k: slot k has an entry
  Vec6* entry_grad;                   // ∇C G per entry
  Real* value;                        // C(q) per row
};

// A two-slot row's gradient (joints, drives, limits, distances): side a's block, then side b's,
// those without an entry skipped.
SIM_HD inline void set_row_gradient(const RowGradientView& v, int r, const Vec6& a, const Vec6& b) {
  const unsigned mask = v.row_slot_mask[r];
  Vec6* out = v.entry_grad + v.row_entry_first[r];
  if (mask & 1u) *out++ = a;
  if (mask & 2u) *out = b;
}

// C and the gradient of a two-slot row.
SIM_HD inline void set_row(const RowGradientView& v, int r, Real value, const Vec6& a, const Vec6& b) {
  v.value[r] = value;
  set_row_gradient(v, r, a, b);
}

// One contact side's blocks for direction d from slot `slot` on (advanced past the side's slots),
// written at `out` (advanced past the entries written): a body [±d, ±arm × d], a particle [±d, 0],
// a particle face's corners or a particle segment's ends w_k [±d, 0] (sign = +1 on side a, −1 on
// side b).
SIM_HD inline void set_contact_side_blocks(const ContactSide& s, const Vec3& arm, Real sign, const Vec3& d,
                                           unsigned mask, int& slot, Vec6*& out) {
  if (s.kind == ContactSide::ParticleFace || s.kind == ContactSide::ParticleSegment) {
    const int corners = s.kind == ContactSide::ParticleFace ? 3 : 2;
    for (int c = 0; c < corners; ++c, ++slot)
      if (mask & (1u << slot)) {
        Vec6& g = *out++;
        g.head<3>() = (sign * s.local_point[c]) * d;
        g.tail<3>().setZero();
      }
    return;
  }
  if (mask & (1u << slot)) {
    Vec6& g = *out++;
    if (sign > 0) {
      g.head<3>() = d;
      g.tail<3>() = s.kind == ContactSide::Body ? Vec3(arm.cross(d)) : Vec3(Vec3::Zero());
    } else {
      g.head<3>() = -d;
      g.tail<3>() = s.kind == ContactSide::Body ? Vec3(-arm.cross(d)) : Vec3(Vec3::Zero());
    }
  }
  ++slot;
}

// A contact row's gradient for direction d, slot by slot (constraint/contact_sides.hpp
// contact_row_nodes' order): side a's blocks with arm_a, side b's negated with arm_b.
SIM_HD inline void set_contact_gradient(const RowGradientView& v, int r, const ContactSide& a, const ContactSide& b,
                                        const Vec3& arm_a, const Vec3& arm_b, const Vec3& d) {
  const unsigned mask = v.row_slot_mask[r];
  Vec6* out = v.entry_grad + v.row_entry_first[r];
  int slot = 0;
  set_contact_side_blocks(a, arm_a, Real(1), d, mask, slot, out);
  set_contact_side_blocks(b, arm_b, Real(-1), d, mask, slot, out);
}

}  // namespace sim
