#include "ui/joint_row_axis.hpp"

namespace ui {

int joint_positional_row_count(sim::JointType type) {
  switch (type) {
    case sim::JointType::Prismatic: return 2;
    case sim::JointType::Fixed:
    case sim::JointType::Revolute:
    case sim::JointType::Ball: return 3;
  }
  return 0;
}

sim::Vec3 joint_positional_axis(const sim::Model& model, const sim::State& state, int joint, int sub) {
  if (joint < 0 || joint >= model.joint_count) return sim::Vec3::Zero();
  const auto j = static_cast<std::size_t>(joint);
  const sim::JointType type = model.joint_type[j];
  if (sub < 0 || sub >= joint_positional_row_count(type)) return sim::Vec3::Zero();
  const int a = model.joint_body_a[j];
  if (a >= 0 && 7 * (a + 1) > static_cast<int>(state.q.size())) return sim::Vec3::Zero();
  const sim::Quat frame_a = a >= 0 ? sim::Quat(state.body_rotation(a) * model.joint_frame_a[j].rot) : model.joint_frame_a[j].rot;
  if (type != sim::JointType::Prismatic) return frame_a * sim::Vec3::Unit(sub);
  sim::Vec3 p[2];
  sim::orthonormal_basis(model.joint_axis[j], p[0], p[1]);
  return frame_a * p[sub];
}

}  // namespace ui
