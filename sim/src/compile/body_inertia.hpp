// A body's mass properties from its spec: the shapes' (or the authored) mass, centre of mass and
// inertia, plus the armature of the joints it is the child of, in its principal frame. Shared by
// compile_model and the value patches of sim/recompile.hpp (a mass or armature edit recomputes
// one body exactly as the compile would).
#pragma once

#include <string>

#include "sim/math.hpp"
#include "sim/result.hpp"
#include "sim/spec.hpp"

namespace sim::detail {

// "file:line: <element>" for messages (file "<scene>" when the element has none).
std::string where(const SourceLocation& source, const std::string& element);

struct BodyMassProperties {
  Real mass = 0;                    // [kg] (0 for a fixed body without mass)
  Vec3 moments = Vec3::Zero();      // principal moments about the centre of mass [kg m^2]
  Pose com_in_body;                 // the principal centre-of-mass frame in the authored body frame
};

// Armature (JointSpec::armature, rotor inertia about the joint axis) in the maximal-coordinate
// engine: each revolute joint whose child is `body` adds armature · a aᵀ to the child's inertia
// about its centre of mass (a: the unit axis in the body frame), each ball joint armature · I.
// For a joint to the world (or a parent that does not turn about the axis) this is exact: the
// joint leaves the child only the rotation about a, whose inertia about the pivot grows by
// armature, as a rotor's reflected inertia does in reduced coordinates (M_qq + armature). Between
// two moving bodies it is an approximation: a rotor turns with the relative angle, so its inertia
// couples both bodies (the parent feels −armature·θ̈); here the child alone carries it about its
// absolute rotation. Prismatic joints refuse armature (compile_model): the body mass is a scalar,
// so a mass along one axis only cannot be represented, and an isotropic one would be pulled by
// gravity.
Mat3 joint_armature_inertia(const SceneSpec& spec, int body);

// The body's mass properties as compile_model builds them; an error names file, line and element.
Result<BodyMassProperties> body_mass_properties(const SceneSpec& spec, int body);

}  // namespace sim::detail
