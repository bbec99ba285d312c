#include "gui/teleop_input.hpp"

#include <algorithm>
#include <cmath>

namespace coulomb::gui {

namespace {

double held(const HeldKeys& keys, TeleopKey plus, TeleopKey minus) {
  return (keys[static_cast<std::size_t>(plus)] ? 1.0 : 0.0) - (keys[static_cast<std::size_t>(minus)] ? 1.0 : 0.0);
}

sim::Real real(double v) { return static_cast<sim::Real>(v); }

}  // namespace

sim::TeleopCommand keys_command(const HeldKeys& keys, const TeleopSpeeds& speeds) {
  sim::TeleopCommand c;
  c.linear_velocity = sim::Vec3(real(held(keys, TeleopKey::XPlus, TeleopKey::XMinus)),
                                real(held(keys, TeleopKey::YPlus, TeleopKey::YMinus)),
                                real(held(keys, TeleopKey::ZPlus, TeleopKey::ZMinus))) *
                      real(speeds.linear);
  c.angular_velocity = sim::Vec3(real(held(keys, TeleopKey::RollPlus, TeleopKey::RollMinus)),
                                 real(held(keys, TeleopKey::PitchPlus, TeleopKey::PitchMinus)),
                                 real(held(keys, TeleopKey::YawPlus, TeleopKey::YawMinus))) *
                       real(speeds.angular);
  return c;
}

double apply_dead_zone(double value, double dead_zone) {
  const double v = std::clamp(value, -1.0, 1.0);
  const double zone = std::clamp(dead_zone, 0.0, 0.99);
  const double magnitude = std::abs(v);
  if (magnitude <= zone) return 0.0;
  return std::copysign((magnitude - zone) / (1.0 - zone), v);
}

sim::TeleopCommand gamepad_command(const GamepadState& pad, const TeleopSpeeds& speeds, double dead_zone) {
  auto axis = [dead_zone](double v) { return apply_dead_zone(v, dead_zone); };
  sim::TeleopCommand c;
  // Stick up is negative in SDL: up drives +x; stick left (negative) drives +y.
  c.linear_velocity = sim::Vec3(real(-axis(pad.left_y)), real(-axis(pad.left_x)),
                                real(axis(pad.right_trigger) - axis(pad.left_trigger))) *
                      real(speeds.linear);
  c.angular_velocity = sim::Vec3(real((pad.right_shoulder ? 1.0 : 0.0) - (pad.left_shoulder ? 1.0 : 0.0)),
                                 real(-axis(pad.right_y)), real(-axis(pad.right_x))) *
                       real(speeds.angular);
  c.gripper = pad.a ? 1 : pad.b ? -1 : 0;
  return c;
}

sim::TeleopCommand combine(const sim::TeleopCommand& a, const sim::TeleopCommand& b) {
  sim::TeleopCommand c;
  c.linear_velocity = a.linear_velocity + b.linear_velocity;
  c.angular_velocity = a.angular_velocity + b.angular_velocity;
  c.gripper = a.gripper != 0 ? a.gripper : b.gripper;
  return c;
}

int pressure_direction(const HeldKeys& keys, const GamepadState& pad) {
  const int up = keys[static_cast<std::size_t>(TeleopKey::Inflate)] || pad.x;
  const int down = keys[static_cast<std::size_t>(TeleopKey::Deflate)] || pad.y;
  return up - down;
}

void ramp_soft_pressure(std::vector<sim::Real>& pressure, const std::vector<double>& range, int direction, double seconds) {
  if (direction == 0 || !(seconds > 0)) return;
  for (std::size_t g = 0; g < pressure.size() && g < range.size(); ++g) {
    const double step = static_cast<double>(direction) * range[g] * seconds / 2.0;  // the range in 2 s
    pressure[g] = real(std::clamp(static_cast<double>(pressure[g]) + step, -range[g], range[g]));
  }
}

}  // namespace coulomb::gui
