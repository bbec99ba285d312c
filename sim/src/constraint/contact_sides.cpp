#include "constraint/contact_sides.hpp"

#include <algorithm>

#include "constraint/particle_face_contact.hpp"

namespace sim {

int contact_side_node(const Model& model, const ContactSide& side) {
  switch (side.kind) {
    case ContactSide::Body:
      return model.body_is_dynamic(side.index) ? side.index : -1;
    case ContactSide::Particle:
      return model.particle_inv_mass[side.index] > 0 ? model.body_count + side.index : -1;
    case ContactSide::World:
    case ContactSide::ParticleFace:
      return -1;
  }
  return -1;
}

namespace {

void add_side_nodes(const Model& model, const ContactSide& side, RowNodes& nodes) {
  if (side.kind == ContactSide::ParticleFace) {
    for (int k = 0; k < kFaceCorners; ++k) nodes.node[nodes.slots++] = particle_face_node(model, side.index, k);
    return;
  }
  nodes.node[nodes.slots++] = contact_side_node(model, side);
}

// World point of a side and its lever arm from the body's com (zero for particles, faces, world).
void side_point(const Model& model, const ContactSide& s, const Configuration& c, Vec3& point, Vec3& arm) {
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
      point = particle_face_point(model, s, c);
      arm.setZero();
      return;
    case ContactSide::World:
      point = s.local_point;
      arm.setZero();
      return;
  }
}

struct RoundCore {
  Real radius = 0;
  Vec3 local = Vec3::Zero();  // core point in the body's com frame
};

bool round_core(const Model& m, const ContactSide& s, int shape, RoundCore& out) {
  if (s.kind != ContactSide::Body || shape < 0 || shape >= m.shape_count || m.shape_body[shape] != s.index)
    return false;
  const ShapeType type = m.shape_type[shape];
  if (type != ShapeType::Sphere && type != ShapeType::Capsule) return false;
  const Pose& local = m.shape_local[shape];
  out.radius = m.shape_radius[shape];
  out.local = local.pos;
  if (type == ShapeType::Capsule) {
    const Vec3 axis = local.rot * Vec3::UnitZ();
    const Real half = m.shape_half_length[shape];
    out.local += axis * std::clamp(axis.dot(s.local_point - local.pos), -half, half);
  }
  return true;
}

}  // namespace

RowNodes contact_row_nodes(const Model& model, const Contact& contact) {
  RowNodes nodes;
  add_side_nodes(model, contact.a, nodes);
  add_side_nodes(model, contact.b, nodes);
  return nodes;
}

ContactPoints contact_points(const Model& model, const Contact& k, const Configuration& c) {
  ContactPoints p;
  side_point(model, k.a, c, p.point_a, p.arm_a);
  side_point(model, k.b, c, p.point_b, p.arm_b);
  p.friction_arm_a = p.arm_a;
  p.friction_arm_b = p.arm_b;
  RoundCore core;
  if (round_core(model, k.a, k.shape_a, core)) {
    const Pose& pose = c.body_pose[k.a.index];
    p.arm_a = pose.rot * core.local;
    p.point_a = pose.pos + p.arm_a;
    p.radii += core.radius;
    p.friction_arm_a = p.arm_a - core.radius * k.normal;
  }
  if (round_core(model, k.b, k.shape_b, core)) {
    const Pose& pose = c.body_pose[k.b.index];
    p.arm_b = pose.rot * core.local;
    p.point_b = pose.pos + p.arm_b;
    p.radii += core.radius;
    p.friction_arm_b = p.arm_b + core.radius * k.normal;
  }
  return p;
}

}  // namespace sim
