// Kernel: a shape's world bounding box for the broadphase (collision/collide.cpp place_objects):
// the tight box of the shape at its pose, grown by `grow` on every side (thickness, motion bound,
// half the margin). Planes have no extent (they are excluded from the sweep); the others are exact
// (sphere, capsule, box, cylinder, ellipsoid) or the rotated box of the hull's own box (convex
// meshes). Instantiated by sim/cuda/kernels.cu.
#pragma once

#include <cmath>

#include "collision/geometry.hpp"
#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"
#include "sim/model_kinds.hpp"

namespace sim {

// The extent of one shape (Model::shape_* of shape s; the hull's box from its topology).
struct ShapeExtent {
  ShapeType type = ShapeType::Sphere;
  Real radius = 0;                       // sphere, capsule, cylinder [m]
  Real half_length = 0;                  // capsule half segment, cylinder half height [m]
  Vec3 half_extents = Vec3::Zero();      // box half extents, ellipsoid semi-axes [m]
  bool has_hull_box = false;             // convex mesh with a valid hull
  Vec3 hull_center = Vec3::Zero();       // the hull's box in the shape frame [m]
  Vec3 hull_half = Vec3::Zero();
};

SIM_HD inline detail::Aabb shape_world_box(const ShapeExtent& e, const Pose& pose, Real grow) {
  const Mat3 r = pose.rot.toRotationMatrix();
  Vec3 center = pose.pos, half = Vec3::Zero();
  switch (e.type) {
    case ShapeType::Plane: break;
    case ShapeType::Sphere: half.setConstant(e.radius); break;
    case ShapeType::Capsule: half = (r.col(2) * e.half_length).cwiseAbs() + Vec3::Constant(e.radius); break;
    case ShapeType::Box: half = r.cwiseAbs() * e.half_extents; break;
    case ShapeType::Cylinder: {
      // Exact: the caps' extent r sqrt(1 - a_i²) plus the axis' h |a_i| per world axis i.
      const Vec3 a = r.col(2);
      for (int i = 0; i < 3; ++i) {
        const Real cap = 1 - a[i] * a[i];
        half[i] = e.half_length * std::abs(a[i]) + e.radius * std::sqrt(Real(0) < cap ? cap : Real(0));
      }
      break;
    }
    case ShapeType::Ellipsoid:
      // Exact: the support of R diag(a) along world axis i is |row i of R diag(a)|.
      for (int i = 0; i < 3; ++i) half[i] = r.row(i).cwiseProduct(e.half_extents.transpose()).norm();
      break;
    case ShapeType::ConvexMesh:
      if (e.has_hull_box) {
        center = pose.apply(e.hull_center);
        half = r.cwiseAbs() * e.hull_half;
      }
      break;
  }
  return detail::Aabb{center - half - Vec3::Constant(grow), center + half + Vec3::Constant(grow)};
}

}  // namespace sim
