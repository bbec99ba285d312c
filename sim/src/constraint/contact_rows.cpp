#include "constraint/contact_rows.hpp"

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
    const Vec3 dirs[3] = {k.normal, k.tangent1, k.tangent2};
    const int rs[3] = {rows.first_normal + i, rows.first_friction + 2 * i, rows.first_friction + 2 * i + 1};
    for (int j = 0; j < 3; ++j) {
      const int r = rs[j];
      rows.row_grad_a[r] = side_gradient(k.a, arm_a, dirs[j]);
      rows.row_grad_b[r] = -side_gradient(k.b, arm_b, dirs[j]);
      // Normal: C_n (eq. 9) plus the allowance of a contact penetrating at q⁻ (row_bias, set by
      // relax_initial_penetration after the evaluation at q⁻; 0 before and for other contacts).
      rows.row_value[r] = j == 0 ? k.normal.dot(pa - pb) - k.thickness + rows.row_bias[r] : Real(0);
    }
  });
}

}  // namespace sim
