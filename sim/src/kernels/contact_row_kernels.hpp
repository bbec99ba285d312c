// Kernels: a contact's rows at a configuration (constraint/contact_normal_rows.hpp,
// friction_rows.hpp, contact_sides.hpp): its sides' points and lever arms (round cores moved by
// their radius for friction), the normal row C_n = n·(p_a − p_b) − d − radii + b (eq. 9) with
// ∇C_n G, and the two friction rows' D (eqs. 11-12). A contact is read field by field (its sides,
// shapes, normal, tangents, thickness) so the host passes its Contact's members and the device its
// arrays'. Called from constraint/row_assembly.cpp's per-contact loop; instantiated by
// sim/cuda/kernels.cu.
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/views.hpp"
#include "sim/contact_side.hpp"
#include "sim/math.hpp"

namespace sim {

// The Model's arrays a contact's points read: the shapes (round cores), the cloth faces and the
// distance constraints (a particle segment's ends).
struct ContactModelView {
  ShapeView shapes;
  ParticleFaceView faces;
  DistanceView segments;
};

// The contact's points at a configuration.
struct ContactPoints {
  Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();  // world points (round shapes: their cores)
  Vec3 arm_a = Vec3::Zero(), arm_b = Vec3::Zero();      // lever arms of the normal rows
  Vec3 friction_arm_a = Vec3::Zero(), friction_arm_b = Vec3::Zero();  // of the friction rows
  Real radii = 0;                                       // round cores' radii, added to d
};

// x* = Σ_k w_k x_k of a particle-face side (constraint/particle_face_contact.hpp).
SIM_HD inline Vec3 particle_face_point(const ParticleFaceView& faces, const ContactSide& side,
                                       const ConfigurationView& c) {
  const int* tri = faces.corners + 3 * side.index;
  const Vec3& w = side.local_point;
  return w[0] * c.particle_position[tri[0]] + w[1] * c.particle_position[tri[1]] + w[2] * c.particle_position[tri[2]];
}

// x* = (1 − s) x_a + s x_b of a particle-segment side (weights (1 − s, s) on the distance's ends).
SIM_HD inline Vec3 particle_segment_point(const DistanceView& segments, const ContactSide& side,
                                          const ConfigurationView& c) {
  const Vec3& w = side.local_point;
  return w[0] * c.particle_position[segments.particle_a[side.index]] +
         w[1] * c.particle_position[segments.particle_b[side.index]];
}

// World point of a side and its lever arm from the body's com (zero for particles, faces,
// segments, world).
SIM_HD inline void contact_side_point(const ContactModelView& m, const ContactSide& s, const ConfigurationView& c,
                                      Vec3& point, Vec3& arm) {
  switch (s.kind) {
    case ContactSide::Body: {
      const Pose& pose = c.body_pose[s.index];
      arm = pose.rot * s.local_point;
      point = pose.pos + arm;
      return;
    }
    case ContactSide::Particle:
      point = c.particle_position[s.index];
      arm.setZero();
      return;
    case ContactSide::ParticleFace:
      point = particle_face_point(m.faces, s, c);
      arm.setZero();
      return;
    case ContactSide::ParticleSegment:
      point = particle_segment_point(m.segments, s, c);
      arm.setZero();
      return;
    case ContactSide::World:
      point = s.local_point;
      arm.setZero();
      return;
  }
}

// A round shape's core: its radius and the core point (the sphere's centre, the capsule segment's
// point nearest the contact) in the body's com frame.
struct RoundCore {
  Real radius = 0;
  Vec3 local = Vec3::Zero();
};

SIM_HD inline bool round_core(const ShapeView& shapes, const ContactSide& s, int shape, RoundCore& out) {
  if (s.kind != ContactSide::Body || shape < 0 || shape >= shapes.count || shapes.body[shape] != s.index) return false;
  const ShapeType type = shapes.type[shape];
  if (type != ShapeType::Sphere && type != ShapeType::Capsule) return false;
  const Pose& local = shapes.local[shape];
  out.radius = shapes.radius[shape];
  out.local = local.pos;
  if (type == ShapeType::Capsule) {
    const Vec3 axis = local.rot * Vec3::UnitZ();
    const Real half = shapes.half_length[shape];
    const Real t = axis.dot(s.local_point - local.pos);
    out.local += axis * (t < -half ? -half : (half < t ? half : t));  // std::clamp(t, −half, half)
  }
  return true;
}

// The points of the contact between sides a and b (shapes shape_a, shape_b, −1 for none; normal n
// from b towards a) at a configuration.
SIM_HD inline ContactPoints contact_points(const ContactModelView& m, const ConfigurationView& c, const ContactSide& a,
                                           const ContactSide& b, int shape_a, int shape_b, const Vec3& normal) {
  ContactPoints p;
  contact_side_point(m, a, c, p.point_a, p.arm_a);
  contact_side_point(m, b, c, p.point_b, p.arm_b);
  p.friction_arm_a = p.arm_a;
  p.friction_arm_b = p.arm_b;
  RoundCore core;
  if (round_core(m.shapes, a, shape_a, core)) {
    const Pose& pose = c.body_pose[a.index];
    p.arm_a = pose.rot * core.local;
    p.point_a = pose.pos + p.arm_a;
    p.radii += core.radius;
    p.friction_arm_a = p.arm_a - core.radius * normal;
  }
  if (round_core(m.shapes, b, shape_b, core)) {
    const Pose& pose = c.body_pose[b.index];
    p.arm_b = pose.rot * core.local;
    p.point_b = pose.pos + p.arm_b;
    p.radii += core.radius;
    p.friction_arm_b = p.arm_b + core.radius * normal;
  }
  return p;
}

// C_n and ∇C_n G into row r: n·(p_a − p_b) − d − radii plus the allowance b of a contact
// penetrating at q⁻ (row_bias, relax_initial_penetration; 0 before it and for other contacts).
SIM_HD inline void evaluate_contact_normal_row(const RowGradientView& rows, const Real* row_bias, int r,
                                               const ContactSide& a, const ContactSide& b, const Vec3& normal,
                                               Real thickness, const ContactPoints& p) {
  set_contact_gradient(rows, r, a, b, p.arm_a, p.arm_b, normal);
  rows.value[r] = normal.dot(p.point_a - p.point_b) - thickness - p.radii + row_bias[r];
}

// D of the two tangent rows f, f + 1 (no value C: 0).
SIM_HD inline void evaluate_friction_rows(const RowGradientView& rows, int f, const ContactSide& a,
                                          const ContactSide& b, const Vec3& tangent1, const Vec3& tangent2,
                                          const ContactPoints& p) {
  const Vec3 dirs[2] = {tangent1, tangent2};
  for (int j = 0; j < 2; ++j) {
    set_contact_gradient(rows, f + j, a, b, p.friction_arm_a, p.friction_arm_b, dirs[j]);
    rows.value[f + j] = 0;
  }
}

// Where a step's contact rows lie (RowSet: normal row first_normal + c, friction rows
// first_friction + 2c, + 2c + 1) and the normal rows' allowances (row_bias).
struct ContactRowsView {
  const Real* row_bias;
  int first_normal;
  int first_friction;
};

// All three rows of contact c (sides a, b from shapes shape_a, shape_b; frozen normal and tangents;
// thickness d) at a configuration.
SIM_HD inline void evaluate_contact_rows(const ContactModelView& m, const ConfigurationView& c,
                                         const RowGradientView& rows, const ContactRowsView& at, int contact,
                                         const ContactSide& a, const ContactSide& b, int shape_a, int shape_b,
                                         const Vec3& normal, const Vec3& tangent1, const Vec3& tangent2,
                                         Real thickness) {
  const ContactPoints points = contact_points(m, c, a, b, shape_a, shape_b, normal);
  evaluate_contact_normal_row(rows, at.row_bias, at.first_normal + contact, a, b, normal, thickness, points);
  evaluate_friction_rows(rows, at.first_friction + 2 * contact, a, b, tangent1, tangent2, points);
}

// The contacts' fields the rows read, one array each (the device's layout of a ContactBuffer).
struct ContactGeometryView {
  const ContactSide* side_a;
  const ContactSide* side_b;
  const int* shape_a;
  const int* shape_b;
  const Vec3* normal;
  const Vec3* tangent1;
  const Vec3* tangent2;
  const Real* thickness;
  int count;
};

}  // namespace sim
