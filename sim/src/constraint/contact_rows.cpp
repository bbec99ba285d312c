#include "constraint/contact_rows.hpp"

#include <algorithm>

#include "core/parallel.hpp"

namespace sim {

int contact_side_node(const Model& model, const ContactSide& side) {
  switch (side.kind) {
    case ContactSide::Body:
      return model.body_is_dynamic(side.index) ? side.index : -1;
    case ContactSide::Particle:
      return model.particle_inv_mass[side.index] > 0 ? model.body_count + side.index : -1;
    case ContactSide::World:
      return -1;
  }
  return -1;
}

void set_contact_row_structure(const Model& model, const ContactBuffer& contacts, RowSet& rows) {
  for (int c = 0; c < contacts.size(); ++c) {
    const Contact& k = contacts.contacts[c];
    const int na = contact_side_node(model, k.a), nb = contact_side_node(model, k.b);
    const int rows_of_contact[3] = {rows.first_normal + c, rows.first_friction + 2 * c,
                                    rows.first_friction + 2 * c + 1};
    for (int i = 0; i < 3; ++i) {
      const int r = rows_of_contact[i];
      rows.row_kind[r] = i == 0 ? RowKind::Normal : RowKind::Friction;
      rows.row_node_a[r] = na;
      rows.row_node_b[r] = nb;
      rows.row_source[r] = c;
      rows.row_sub[r] = static_cast<std::int8_t>(i);
      rows.row_compliance[r] = 0;
      rows.row_bound[r] = -1;
      rows.row_bias[r] = 0;
    }
  }
}

namespace {

// World point of a side and its lever arm from the body's com (zero for particles and world).
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
    case ContactSide::World:
      point = s.local_point;
      arm.setZero();
      return;
  }
}

// A rigid round shape (sphere, capsule) is its core (a point, a segment) swept by a radius. Its
// contact is evaluated at the core, with the radius added to the thickness d of eq. 9: the
// narrowphase's surface point is a material point that a spinning ball carries around with it
// (at ω h = 1 rad per step it rises by r(1 − cos 1) = 0.46 r), and on it the Newton iteration can
// satisfy C_n by turning the ball instead of lifting it, feeding spin into the contact (the balls
// of sdf_bowl spun up to 150 rad/s and sank through the bowl). The core point moves with the body
// as the shape does, so C_n is exact under any rotation. Friction still acts on the surface, at
// the core moved by the radius against (side a) or along (side b) the frozen normal.
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

// Gradient block of a side for direction d (the lifted basis Γ of eqs. 11-12).
Vec6 side_gradient(const ContactSide& s, const Vec3& arm, const Vec3& d) {
  Vec6 g = Vec6::Zero();
  g.head<3>() = d;
  if (s.kind == ContactSide::Body) g.tail<3>() = arm.cross(d);
  return g;
}

}  // namespace

void evaluate_contact_rows(const Model& model, const ContactBuffer& contacts, const Configuration& c,
                           RowSet& rows) {
  parallel_for(contacts.size(), [&](int i) {
    const Contact& k = contacts.contacts[i];
    Vec3 pa = Vec3::Zero(), pb = Vec3::Zero(), arm_a = Vec3::Zero(), arm_b = Vec3::Zero();
    side_point(model, k.a, c, pa, arm_a);
    side_point(model, k.b, c, pb, arm_b);
    RoundCore core;
    Real radii = 0;
    Vec3 friction_arm_a = arm_a, friction_arm_b = arm_b;
    if (round_core(model, k.a, k.shape_a, core)) {
      const Pose& pose = c.body_pose[k.a.index];
      arm_a = pose.rot * core.local;
      pa = pose.pos + arm_a;
      radii += core.radius;
      friction_arm_a = arm_a - core.radius * k.normal;
    }
    if (round_core(model, k.b, k.shape_b, core)) {
      const Pose& pose = c.body_pose[k.b.index];
      arm_b = pose.rot * core.local;
      pb = pose.pos + arm_b;
      radii += core.radius;
      friction_arm_b = arm_b + core.radius * k.normal;
    }
    const Vec3 dirs[3] = {k.normal, k.tangent1, k.tangent2};
    const int rs[3] = {rows.first_normal + i, rows.first_friction + 2 * i, rows.first_friction + 2 * i + 1};
    for (int j = 0; j < 3; ++j) {
      const int r = rs[j];
      rows.row_grad_a[r] = side_gradient(k.a, j == 0 ? arm_a : friction_arm_a, dirs[j]);
      rows.row_grad_b[r] = -side_gradient(k.b, j == 0 ? arm_b : friction_arm_b, dirs[j]);
      // Normal: C_n (eq. 9, round cores with their radii in d) plus the allowance of a contact
      // penetrating at q⁻ (row_bias, set by relax_initial_penetration after the evaluation at q⁻;
      // 0 before and for other contacts).
      rows.row_value[r] = j == 0 ? k.normal.dot(pa - pb) - k.thickness - radii + rows.row_bias[r] : Real(0);
    }
  });
}

}  // namespace sim
