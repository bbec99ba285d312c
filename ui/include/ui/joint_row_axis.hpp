// Where a joint's positional rows push (issue 15, the replay's joint force arrows): sim's joint
// rows (sim/src/kernels/joint_row_kernels.hpp) hold the anchors together with rows
// C = w·(p_b − p_a) along world axes w fixed in joint frame a: x, y, z of the frame (fixed,
// revolute, ball joints: rows 0..2), or the two perpendiculars of the axis, orthonormal_basis
// (prismatic: rows 0, 1); the rows after them are rotational. A row's multiplier λ puts the force
// λ w on body b (and −λ w on body a), so a joint's linear constraint force on body b is the sum
// of λ w over its positional rows. Pure.
#pragma once

#include "sim/math.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

namespace ui {

// How many of a joint type's bilateral rows are positional (the first ones).
int joint_positional_row_count(sim::JointType type);

// The world axis w of joint `joint`'s bilateral row `sub` (its index among the joint's rows) with
// the bodies at `state`; zero for a rotational row or an index out of range.
sim::Vec3 joint_positional_axis(const sim::Model& model, const sim::State& state, int joint, int sub);

}  // namespace ui
