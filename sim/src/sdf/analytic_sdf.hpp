// Closed-form distance fields of the primitives (thesis §6.6, L1612-1614), in the shape frame, with
// the same interface as the grid field (nano_sdf.hpp): eval(x, grad) returns φ and, when asked,
// the unit gradient. Primitive-vs-mesh pairs run the mesh's features against these, exactly as
// mesh-vs-mesh pairs run them against a baked grid.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/math.hpp"

namespace sim::detail {

// Sphere of radius r at the origin: φ = |x| − r.
struct SphereSdf {
  Real radius = 0;
  Real cull_slack(Real) const { return 0; }
  bool trusted(Real) const { return true; }
  Real eval(const Vec3& x, Vec3* grad) const {
    const Real d = x.norm();
    if (grad) *grad = d > Real(0) ? Vec3(x / d) : Vec3(Vec3::UnitZ());
    return d - radius;
  }
};

// Capsule: segment from (0, 0, −h) to (0, 0, h) swept by r: φ = |x − closest(x)| − r.
struct CapsuleSdf {
  Real radius = 0;
  Real half_length = 0;
  Real cull_slack(Real) const { return 0; }
  bool trusted(Real) const { return true; }
  Real eval(const Vec3& x, Vec3* grad) const {
    const Vec3 core(0, 0, std::clamp(x.z(), -half_length, half_length));
    const Vec3 d = x - core;
    const Real n = d.norm();
    if (grad) *grad = n > Real(0) ? Vec3(d / n) : Vec3(x.z() >= 0 ? Vec3::UnitX() : Vec3(-Vec3::UnitX()));
    return n - radius;
  }
};

// Box [−h, h]: exact outside (distance to the nearest point), inside minus the distance to the
// nearest face (Quilez's formula, with its gradient).
struct BoxSdf {
  Vec3 half = Vec3::Zero();
  Real cull_slack(Real) const { return 0; }
  bool trusted(Real) const { return true; }
  Real eval(const Vec3& x, Vec3* grad) const {
    const Vec3 q = x.cwiseAbs() - half;
    const Vec3 outside = q.cwiseMax(Real(0));
    const Real out_len = outside.norm();
    if (out_len > Real(0)) {
      if (grad) *grad = Vec3(outside.cwiseProduct(sign(x)) / out_len);
      return out_len;
    }
    int axis = 0;
    if (q[1] > q[axis]) axis = 1;
    if (q[2] > q[axis]) axis = 2;
    if (grad) {
      grad->setZero();
      (*grad)[axis] = x[axis] >= 0 ? Real(1) : Real(-1);
    }
    return q[axis];
  }
  static Vec3 sign(const Vec3& x) {
    return Vec3(x.x() >= 0 ? 1 : -1, x.y() >= 0 ? 1 : -1, x.z() >= 0 ? 1 : -1);
  }
};

// Half-space z <= 0 (the Plane shape): φ = z.
struct PlaneSdf {
  Real cull_slack(Real) const { return 0; }
  bool trusted(Real) const { return true; }
  Real eval(const Vec3& x, Vec3* grad) const {
    if (grad) *grad = Vec3::UnitZ();
    return x.z();
  }
};

// Convex polyhedron given by its face planes n·x <= d: φ = max_f (n_f·x − d_f). Exact inside and
// on the faces' Voronoi regions, a lower bound near edges and corners outside (conservative for
// culling and contact creation).
struct ConvexSdf {
  const Vec3* normals = nullptr;
  const Real* offsets = nullptr;
  int face_count = 0;
  Real cull_slack(Real) const { return 0; }
  bool trusted(Real) const { return true; }
  Real eval(const Vec3& x, Vec3* grad) const {
    Real best = -std::numeric_limits<Real>::infinity();
    int arg = 0;
    for (int f = 0; f < face_count; ++f) {
      const Real d = normals[f].dot(x) - offsets[f];
      if (d > best) best = d, arg = f;
    }
    if (grad) *grad = face_count > 0 ? normals[arg] : Vec3(Vec3::UnitZ());
    return best;
  }
};

}  // namespace sim::detail
