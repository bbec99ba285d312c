#include "constraint/joint_rows.hpp"

#include <cmath>

namespace sim {

int joint_bilateral_row_count(JointType type) {
  switch (type) {
    case JointType::Fixed: return 6;
    case JointType::Revolute: return 5;
    case JointType::Prismatic: return 5;
    case JointType::Ball: return 3;
  }
  return 0;
}

bool joint_has_coordinate(JointType type) {
  return type == JointType::Revolute || type == JointType::Prismatic;
}

int joint_side_node(const Model& model, int body) {
  return model.body_is_dynamic(body) ? body : -1;
}

RowNodes joint_row_nodes(const Model& model, int j) {
  RowNodes nodes;
  nodes.node[0] = joint_side_node(model, model.joint_body_a[j]);
  nodes.node[1] = joint_side_node(model, model.joint_body_b[j]);
  nodes.slots = 2;
  return nodes;
}

bool joint_has_drive(const Model& m, int j) {
  return m.joint_drive[j] != DriveMode::None && joint_has_coordinate(m.joint_type[j]);
}

bool joint_has_limit(const Model& m, int j) {
  return m.joint_limited[j] && joint_has_coordinate(m.joint_type[j]);
}

namespace {

struct JointFrames {
  Vec3 pa, pb;  // world anchors
  Vec3 ra, rb;  // lever arms from the com
  Quat qa, qb;  // world rotations of the joint frames
};

JointFrames joint_frames(const Model& m, int j, const Configuration& c) {
  JointFrames f;
  const int a = m.joint_body_a[j], b = m.joint_body_b[j];
  const Pose wa = a >= 0 ? c.body_pose[a] * m.joint_frame_a[j] : m.joint_frame_a[j];
  const Pose wb = c.body_pose[b] * m.joint_frame_b[j];
  f.pa = wa.pos;
  f.pb = wb.pos;
  f.ra = a >= 0 ? Vec3(f.pa - c.body_pose[a].pos) : Vec3::Zero();
  f.rb = f.pb - c.body_pose[b].pos;
  f.qa = wa.rot;
  f.qb = wb.rot;
  return f;
}

Quat relative_rotation(const JointFrames& f) {
  Quat rel = f.qa.conjugate() * f.qb;
  if (rel.w() < 0) rel.coeffs() = -rel.coeffs();
  return rel;
}

Mat3 skew(const Vec3& v) {
  Mat3 s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

// Two unit vectors perpendicular to `axis` (frame a coordinates).
void perpendiculars(const Vec3& axis, Vec3& p1, Vec3& p2) { orthonormal_basis(axis, p1, p2); }

void set_row(RowSet& rows, int r, Real value, const Vec6& ga, const Vec6& gb) {
  rows.row_value[r] = value;
  rows.set_gradient(r, ga, gb);
}

// Positional row along world axis w (fixed in frame a).
void positional_row(RowSet& rows, int r, const JointFrames& f, const Vec3& w) {
  const Vec3 d = f.pb - f.pa;
  Vec6 ga, gb;
  ga << -w, w.cross(d) - f.ra.cross(w);
  gb << w, f.rb.cross(w);
  set_row(rows, r, w.dot(d), ga, gb);
}

}  // namespace

int evaluate_joint_rows(const Model& m, int j, const Configuration& c, RowSet& rows, int first) {
  const JointFrames f = joint_frames(m, j, c);
  const JointType type = m.joint_type[j];
  const Vec3 axis = m.joint_axis[j];
  int r = first;
  // Positional rows.
  if (type == JointType::Prismatic) {
    Vec3 p1, p2;
    perpendiculars(axis, p1, p2);
    positional_row(rows, r++, f, f.qa * p1);
    positional_row(rows, r++, f, f.qa * p2);
  } else {
    for (int k = 0; k < 3; ++k) positional_row(rows, r++, f, f.qa * Vec3::Unit(k));
  }
  // Rotational rows.
  if (type == JointType::Fixed || type == JointType::Prismatic) {
    const Quat rel = relative_rotation(f);
    const Vec3 v = rel.vec();
    const Mat3 jr = (rel.w() * Mat3::Identity() + skew(v)) * f.qb.toRotationMatrix().transpose();
    for (int k = 0; k < 3; ++k) {
      Vec6 ga = Vec6::Zero(), gb = Vec6::Zero();
      ga.tail<3>() = -jr.row(k).transpose();
      gb.tail<3>() = jr.row(k).transpose();
      set_row(rows, r++, 2 * v[k], ga, gb);
    }
  } else if (type == JointType::Revolute) {
    Vec3 p1, p2;
    perpendiculars(axis, p1, p2);
    const Vec3 kb = f.qb * axis;
    for (const Vec3& p : {p1, p2}) {
      const Vec3 pw = f.qa * p;
      const Vec3 cr = pw.cross(kb);
      Vec6 ga = Vec6::Zero(), gb = Vec6::Zero();
      ga.tail<3>() = cr;
      gb.tail<3>() = -cr;
      set_row(rows, r++, pw.dot(kb), ga, gb);
    }
  }
  return r - first;
}

Real joint_position_near(JointType type, Real raw, Real reference) {
  if (type != JointType::Revolute || !std::isfinite(reference)) return raw;
  constexpr Real kTwoPi = Real(2) * Real(3.14159265358979323846);
  const Real turns = std::round((reference - raw) / kTwoPi);
  return raw + turns * kTwoPi;
}

JointCoordinate joint_coordinate(const Model& m, int j, const Configuration& c) {
  const JointFrames f = joint_frames(m, j, c);
  const Vec3 axis = m.joint_axis[j];
  const Vec3 k = f.qa * axis;
  JointCoordinate out;
  if (m.joint_type[j] == JointType::Revolute) {
    const Quat rel = relative_rotation(f);
    out.value = 2 * std::atan2(rel.vec().dot(axis), rel.w());
    out.grad_a.tail<3>() = -k;
    out.grad_b.tail<3>() = k;
  } else if (m.joint_type[j] == JointType::Prismatic) {
    const Vec3 d = f.pb - f.pa;
    out.value = k.dot(d);
    out.grad_a << -k, k.cross(d) - f.ra.cross(k);
    out.grad_b << k, f.rb.cross(k);
  }
  return out;
}

}  // namespace sim
