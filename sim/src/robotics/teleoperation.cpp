#include "sim/teleoperation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "constraint/joint_rows.hpp"
#include "sim/step.hpp"

namespace sim {

namespace {

// The bodies moved by the first joint of `chain` with a coordinate: every body whose own joint
// chain passes through it (the arm after a fixed base, the hand, the fingers, a robot's head).
std::vector<int> moved_bodies(const Model& m, const std::vector<int>& chain) {
  int root = -1;
  for (int j : chain)
    if (joint_has_coordinate(m.joint_type[j])) {
      root = j;
      break;
    }
  std::vector<int> bodies;
  if (root < 0) return bodies;
  for (int b = 0; b < m.body_count; ++b) {
    if (!m.body_is_dynamic(b)) continue;
    const std::vector<int> own = joint_chain(m, b);
    if (std::find(own.begin(), own.end(), root) != own.end()) bodies.push_back(b);
  }
  return bodies;
}

// IK position residual beyond which a target counts as out of reach [m] (a long chain such as
// Fetch's lags its target by a few millimetres while it moves: 20 iterations per update).
constexpr Real kReachTolerance = Real(1e-2);

Real rotation_angle(const Quat& q) {
  const Real w = std::min(Real(1), std::abs(q.w()));
  return 2 * std::acos(w);
}

}  // namespace

Result<TeleopController> TeleopController::create(const Model& model, const State& state, int end_effector,
                                                  const Vec3& point, std::vector<int> gripper_joints,
                                                  bool use_orientation, const TeleopLimits& limits) {
  if (end_effector < 0 || end_effector >= model.body_count)
    return Error{"teleoperation: no body " + std::to_string(end_effector)};
  const std::vector<int> chain = joint_chain(model, end_effector);
  if (chain.empty())
    return Error{"teleoperation: body '" + model.body_name[end_effector] + "' is not on a joint chain"};
  for (int j : gripper_joints)
    if (j < 0 || j >= model.joint_count || model.joint_drive[j] != DriveMode::Position)
      return Error{"teleoperation: gripper joint " + std::to_string(j) + " has no position drive"};
  TeleopController t;
  const Pose ee = state.body_pose(end_effector) * model.body_frame_in_com[end_effector];
  t.target_.body = end_effector;
  t.target_.point = point;
  t.target_.position = ee.apply(point);
  t.target_.orientation = ee.rot;
  // A chain with fewer than 6 coordinates cannot hold an arbitrary orientation while it moves:
  // it tracks the position only.
  int coordinates = 0;
  for (int j : chain) coordinates += joint_has_coordinate(model.joint_type[j]) ? 1 : 0;
  t.target_.use_orientation = use_orientation && coordinates >= 6;
  t.options_.iterations = 20;  // per update, warm-started: the target moves a little each time
  t.limits_ = limits;
  t.gripper_joints_ = std::move(gripper_joints);
  t.robot_bodies_ = moved_bodies(model, chain);
  for (int j : t.gripper_joints_) {  // fingers on another chain (a hand's synergy) are watched too
    const int b = model.joint_body_b[j];
    if (model.body_is_dynamic(b) && std::find(t.robot_bodies_.begin(), t.robot_bodies_.end(), b) == t.robot_bodies_.end())
      t.robot_bodies_.push_back(b);
  }
  t.body_force_.assign(static_cast<std::size_t>(model.body_count), Real(0));
  t.is_robot_.assign(static_cast<std::size_t>(model.body_count), 0);
  for (int b : t.robot_bodies_) t.is_robot_[b] = 1;
  // Which way each finger closes: a prismatic one towards the driven point; a revolute one from its
  // initial target towards its limit farther from zero.
  const Vec3 centre = t.target_.position;
  for (int j : t.gripper_joints_) {
    const Real lower = model.joint_lower[j], upper = model.joint_upper[j];
    if (model.joint_type[j] == JointType::Prismatic) {
      const int a = model.joint_body_a[j], b = model.joint_body_b[j];
      const Pose frame = (a >= 0 ? state.body_pose(a) : Pose{}) * model.joint_frame_a[j];
      const Vec3 axis = frame.rot * model.joint_axis[j];
      const bool up = axis.dot(centre - state.body_pose(b).pos) >= 0;
      t.gripper_open_.push_back(up ? lower : upper);
      t.gripper_close_.push_back(up ? upper : lower);
    } else {
      const Real open = model.joint_initial_target[j];
      const Real far = std::abs(upper) >= std::abs(lower) ? upper : lower;
      t.gripper_open_.push_back(open);
      t.gripper_close_.push_back(open + Real(0.8) * (far - open));
    }
  }
  const Real grip = t.grip_force_limit(model);
  if (std::isfinite(grip)) t.limits_.link_force_limit = std::max(t.limits_.link_force_limit, Real(1.5) * grip);
  t.feedback_.effector_position = t.target_.position;
  t.feedback_.effector_orientation = ee.rot;
  return t;
}

void TeleopController::set_target(const Vec3& position, const Quat& orientation) {
  target_.position = position;
  target_.orientation = orientation.normalized();
  goal_.reset();
}

void TeleopController::set_goal(const Vec3& position, const Quat& orientation) {
  IkTarget goal = target_;
  goal.position = position;
  goal.orientation = orientation.normalized();
  goal_ = goal;
}

Real TeleopController::grip_force_limit(const Model& model) const {
  Real limit = 0;
  for (int j : gripper_joints_)
    limit = std::max(limit, model.joint_max_force[j] >= 0 ? model.joint_max_force[j] : std::numeric_limits<Real>::infinity());
  return limit;
}

void TeleopController::clear_wrenches(Control& control) const {
  for (int b : robot_bodies_)
    if (b < static_cast<int>(control.body_wrench.size())) control.body_wrench[b].setZero();
}

void TeleopController::measure(const Model& m, const State& s, const Workspace* ws) {
  const Pose ee = s.body_pose(target_.body) * m.body_frame_in_com[target_.body];
  feedback_.effector_position = ee.apply(target_.point);
  feedback_.effector_orientation = ee.rot;
  feedback_.pushing_body = -1;
  feedback_.pushing_force = 0;
  feedback_.force_exceeded = false;
  feedback_.sprang_back = false;
  feedback_.contact_force.setZero();
  if (body_force_.size() != static_cast<std::size_t>(m.body_count)) return;
  for (int b : robot_bodies_) body_force_[b] = 0;
  if (ws == nullptr) return;
  // Sum of the contact normal forces λ_n on each robot body (as body_contact_force, in one pass).
  const int n = std::min<int>(ws->contacts.size(), static_cast<int>(ws->contact_normal_force.size()));
  for (int c = 0; c < n; ++c) {
    const Contact& k = ws->contacts.contacts[c];
    const Real f = ws->contact_normal_force[c];
    const bool a = k.a.kind == ContactSide::Body && k.a.index >= 0 && k.a.index < m.body_count;
    const bool b = k.b.kind == ContactSide::Body && k.b.index >= 0 && k.b.index < m.body_count;
    if (a) body_force_[k.a.index] += f;
    if (b) body_force_[k.b.index] += f;
    // The normal force acts along +n on side a, −n on side b; a contact within the robot cancels.
    if (a && is_robot_[k.a.index]) feedback_.contact_force += f * k.normal;
    if (b && is_robot_[k.b.index]) feedback_.contact_force -= f * k.normal;
  }
  for (int b : robot_bodies_)
    if (body_force_[b] > feedback_.pushing_force) {
      feedback_.pushing_force = body_force_[b];
      feedback_.pushing_body = b;
    }
  feedback_.largest_force_seen = std::max(feedback_.largest_force_seen, feedback_.pushing_force);
  feedback_.force_exceeded = feedback_.pushing_force > limits_.link_force_limit;
  // Springing back looks at the net push of the robot on its surroundings: a grip's squeeze
  // (equal and opposite finger forces) cancels in it.
  feedback_.sprang_back = feedback_.contact_force.norm() > limits_.spring_back_fraction * limits_.link_force_limit;
}

void TeleopController::approach_goal(Real dt) {
  const Vec3 d = goal_->position - target_.position;
  const Real distance = d.norm();
  const Real step = limits_.approach_speed * dt;
  target_.position = distance <= step ? goal_->position : Vec3(target_.position + d * (step / distance));
  bool turned = true;
  if (target_.use_orientation) {
    const Real angle = rotation_angle(goal_->orientation * target_.orientation.conjugate());
    const Real turn = limits_.approach_turn_rate * dt;
    if (angle > turn) {
      target_.orientation = target_.orientation.slerp(turn / angle, goal_->orientation).normalized();
      turned = false;
    } else {
      target_.orientation = goal_->orientation;
    }
  }
  if (distance <= step && turned) goal_.reset();  // arrived
}

void TeleopController::update(const Model& model, const State& state, const Workspace* workspace,
                              const TeleopCommand& command, Real dt, Control& control) {
  measure(model, state, workspace);
  const bool commanded = !command.linear_velocity.isZero() || !command.angular_velocity.isZero();
  if (commanded) goal_.reset();
  // Where the target was, and how well IK reached it: a move that takes it out of reach is undone.
  const IkTarget before = target_;
  const Real position_error_before = solution_.position_error;
  feedback_.out_of_reach = false;
  const bool moving = dt > 0 && (commanded || goal_.has_value());
  if (commanded) {
    // Slow the part of the motion that pushes against the contact force on the robot (f points
    // out of the obstacle): v −= s (v·f̂) f̂ for v·f̂ < 0, s = |f| / spring-back force, at most 1.
    Vec3 v = command.linear_velocity;
    const Real f = feedback_.contact_force.norm();
    const Real spring_back = limits_.spring_back_fraction * limits_.link_force_limit;
    if (f > Real(1e-9) && spring_back > 0) {
      const Vec3 n = feedback_.contact_force / f;
      const Real into = v.dot(n);
      if (into < 0) v -= std::min(Real(1), f / spring_back) * into * n;
    }
    target_.position += dt * v;
    const Real angle = dt * command.angular_velocity.norm();
    if (angle > 0)
      target_.orientation = (Quat(Eigen::AngleAxis<Real>(angle, command.angular_velocity.normalized())) *
                             target_.orientation).normalized();
  } else if (goal_ && dt > 0) {
    approach_goal(dt);
  }
  if (command.gripper > 0) gripper_closed_ = true;
  if (command.gripper < 0) gripper_closed_ = false;

  const Vec3 p = feedback_.effector_position;
  const Quat& r = feedback_.effector_orientation;
  if (feedback_.sprang_back && dt > 0) {
    // A link pushes harder than the limit: the target springs back onto the hand, the push relaxes.
    target_.position = p;
    if (target_.use_orientation) target_.orientation = r;
    goal_.reset();
  }
  // No runaway target: it stays within the tracking bound of the measured hand.
  const Vec3 d = target_.position - p;
  feedback_.tracking_error = d.norm();
  feedback_.target_held = false;
  if (feedback_.tracking_error > limits_.tracking_bound) {
    target_.position = p + d * (limits_.tracking_bound / feedback_.tracking_error);
    feedback_.target_held = true;
  }
  feedback_.tracking_angle_error = 0;
  if (target_.use_orientation) {
    feedback_.tracking_angle_error = rotation_angle(target_.orientation * r.conjugate());
    if (feedback_.tracking_angle_error > limits_.tracking_bound_angle) {
      target_.orientation = r.slerp(limits_.tracking_bound_angle / feedback_.tracking_angle_error, target_.orientation).normalized();
      feedback_.target_held = true;
    }
  }

  // IK warm-started at the previous solution rather than the measured pose: the drives lag, and
  // solving from the lagging pose would make the targets chase the robot.
  // In place: no allocation once the first update has sized the buffers.
  bool solved = solve_ik_in_place(model, state, target_, options_, solution_, workspace_);
  // Out of reach (or a singular direction): IK leaves a position residual that grew with this
  // move. The target stops where the arm could still follow it.
  const bool worse = solution_.position_error > kReachTolerance && solution_.position_error > position_error_before + Real(1e-6);
  if (solved && moving && !feedback_.sprang_back && worse) {
    target_ = before;
    goal_.reset();
    feedback_.out_of_reach = true;
    solved = solve_ik_in_place(model, state, target_, options_, solution_, workspace_);
  }
  if (solved) {
    for (std::size_t k = 0; k < solution_.joints.size(); ++k) {
      const int j = solution_.joints[k];
      if (model.joint_drive[j] == DriveMode::None) continue;
      // No velocity feed-forward: its damping term kd θ̇* would keep pushing a blocked hand.
      control.joint_target[j] = solution_.positions[k];
      if (j < static_cast<int>(control.joint_target_velocity.size())) control.joint_target_velocity[j] = 0;
    }
  }
  for (std::size_t k = 0; k < gripper_joints_.size(); ++k)
    control.joint_target[gripper_joints_[k]] = gripper_closed_ ? gripper_close_[k] : gripper_open_[k];
  // Gravity compensation: −m g at each moved body's centre of mass.
  if (static_cast<int>(control.body_wrench.size()) == model.body_count)
    for (int b : robot_bodies_) {
      control.body_wrench[b].setZero();
      if (limits_.gravity_compensation) control.body_wrench[b].head<3>() = -model.gravity / model.body_inv_mass[b];
    }
}

Result<GraspPose> pre_grasp_pose(const Model& m, const State& s, const TeleopController& controller, int object,
                                 Real clearance) {
  if (object < 0 || object >= m.body_count) return Error{"pre-grasp: no body " + std::to_string(object)};
  if (!m.body_is_dynamic(object)) return Error{"pre-grasp: '" + m.body_name[object] + "' is fixed"};
  const std::vector<int>& robot = controller.robot_bodies();
  if (std::find(robot.begin(), robot.end(), object) != robot.end())
    return Error{"pre-grasp: '" + m.body_name[object] + "' is part of the robot"};
  const Pose body = s.body_pose(object);
  // The object's highest point, from its shapes.
  Real top = -std::numeric_limits<Real>::infinity();
  for (int k = 0; k < m.shape_count; ++k) {
    if (m.shape_body[k] != object) continue;
    const Pose shape = body * m.shape_local[k];
    switch (m.shape_type[k]) {
      case ShapeType::Sphere: top = std::max(top, shape.pos.z() + m.shape_radius[k]); break;
      case ShapeType::Capsule: {
        const Vec3 axis = shape.rot * Vec3::UnitZ();
        top = std::max(top, shape.pos.z() + std::abs(axis.z()) * m.shape_half_length[k] + m.shape_radius[k]);
        break;
      }
      case ShapeType::Box: {
        const Vec3 h = m.shape_half_extents[k];
        const Eigen::Matrix<Real, 3, 3> R = shape.rot.toRotationMatrix();
        top = std::max(top, shape.pos.z() + std::abs(R(2, 0)) * h.x() + std::abs(R(2, 1)) * h.y() + std::abs(R(2, 2)) * h.z());
        break;
      }
      case ShapeType::ConvexMesh:
        if (m.shape_hull[k] >= 0) {
          for (const Vec3& v : m.hulls[m.shape_hull[k]].vertices) top = std::max(top, shape.apply(v).z());
          break;
        }
        [[fallthrough]];
      default: top = std::max(top, shape.pos.z() + m.shape_bound_radius[k]); break;
    }
  }
  if (!std::isfinite(top)) top = body.pos.z() + m.body_bound_radius[object];

  const int hand = controller.target().body;
  const Pose hand_pose = s.body_pose(hand) * m.body_frame_in_com[hand];
  // Tool axis: from the hand's origin to the driven point (the fingers' centre), in the hand frame.
  Vec3 tool = controller.target().point;
  if (tool.norm() < Real(1e-6)) tool = -Vec3::UnitZ();
  tool.normalize();
  // Closing direction: between the first two fingers, in the hand frame.
  Vec3 closing = Vec3::UnitY();
  const std::vector<int>& fingers = controller.gripper_joints();
  if (fingers.size() >= 2) {
    const Pose a = s.body_pose(m.joint_body_b[fingers[0]]) * m.body_frame_in_com[m.joint_body_b[fingers[0]]];
    const Pose b = s.body_pose(m.joint_body_b[fingers[1]]) * m.body_frame_in_com[m.joint_body_b[fingers[1]]];
    const Vec3 d = hand_pose.rot.conjugate() * (a.pos - b.pos);
    if (d.norm() > Real(1e-6)) closing = d.normalized();
  }
  // Turn the hand so the tool points down (the smallest rotation from where it points now).
  const Vec3 tool_world = hand_pose.rot * tool;
  Quat down = Quat::FromTwoVectors(tool_world, -Vec3::UnitZ()) * hand_pose.rot;
  // Then about the vertical so the fingers close across the object's horizontal axis nearest
  // to their present direction (a box is held by two opposite faces).
  Vec3 close_world = down * closing;
  close_world.z() = 0;
  if (close_world.norm() > Real(1e-6) && controller.target().use_orientation) {
    close_world.normalize();
    Vec3 object_x = body.rot * Vec3::UnitX();
    object_x.z() = 0;
    if (object_x.norm() < Real(1e-6)) object_x = body.rot * Vec3::UnitY();
    object_x.z() = 0;
    object_x.normalize();
    const Real present = std::atan2(close_world.y(), close_world.x());
    const Real object_yaw = std::atan2(object_x.y(), object_x.x());
    Real best = 0, best_distance = std::numeric_limits<Real>::infinity();
    for (int k = 0; k < 4; ++k) {  // the object's axes every quarter turn: the smallest hand turn
      Real turn = std::remainder(object_yaw + k * Real(M_PI / 2) - present, Real(2 * M_PI));
      if (std::abs(turn) < best_distance) {
        best_distance = std::abs(turn);
        best = turn;
      }
    }
    down = Quat(Eigen::AngleAxis<Real>(best, Vec3::UnitZ())) * down;
  }
  GraspPose out;
  out.orientation = controller.target().use_orientation ? down.normalized() : controller.target().orientation;
  // The driven point's height above the fingertips: half the fingers' height (their frames are
  // at their centres); the fingertips stop `clearance` above the top.
  Real tip_depth = 0;
  for (int j : fingers) {
    const int f = m.joint_body_b[j];
    tip_depth = std::max(tip_depth, m.body_bound_radius[f]);
  }
  out.position = Vec3(body.pos.x(), body.pos.y(), top + clearance + tip_depth);
  out.grasp_position = Vec3(body.pos.x(), body.pos.y(), std::max(body.pos.z(), top - tip_depth));
  return out;
}

}  // namespace sim
