// Mass properties of shapes (closed forms, and exact polyhedral integration for hulls), and
// their composition into a body's mass, centre of mass and principal inertia frame.
#pragma once

#include "sim/math.hpp"
#include "sim/model.hpp"
#include "sim/spec.hpp"

namespace sim {

struct ShapeMass {
  Real mass = 0;
  Vec3 center = Vec3::Zero();  // in the body frame
  Mat3 inertia = Mat3::Zero(); // about `center`, body-frame axes
};

// Mass properties of one shape of density `spec.density`, expressed in the body frame.
// `hull` is the compiled hull for ConvexMesh shapes (ignored otherwise).
ShapeMass shape_mass(const ShapeSpec& spec, const Model::Hull* hull);

// Sum of shape masses about their common centre of mass (parallel axis theorem).
ShapeMass combine(const ShapeMass& a, const ShapeMass& b);

// Principal moments (ascending) and the rotation whose columns are the principal axes
// (a proper rotation, det = +1).
void principal_axes(const Mat3& inertia, Vec3& moments, Quat& axes);

}  // namespace sim
