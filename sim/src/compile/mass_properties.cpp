#include "compile/mass_properties.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>

#include "collision/convex_hull.hpp"

namespace sim {

namespace {

// Inertia of a solid about its own centroid, in its local axes, per closed forms.
Mat3 diagonal(Real x, Real y, Real z) {
  Mat3 m = Mat3::Zero();
  m(0, 0) = x; m(1, 1) = y; m(2, 2) = z;
  return m;
}

// Parallel axis theorem: inertia about a point displaced by d from the centre of mass.
Mat3 shifted(const Mat3& inertia_about_com, Real mass, const Vec3& d) {
  return inertia_about_com + mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
}

}  // namespace

ShapeMass shape_mass(const ShapeSpec& spec, const Model::Hull* hull) {
  constexpr Real pi = std::numbers::pi_v<Real>;
  const Real rho = spec.density;
  ShapeMass out;
  Mat3 local = Mat3::Zero();
  Vec3 local_center = Vec3::Zero();
  switch (spec.type) {
    case ShapeType::Plane:
      return out;  // world only: no mass
    case ShapeType::Sphere: {
      const Real r = spec.radius;
      out.mass = rho * Real(4) / 3 * pi * r * r * r;
      const Real i = Real(0.4) * out.mass * r * r;
      local = diagonal(i, i, i);
      break;
    }
    case ShapeType::Box: {
      const Vec3 h = spec.half_extents;
      out.mass = rho * 8 * h.x() * h.y() * h.z();
      const Real m3 = out.mass / 3;
      local = diagonal(m3 * (h.y() * h.y() + h.z() * h.z()), m3 * (h.x() * h.x() + h.z() * h.z()),
                       m3 * (h.x() * h.x() + h.y() * h.y()));
      break;
    }
    case ShapeType::Capsule: {
      // Cylinder of length 2l plus two hemispheres, axis z.
      const Real r = spec.radius, l = spec.half_length;
      const Real mc = rho * pi * r * r * 2 * l;
      const Real ms = rho * Real(4) / 3 * pi * r * r * r;  // both hemispheres
      out.mass = mc + ms;
      const Real iz = mc * r * r / 2 + Real(0.4) * ms * r * r;
      // Hemisphere pair about the capsule centre: 2/5 m r^2 + m (l^2 + 3/4 l r) (standard result).
      const Real ix = mc * (3 * r * r + 4 * l * l) / 12 + ms * (Real(0.4) * r * r + l * l + Real(0.75) * l * r);
      local = diagonal(ix, ix, iz);
      break;
    }
    case ShapeType::Cylinder: {
      const Real r = spec.radius, l = spec.half_length;
      out.mass = rho * pi * r * r * 2 * l;
      const Real ix = out.mass * (3 * r * r + 4 * l * l) / 12;
      local = diagonal(ix, ix, out.mass * r * r / 2);
      break;
    }
    case ShapeType::Ellipsoid: {
      const Vec3 a = spec.half_extents;
      out.mass = rho * Real(4) / 3 * pi * a.x() * a.y() * a.z();
      const Real m5 = out.mass / 5;
      local = diagonal(m5 * (a.y() * a.y() + a.z() * a.z()), m5 * (a.x() * a.x() + a.z() * a.z()),
                       m5 * (a.x() * a.x() + a.y() * a.y()));
      break;
    }
    case ShapeType::ConvexMesh: {
      if (hull == nullptr) return out;
      const MassProperties mp = hull_mass_properties(*hull);
      out.mass = rho * mp.volume;
      local = rho * mp.inertia;
      local_center = mp.centroid;
      break;
    }
  }
  const Mat3 r = spec.local.rot.toRotationMatrix();
  out.center = spec.local.apply(local_center);
  out.inertia = r * local * r.transpose();
  return out;
}

ShapeMass combine(const ShapeMass& a, const ShapeMass& b) {
  ShapeMass out;
  out.mass = a.mass + b.mass;
  if (out.mass <= 0) return out;
  out.center = (a.mass * a.center + b.mass * b.center) / out.mass;
  out.inertia = shifted(a.inertia, a.mass, a.center - out.center) +
                shifted(b.inertia, b.mass, b.center - out.center);
  return out;
}

void principal_axes(const Mat3& inertia, Vec3& moments, Quat& axes) {
  Eigen::SelfAdjointEigenSolver<Mat3> eig(inertia);
  moments = eig.eigenvalues();
  Mat3 v = eig.eigenvectors();
  if (v.determinant() < 0) v.col(2) = -v.col(2);
  axes = Quat(v);
  axes.normalize();
}

}  // namespace sim
