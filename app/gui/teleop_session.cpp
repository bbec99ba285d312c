#include "gui/teleop_session.hpp"

#include <algorithm>

#include "sim/inverse_kinematics.hpp"

namespace coulomb::gui {

namespace {

bool has_child_joint(const sim::Model& m, int body) {
  for (int j = 0; j < m.joint_count; ++j)
    if (m.joint_body_a[static_cast<std::size_t>(j)] == body) return true;
  return false;
}

// A driven joint a chain can move (IK) or a gripper can open and close.
bool is_driven_axis(const sim::Model& m, int j) {
  const auto k = static_cast<std::size_t>(j);
  return m.joint_drive[k] == sim::DriveMode::Position &&
         (m.joint_type[k] == sim::JointType::Prismatic || m.joint_type[k] == sim::JointType::Revolute);
}

int driven_count(const sim::Model& m, const std::vector<int>& chain) {
  int n = 0;
  for (int j : chain) n += is_driven_axis(m, j) ? 1 : 0;
  return n;
}

sim::Pose authored_initial_pose(const sim::Model& m, int body) {
  const auto b = static_cast<std::size_t>(body);
  return m.body_initial_pose[b] * m.body_frame_in_com[b];
}

// A dexterous hand's synergy: when the chain of `tip` passes a body from which several driven chains
// branch (the palm), the driven revolute joints of the other branches that flex one way (a range
// not centred on zero; spreading joints, centred, keep their pose). Empty for a single chain.
std::vector<int> synergy_joints(const sim::Model& m, int tip) {
  const std::vector<int> chain = sim::joint_chain(m, tip);
  int palm = -1;
  for (int j : chain) {
    const int a = m.joint_body_a[static_cast<std::size_t>(j)];
    int children = 0;
    for (int k = 0; k < m.joint_count; ++k)
      if (m.joint_body_a[static_cast<std::size_t>(k)] == a && is_driven_axis(m, k)) ++children;
    if (a >= 0 && children >= 2) palm = a;  // the last branching body towards the tip
  }
  std::vector<int> joints;
  if (palm < 0) return joints;
  for (int k = 0; k < m.joint_count; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    if (!is_driven_axis(m, k) || m.joint_type[kk] != sim::JointType::Revolute || !m.joint_limited[kk]) continue;
    if (std::find(chain.begin(), chain.end(), k) != chain.end()) continue;
    const std::vector<int> own = sim::joint_chain(m, m.joint_body_b[kk]);
    const bool on_palm = !own.empty() && std::any_of(own.begin(), own.end(), [&](int o) {
      return m.joint_body_a[static_cast<std::size_t>(o)] == palm;
    });
    const double range = m.joint_upper[kk] - m.joint_lower[kk];
    const bool flexes = std::abs(m.joint_upper[kk] + m.joint_lower[kk]) > 0.25 * range;
    if (on_palm && flexes) joints.push_back(k);
  }
  return joints;
}

}  // namespace

TeleopSetup default_teleop_setup(const sim::Model& m) {
  // A hand: two or more driven finger joints on a body that a driven chain moves.
  TeleopSetup best;
  int best_chain = 0;
  for (int h = 0; h < m.body_count; ++h) {
    std::vector<int> fingers;
    for (int j = 0; j < m.joint_count; ++j) {
      const auto k = static_cast<std::size_t>(j);
      if (m.joint_body_a[k] == h && is_driven_axis(m, j) && !has_child_joint(m, m.joint_body_b[k])) fingers.push_back(j);
    }
    if (fingers.size() < 2) continue;
    const int chain = driven_count(m, sim::joint_chain(m, h));
    if (chain <= best_chain) continue;
    best_chain = chain;
    best.end_effector = h;
    best.gripper_joints = fingers;
    // The driven point: the centre of the fingers' frames, in the hand's frame.
    const sim::Pose hand = authored_initial_pose(m, h);
    sim::Vec3 centre = sim::Vec3::Zero();
    for (int j : fingers) centre += authored_initial_pose(m, m.joint_body_b[static_cast<std::size_t>(j)]).pos;
    centre /= static_cast<sim::Real>(fingers.size());
    best.point = hand.apply_inverse(centre);
  }
  if (best.valid()) return best;
  // No hand: the end of the longest driven chain.
  for (int b = 0; b < m.body_count; ++b) {
    const int chain = driven_count(m, sim::joint_chain(m, b));
    if (chain > best_chain) {
      best_chain = chain;
      best.end_effector = b;
    }
  }
  if (best.valid()) best.gripper_joints = synergy_joints(m, best.end_effector);
  return best;
}

TeleopSetup teleop_setup_for_body(const sim::Model& m, int body) {
  TeleopSetup setup;
  if (body < 0 || body >= m.body_count) return setup;
  const std::vector<int> chain = sim::joint_chain(m, body);
  if (driven_count(m, chain) == 0) return setup;
  const TeleopSetup hand = default_teleop_setup(m);
  if (body == hand.end_effector) return hand;
  setup.end_effector = body;
  for (int j : hand.gripper_joints)
    if (std::find(chain.begin(), chain.end(), j) == chain.end()) setup.gripper_joints.push_back(j);
  return setup;
}

std::vector<int> gripper_finger_bodies(const sim::Model& m, const std::vector<int>& gripper_joints) {
  std::vector<int> bodies;
  for (int j : gripper_joints)
    if (j >= 0 && j < m.joint_count) bodies.push_back(m.joint_body_b[static_cast<std::size_t>(j)]);
  return bodies;
}

bool TeleopSession::start(const sim::Model& m, const sim::State& state, const TeleopSetup& setup) {
  stop();
  if (!setup.valid() || setup.end_effector >= m.body_count) {
    message_ = "teleoperation: no robot to drive (no body on a driven joint chain)";
    return false;
  }
  auto created = sim::TeleopController::create(m, state, setup.end_effector, setup.point, setup.gripper_joints);
  if (!created) {
    message_ = created.error();
    return false;
  }
  controller_ = std::move(created.value());
  setup_ = setup;
  end_effector_name_ = m.body_name[static_cast<std::size_t>(setup.end_effector)];
  gripper_joint_names_.clear();
  for (int j : setup.gripper_joints) gripper_joint_names_.push_back(m.joint_name[static_cast<std::size_t>(j)]);
  finger_bodies_ = gripper_finger_bodies(m, setup.gripper_joints);
  command_ = sim::TeleopCommand{};
  pending_gripper_ = 0;
  message_.clear();
  ++session_;
  return true;
}

void TeleopSession::stop() {
  if (controller_) {
    ++session_;
    const std::vector<int>& bodies = controller_->robot_bodies();
    stale_wrench_bodies_.insert(stale_wrench_bodies_.end(), bodies.begin(), bodies.end());
  }
  controller_.reset();
  command_ = sim::TeleopCommand{};
  pending_gripper_ = 0;
}

void TeleopSession::rebind(const sim::Model& m, const sim::State& state) {
  if (!controller_) return;
  const bool closed = controller_->gripper_closed();
  TeleopSetup setup;
  setup.point = setup_.point;
  for (int b = 0; b < m.body_count; ++b)
    if (m.body_name[static_cast<std::size_t>(b)] == end_effector_name_) setup.end_effector = b;
  for (const std::string& name : gripper_joint_names_)
    for (int j = 0; j < m.joint_count; ++j)
      if (m.joint_name[static_cast<std::size_t>(j)] == name) setup.gripper_joints.push_back(j);
  const std::string lost = end_effector_name_;
  if (!start(m, state, setup)) {
    message_ = "teleoperation stopped: '" + lost + "' cannot be driven in the edited scene";
    return;
  }
  if (closed) pending_gripper_ = 1;  // a grasp in progress stays closed across an edit
}

void TeleopSession::set_command(const sim::TeleopCommand& command) {
  command_.linear_velocity = command.linear_velocity;
  command_.angular_velocity = command.angular_velocity;
  if (command.gripper != 0) pending_gripper_ = command.gripper;
}

void TeleopSession::set_target(const sim::Vec3& position, const sim::Quat& orientation) {
  if (controller_) controller_->set_goal(position, orientation);
}

bool TeleopSession::move_to_object(const sim::Model& m, const sim::State& state, int body) {
  if (!controller_) {
    message_ = "move to object: teleoperation is off";
    return false;
  }
  auto pose = sim::pre_grasp_pose(m, state, *controller_, body);
  if (!pose) {
    message_ = pose.error();
    return false;
  }
  message_.clear();
  controller_->set_goal(pose->position, pose->orientation);
  return true;
}

void TeleopSession::set_gripper(bool closed) { pending_gripper_ = closed ? 1 : -1; }

void TeleopSession::toggle_gripper() {
  if (!controller_) return;
  const bool closed = pending_gripper_ != 0 ? pending_gripper_ > 0 : controller_->gripper_closed();
  set_gripper(!closed);
}

void TeleopSession::update(const sim::Model& m, const sim::State& state, const sim::Workspace* workspace, sim::Real dt,
                           sim::Control& control) {
  for (int b : stale_wrench_bodies_)
    if (b >= 0 && b < static_cast<int>(control.body_wrench.size())) control.body_wrench[static_cast<std::size_t>(b)].setZero();
  stale_wrench_bodies_.clear();
  if (!controller_) return;
  sim::TeleopCommand command = command_;
  command.gripper = pending_gripper_;
  pending_gripper_ = 0;
  controller_->update(m, state, workspace, command, dt, control);
}

void TeleopSession::write_status(const sim::Model& m, const sim::State& state, TeleopStatus& out) const {
  out.active = controller_.has_value();
  out.session = session_;
  out.message = message_;
  if (!controller_) {
    out.end_effector = -1;
    out.gripper_joints.clear();
    out.finger_bodies.clear();
    out.ik_converged = false;
    return;
  }
  const sim::TeleopController& c = *controller_;
  out.end_effector = setup_.end_effector;
  out.point = setup_.point;
  out.gripper_joints = setup_.gripper_joints;  // assignments reuse the capacity
  out.finger_bodies = finger_bodies_;
  out.target_position = c.target().position;
  out.target_orientation = c.target().orientation;
  out.orientation_tracked = c.target().use_orientation;
  const auto b = static_cast<std::size_t>(setup_.end_effector);
  if (static_cast<int>(state.q.size()) == m.coord_count() && setup_.end_effector < m.body_count)
    out.effector_position = (state.body_pose(setup_.end_effector) * m.body_frame_in_com[b]).apply(setup_.point);
  const sim::TeleopFeedback& f = c.feedback();
  out.tracking_error = f.tracking_error;
  out.tracking_angle_error = f.tracking_angle_error;
  out.target_held = f.target_held;
  out.out_of_reach = f.out_of_reach;
  out.tracking_bound = c.limits().tracking_bound;
  out.pushing_body = f.pushing_body;
  out.pushing_force = f.pushing_force;
  out.link_force_limit = c.limits().link_force_limit;
  out.force_exceeded = f.force_exceeded;
  out.sprang_back = f.sprang_back;
  out.largest_force = f.largest_force_seen;
  out.moving_to_goal = c.has_goal();
  out.grip_force_limit = c.grip_force_limit(m);
  out.finger_force.resize(finger_bodies_.size());
  for (std::size_t i = 0; i < finger_bodies_.size(); ++i) out.finger_force[i] = c.body_force(finger_bodies_[i]);
  out.ik_position_error = c.last_solution().position_error;
  out.ik_orientation_error = c.last_solution().orientation_error;
  out.ik_converged = c.last_solution().converged;
  out.gripper_closed = c.gripper_closed();
}

}  // namespace coulomb::gui
