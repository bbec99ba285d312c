// Scalar and small fixed-size types used throughout sim/. Eigen's fixed-size types, so the
// solver code reads like the paper's vectors and matrices.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>

#include "sim/host_device.hpp"

namespace sim {

#ifdef COULOMB_REAL_FLOAT
using Real = float;
#else
using Real = double;
#endif

using Vec2 = Eigen::Matrix<Real, 2, 1>;
using Vec3 = Eigen::Matrix<Real, 3, 1>;
using Vec6 = Eigen::Matrix<Real, 6, 1>;
using Mat3 = Eigen::Matrix<Real, 3, 3>;
using Quat = Eigen::Quaternion<Real>;

// A rigid transform: world point = rot * local + pos.
struct Pose {
  Vec3 pos = Vec3::Zero();
  Quat rot = Quat::Identity();

  SIM_HD Vec3 apply(const Vec3& local) const { return rot * local + pos; }
  SIM_HD Vec3 apply_inverse(const Vec3& world) const { return rot.conjugate() * (world - pos); }
  SIM_HD Pose operator*(const Pose& rhs) const { return Pose{rot * rhs.pos + pos, rot * rhs.rot}; }
  SIM_HD Pose inverse() const {
    Quat inv = rot.conjugate();
    return Pose{-(inv * pos), inv};
  }
};

// Any vector perpendicular to the unit vector n, with a second one making a right-handed frame
// (t1, t2, n). Branch-free construction of Duff et al. 2017 ("Building an orthonormal basis,
// revisited"), so the friction basis changes continuously with n.
SIM_HD inline void orthonormal_basis(const Vec3& n, Vec3& t1, Vec3& t2) {
  const Real sign = n.z() >= Real(0) ? Real(1) : Real(-1);
  const Real a = Real(-1) / (sign + n.z());
  const Real b = n.x() * n.y() * a;
  t1 = Vec3(Real(1) + sign * n.x() * n.x() * a, sign * b, -sign * n.x());
  t2 = Vec3(b, sign + n.y() * n.y() * a, -n.y());
}

}  // namespace sim
