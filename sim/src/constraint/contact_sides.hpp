// What the contact rows (normal: contact_normal_rows.hpp, friction: friction_rows.hpp) share: the
// nodes of a contact's two sides and, at a configuration, their points and lever arms.
//
// Sides: a rigid body (a point fixed in its com frame: block [d, r × d]), a particle (block d),
// the world (no node), a particle face (three corner blocks w_k d, particle_face_contact.hpp).
// Slots are side a's then side b's, side b's blocks negated (C = n·(p_a − p_b) − d).
//
// Round rigid shapes (spheres, capsules) are their core (a point, a segment) swept by a radius:
// the contact is evaluated at the core, with the radius added to the thickness d of eq. 9. The
// narrowphase's surface point is a material point that a spinning ball carries around with it (at
// ω h = 1 rad per step it rises by r(1 − cos 1) = 0.46 r), and on it the Newton iteration can
// satisfy C_n by turning the ball instead of lifting it, feeding spin into the contact (the balls
// of sdf_bowl spun up to 150 rad/s and sank through the bowl). The core point moves with the body
// as the shape does, so C_n is exact under any rotation. Friction still acts on the surface, at
// the core moved by the radius against (side a) or along (side b) the frozen normal.
#pragma once

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "sim/contact.hpp"

namespace sim {

// Node of a single-node contact side: the body or particle if it can move, else -1.
int contact_side_node(const Model& model, const ContactSide& side);

// The contact's slots: side a (1, or 3 for a particle face), then side b.
RowNodes contact_row_nodes(const Model& model, const Contact& contact);

// The contact's points at a configuration.
struct ContactPoints {
  Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();  // world points (round shapes: their cores)
  Vec3 arm_a = Vec3::Zero(), arm_b = Vec3::Zero();      // lever arms of the normal rows
  Vec3 friction_arm_a = Vec3::Zero(), friction_arm_b = Vec3::Zero();  // of the friction rows
  Real radii = 0;                                       // round cores' radii, added to d
};
ContactPoints contact_points(const Model& model, const Contact& contact, const Configuration& c);

// Writes row r's gradient for direction d straight into its entries, slot by slot
// (contact_row_nodes' order; slots without an entry skipped): side a's blocks with arm_a, side b's
// negated with arm_b. Body [d, arm × d], particle [d, 0], particle face w_k [d, 0].
inline void set_contact_gradient(RowSet& rows, int r, const Contact& k, const Vec3& arm_a, const Vec3& arm_b,
                                 const Vec3& d) {
  const unsigned mask = rows.row_slot_mask[r];
  Vec6* out = rows.entry_grad.data() + rows.row_entry_first[r];
  int slot = 0;
  auto side = [&](const ContactSide& s, const Vec3& arm, Real sign) {
    if (s.kind == ContactSide::ParticleFace) {
      for (int c = 0; c < 3; ++c, ++slot)
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
  };
  side(k.a, arm_a, Real(1));
  side(k.b, arm_b, Real(-1));
}

}  // namespace sim
