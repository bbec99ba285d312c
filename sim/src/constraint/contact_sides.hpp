// What the contact rows (normal: contact_normal_rows.hpp, friction: friction_rows.hpp) share: the
// nodes of a contact's two sides and, at a configuration, their points and lever arms.
//
// Sides: a rigid body (a point fixed in its com frame: block [d, r × d]), a particle (block d),
// the world (no node), a particle face (three corner blocks w_k d, particle_face_contact.hpp), a
// particle segment (a distance constraint's two ends, blocks (1 − s) d and s d).
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
#include "kernels/contact_row_kernels.hpp"
#include "sim/contact.hpp"

namespace sim {

// Node of a single-node contact side: the body or particle if it can move, else -1.
int contact_side_node(const Model& model, const ContactSide& side);

// The contact's slots: side a (1, 3 for a particle face, 2 for a particle segment), then side b.
RowNodes contact_row_nodes(const Model& model, const Contact& contact);

// The contact's points at a configuration (ContactPoints and the kernel that computes them:
// kernels/contact_row_kernels.hpp, which also writes the rows' gradients, set_contact_gradient).
ContactPoints contact_points(const Model& model, const Contact& contact, const Configuration& c);

}  // namespace sim
