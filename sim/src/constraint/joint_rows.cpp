#include "constraint/joint_rows.hpp"

#include "core/kernel_views.hpp"

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

int evaluate_joint_rows(const Model& m, int j, const Configuration& c, RowSet& rows, int first) {
  return evaluate_joint_rows(joint_view(m), configuration_view(c), rows.gradient_view(), j, first);
}

JointCoordinate joint_coordinate(const Model& m, int j, const Configuration& c) {
  return joint_coordinate(joint_view(m), configuration_view(c), j);
}

}  // namespace sim
