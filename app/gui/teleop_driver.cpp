#include "gui/teleop_driver.hpp"

#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <Qt>

#include "gui/sim_runner.hpp"
#include "ui/joint_panel.hpp"
#include "sim/inverse_kinematics.hpp"

namespace coulomb::gui {

namespace {

// Qt key → teleoperation key; Count when the key is not one.
TeleopKey teleop_key(int qt_key) {
  switch (qt_key) {
    case Qt::Key_Up: return TeleopKey::XPlus;
    case Qt::Key_Down: return TeleopKey::XMinus;
    case Qt::Key_Left: return TeleopKey::YPlus;
    case Qt::Key_Right: return TeleopKey::YMinus;
    case Qt::Key_PageUp: return TeleopKey::ZPlus;
    case Qt::Key_PageDown: return TeleopKey::ZMinus;
    case Qt::Key_U: return TeleopKey::RollPlus;
    case Qt::Key_O: return TeleopKey::RollMinus;
    case Qt::Key_I: return TeleopKey::PitchPlus;
    case Qt::Key_K: return TeleopKey::PitchMinus;
    case Qt::Key_J: return TeleopKey::YawPlus;
    case Qt::Key_L: return TeleopKey::YawMinus;
    case Qt::Key_BracketRight: return TeleopKey::Inflate;
    case Qt::Key_BracketLeft: return TeleopKey::Deflate;
    default: return TeleopKey::Count;
  }
}

bool snapshot_ready(const Snapshot& s) {
  return s.model && static_cast<int>(s.state.q.size()) == s.model->coord_count();
}

}  // namespace

TeleopDriver::TeleopDriver(SimRunner& runner, QObject* parent) : QObject(parent), runner_(runner) {
  gamepad_.init();  // on failure the status says why; keys and the gizmo still work
  timer_ = new QTimer(this);
  timer_->setInterval(16);
  connect(timer_, &QTimer::timeout, this, &TeleopDriver::poll);
  timer_->start();
}

TeleopDriver::~TeleopDriver() { timer_->stop(); }

bool TeleopDriver::start_session() {
  const Snapshot& s = runner_.current();
  if (!snapshot_ready(s)) return true;  // no scene yet: poll() starts it when one arrives
  const sim::Model& m = *s.model;
  TeleopSetup setup = chosen_body_ >= 0 ? teleop_setup_for_body(m, chosen_body_) : default_teleop_setup(m);
  if (!setup.valid() && chosen_body_ >= 0) {
    message_ = "'" + (chosen_body_ < m.body_count ? m.body_name[static_cast<std::size_t>(chosen_body_)] : std::string("?")) +
               "' is not on a driven joint chain: driving the default end effector";
    chosen_body_ = -1;
    setup = default_teleop_setup(m);
  }
  session_scene_ = s.scene_version;
  if (!setup.valid()) {
    message_ = "nothing to teleoperate in this scene (no body on a joint chain with position drives)";
    runner_.set_teleop(TeleopSetup{});
    return false;
  }
  runner_.set_teleop(setup);
  send_command(true);  // keys still held carry on into the new session
  return true;
}

bool TeleopDriver::set_enabled(bool on) {
  if (on == enabled_) return true;
  message_.clear();
  if (on) {
    enabled_ = true;
    if (!start_session()) {
      enabled_ = false;
      emit status_message(QString::fromStdString(message_));
      emit enabled_changed(false);
      return false;
    }
    // The target moves with simulated time: a paused simulation starts playing, or the keys would
    // seem dead to someone who has not found Play yet.
    if (!runner_.playing_requested()) runner_.set_playing(true);
  } else {
    enabled_ = false;
    gizmo_.end_drag();
    hover_ = GizmoHandle::None;
    release_keys();
    runner_.set_teleop(TeleopSetup{});
  }
  emit enabled_changed(enabled_);
  return true;
}

void TeleopDriver::set_end_effector(int body) {
  chosen_body_ = body;
  message_.clear();
  if (enabled_) start_session();
}

void TeleopDriver::toggle_gripper() {
  if (enabled_) runner_.toggle_teleop_gripper();
}

namespace {

// A body a gripper can pick: dynamic and not moved by the robot's joints (no joint at all).
bool is_object(const sim::Model& m, int body) {
  if (body < 0 || body >= m.body_count || !m.body_is_dynamic(body)) return false;
  for (int j = 0; j < m.joint_count; ++j)
    if (m.joint_body_a[static_cast<std::size_t>(j)] == body || m.joint_body_b[static_cast<std::size_t>(j)] == body) return false;
  return true;
}

}  // namespace

bool TeleopDriver::move_to_object(int body) {
  if (!enabled_) return false;
  const Snapshot& s = runner_.current();
  if (!snapshot_ready(s)) return false;
  if (body < 0) body = is_object(*s.model, selected_body_) ? selected_body_ : panel_object_;
  if (!is_object(*s.model, body)) {
    message_ = "move to object: select an object (double click it, or pick it in the Teleop panel)";
    emit status_message(QString::fromStdString(message_));
    return false;
  }
  message_.clear();
  runner_.teleop_move_to_object(body);
  return true;
}

void TeleopDriver::set_speeds(const TeleopSpeeds& speeds) {
  speeds_ = speeds;
  send_command();
}

bool TeleopDriver::key(int qt_key, bool down, bool auto_repeat) {
  if (!enabled_) return false;
  if (qt_key == Qt::Key_G) {
    if (down && !auto_repeat) toggle_gripper();
    return true;
  }
  if (qt_key == Qt::Key_M) {
    if (down && !auto_repeat) move_to_object();
    return true;
  }
  const TeleopKey k = teleop_key(qt_key);
  if (k == TeleopKey::Count) return false;
  if (auto_repeat) return true;
  keys_[static_cast<std::size_t>(k)] = down;
  send_command();
  return true;
}

void TeleopDriver::release_keys() {
  keys_.fill(false);
  send_command();
}

void TeleopDriver::send_command(bool force) {
  if (!enabled_) return;
  sim::TeleopCommand command = combine(keys_command(keys_, speeds_), gamepad_command(pad_, speeds_));
  // A or B act once per press.
  const int gripper = command.gripper;
  command.gripper = gripper != last_gripper_ ? gripper : 0;
  last_gripper_ = gripper;
  if (!force && command.gripper == 0 && command.linear_velocity == sent_.linear_velocity &&
      command.angular_velocity == sent_.angular_velocity)
    return;
  runner_.set_teleop_command(command);
  sent_ = command;
}

void TeleopDriver::poll() {
  pad_connected_ = gamepad_.poll(pad_);
  const Snapshot& s = runner_.current();
  // Another scene was opened: the end effector chosen and the message about the old one go, on
  // or off (the Teleop panel shows the new scene's default at once).
  if (snapshot_ready(s) && s.scene_version != seen_scene_) {
    seen_scene_ = s.scene_version;
    chosen_body_ = -1;
    message_.clear();
  }
  if (!enabled_) return;
  // Another scene was opened: drive its robot (the chosen body belonged to the old one).
  if (snapshot_ready(s) && s.scene_version != session_scene_) {
    chosen_body_ = -1;
    gizmo_.end_drag();
    if (!start_session()) {
      enabled_ = false;
      emit status_message(QString::fromStdString(message_));
      emit enabled_changed(false);
      return;
    }
  }
  send_command();
  ramp_pressure(s);
}

void TeleopDriver::ramp_pressure(const Snapshot& s) {
  const auto now = std::chrono::steady_clock::now();
  const double seconds = std::min(std::chrono::duration<double>(now - last_poll_).count(), 0.1);  // no jump after a stall
  last_poll_ = now;
  const int direction = pressure_direction(keys_, pad_);
  if (!snapshot_ready(s) || s.soft_pressure.empty()) return;
  // Held: ramp from where the last ramp left off (the snapshot lags the requests); not held:
  // follow the runner (the Joints panel may have moved them).
  if (direction == 0 || pressure_.size() != s.soft_pressure.size()) {
    pressure_ = s.soft_pressure;
    if (direction == 0) return;
  }
  if (s.model_version != pressure_range_version_ || pressure_range_.size() != pressure_.size()) {
    pressure_range_.clear();  // the sliders' ranges (the Joints panel's), in Pa
    for (float kpa : ui::make_joint_panel_view(*s.model).pressure_range_kpa)
      pressure_range_.push_back(1000.0 * static_cast<double>(kpa));
    pressure_range_version_ = s.model_version;
  }
  ramp_soft_pressure(pressure_, pressure_range_, direction, seconds);
  for (std::size_t g = 0; g < pressure_.size(); ++g)
    runner_.set_soft_pressure(static_cast<int>(g), static_cast<double>(pressure_[g]));
}

bool TeleopDriver::gizmo_pose(sim::Vec3& position, sim::Quat& orientation, bool& rotations) const {
  const Snapshot& s = runner_.current();
  if (!enabled_ || !s.teleop.active) return false;
  rotations = s.teleop.orientation_tracked;
  if (gizmo_dragging()) {
    position = drag_position_;
    orientation = drag_orientation_;
  } else {
    position = s.teleop.target_position;
    orientation = s.teleop.target_orientation;
  }
  return true;
}

bool TeleopDriver::gizmo_press(const GizmoView& view, double x, double y) {
  sim::Vec3 p;
  sim::Quat q;
  bool rotations = false;
  if (!gizmo_pose(p, q, rotations)) return false;
  const GizmoHandle h = TargetGizmo::pick(view, p, rotations, x, y);
  if (h == GizmoHandle::None || !gizmo_.begin_drag(h, view, p, q, x, y)) return false;
  drag_position_ = p;
  drag_orientation_ = q;
  return true;
}

bool TeleopDriver::gizmo_move(const GizmoView& view, double x, double y) {
  if (gizmo_dragging()) {
    sim::Vec3 p;
    sim::Quat q;
    if (!gizmo_.drag(x, y, p, q)) return false;
    drag_position_ = p;
    drag_orientation_ = q;
    runner_.set_teleop_target(p, q);
    return true;
  }
  sim::Vec3 p;
  sim::Quat q;
  bool rotations = false;
  const GizmoHandle before = hover_;
  hover_ = gizmo_pose(p, q, rotations) ? TargetGizmo::pick(view, p, rotations, x, y) : GizmoHandle::None;
  return hover_ != before;
}

void TeleopDriver::gizmo_release() { gizmo_.end_drag(); }

void TeleopDriver::fill_panel_view(const Snapshot& s, ui::TeleopPanelView& v) const {
  v.enabled = enabled_;
  v.gamepad_status = gamepad_.status();
  v.linear_speed = static_cast<float>(speeds_.linear);
  v.angular_speed = static_cast<float>(speeds_.angular);
  v.message = message_.empty() ? s.teleop.message : message_;
  if (!snapshot_ready(s)) {
    v.available = false;
    return;
  }
  const sim::Model& m = *s.model;
  if (s.model_version != listed_model_version_ || v.bodies.empty()) {
    // The bodies a session can drive, listed again when the model changes.
    v.bodies.clear();
    v.body_names.clear();
    for (int b = 0; b < m.body_count; ++b) {
      if (!teleop_setup_for_body(m, b).valid()) continue;
      v.bodies.push_back(b);
      v.body_names.push_back(m.body_name[static_cast<std::size_t>(b)]);
    }
    // The objects a gripper can pick (free bodies), the panel's "move to" list.
    v.objects.clear();
    v.object_names.clear();
    for (int b = 0; b < m.body_count; ++b) {
      if (!is_object(m, b)) continue;
      v.objects.push_back(b);
      v.object_names.push_back(m.body_name[static_cast<std::size_t>(b)]);
    }
    if (!is_object(m, panel_object_)) panel_object_ = v.objects.empty() ? -1 : v.objects.front();
    listed_model_version_ = s.model_version;
    default_end_effector_ = default_teleop_setup(m).end_effector;
  }
  v.object = is_object(m, selected_body_) ? selected_body_ : panel_object_;
  v.available = !v.bodies.empty();
  const TeleopStatus& t = s.teleop;
  v.end_effector = t.active ? t.end_effector : (chosen_body_ >= 0 ? chosen_body_ : default_end_effector_);
  for (int i = 0; i < 3; ++i) {
    v.target_position[i] = static_cast<float>(t.target_position[i]);
    v.effector_position[i] = static_cast<float>(t.effector_position[i]);
  }
  const Eigen::AngleAxis<sim::Real> aa(t.target_orientation);
  const sim::Vec3 rv = aa.angle() * aa.axis();
  for (int i = 0; i < 3; ++i) v.target_rotation[i] = static_cast<float>(rv[i]);
  v.orientation_tracked = t.orientation_tracked;
  v.tracking_error = static_cast<float>(t.tracking_error);
  v.tracking_angle_error = static_cast<float>(t.tracking_angle_error);
  v.target_held = t.target_held;
  v.out_of_reach = t.out_of_reach;
  v.tracking_bound = static_cast<float>(t.tracking_bound);
  v.moving_to_goal = t.moving_to_goal;
  v.grip_force_limit = static_cast<float>(t.grip_force_limit);
  v.finger_force.resize(t.finger_force.size());
  for (std::size_t i = 0; i < t.finger_force.size(); ++i) v.finger_force[i] = static_cast<float>(t.finger_force[i]);
  v.pushing_force = static_cast<float>(t.pushing_force);
  v.link_force_limit = static_cast<float>(t.link_force_limit);
  v.force_exceeded = t.force_exceeded;
  v.largest_force = static_cast<float>(t.largest_force);
  v.pushing_body.clear();
  if (t.pushing_body >= 0 && t.pushing_body < m.body_count) v.pushing_body = m.body_name[static_cast<std::size_t>(t.pushing_body)];
  // A link pushing beyond the limit: the warning stays up for a moment (it lasts a step in the status).
  const auto now = std::chrono::steady_clock::now();
  if (t.active && (t.force_exceeded || t.sprang_back)) {
    warning_until_ = now + std::chrono::milliseconds(1500);
    char text[160];
    std::snprintf(text, sizeof text, "%s pushes %.0f N (limit %.0f N): %s", v.pushing_body.c_str(), t.pushing_force,
                  t.link_force_limit, t.force_exceeded ? "beyond the limit" : "the target sprang back");
    warning_ = text;
  }
  v.force_warning = now < warning_until_ ? warning_ : std::string();
  v.ik_position_error = static_cast<float>(t.ik_position_error);
  v.ik_orientation_error = static_cast<float>(t.ik_orientation_error);
  v.ik_converged = t.ik_converged;
  v.has_gripper = t.active && !t.gripper_joints.empty();
  v.gripper_closed = t.gripper_closed;
  // The soft groups' pressures, as the runner has them.
  if (v.soft_groups.size() != static_cast<std::size_t>(m.soft_group_count) || s.model_version != soft_listed_version_) {
    const ui::JointPanelView groups = ui::make_joint_panel_view(m);
    v.soft_groups = groups.groups;
    v.soft_pressure_range_kpa = groups.pressure_range_kpa;
    soft_listed_version_ = s.model_version;
  }
  v.soft_pressure_kpa.resize(v.soft_groups.size());
  for (std::size_t g = 0; g < v.soft_groups.size() && g < s.soft_pressure.size(); ++g)
    v.soft_pressure_kpa[g] = static_cast<float>(s.soft_pressure[g] / 1000);
  v.soft_direction = enabled_ ? pressure_direction(keys_, pad_) : 0;
}

void TeleopDriver::apply(const ui::TeleopPanelEdits& edits, const ui::TeleopPanelView& v) {
  if (edits.speeds_changed)
    set_speeds({static_cast<double>(v.linear_speed), static_cast<double>(v.angular_speed)});
  if (edits.end_effector >= 0) set_end_effector(edits.end_effector);
  if (edits.toggle_gripper) toggle_gripper();
  if (edits.object >= 0) panel_object_ = edits.object;
  if (edits.move_to_object) move_to_object(edits.object >= 0 ? edits.object : v.object);
  if (edits.soft_group >= 0) {
    runner_.set_soft_pressure(edits.soft_group, 1000.0 * static_cast<double>(edits.soft_pressure_kpa));
    pressure_.clear();  // the next ramp starts from the runner's value
  }
  if (edits.toggle_enabled) set_enabled(!enabled_);
}

}  // namespace coulomb::gui
