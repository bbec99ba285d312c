#include "gui/teleop_driver.hpp"

#include <QTimer>
#include <Qt>

#include "gui/sim_runner.hpp"
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
    listed_model_version_ = s.model_version;
    default_end_effector_ = default_teleop_setup(m).end_effector;
  }
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
  v.ik_position_error = static_cast<float>(t.ik_position_error);
  v.ik_orientation_error = static_cast<float>(t.ik_orientation_error);
  v.ik_converged = t.ik_converged;
  v.has_gripper = t.active && !t.gripper_joints.empty();
  v.gripper_closed = t.gripper_closed;
}

void TeleopDriver::apply(const ui::TeleopPanelEdits& edits, const ui::TeleopPanelView& v) {
  if (edits.speeds_changed)
    set_speeds({static_cast<double>(v.linear_speed), static_cast<double>(v.angular_speed)});
  if (edits.end_effector >= 0) set_end_effector(edits.end_effector);
  if (edits.toggle_gripper) toggle_gripper();
  if (edits.toggle_enabled) set_enabled(!enabled_);
}

}  // namespace coulomb::gui
