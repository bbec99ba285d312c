// Teleoperation input to a Cartesian velocity command (sim::TeleopCommand): the keys held down
// and a gamepad's sticks, triggers and buttons. The sum of both is what the simulation thread
// integrates into the end-effector target. No Qt, no SDL here (the viewport maps Qt keys to
// TeleopKey, gamepad.hpp reads SDL's game controller into GamepadState).
//
// Keys (world axes; z up):           Gamepad (SDL game controller layout):
//   Up / Down         +x / −x          left stick up / down      +x / −x
//   Left / Right      +y / −y          left stick left / right   +y / −y
//   Page Up / Down    +z / −z          right / left trigger      +z / −z
//   U / O             roll  ±x         shoulders right / left    roll ±x
//   I / K             pitch ±y         right stick up / down     pitch ±y
//   J / L             yaw   ±z         right stick left / right  yaw ±z
//   G                 gripper toggle   A closes, B opens
//   ] / [             soft bodies' active pressure up / down while held   X inflates, Y deflates
#pragma once

#include <array>
#include <vector>

#include "sim/teleoperation.hpp"

namespace coulomb::gui {

enum class TeleopKey {
  XPlus, XMinus, YPlus, YMinus, ZPlus, ZMinus,
  RollPlus, RollMinus, PitchPlus, PitchMinus, YawPlus, YawMinus,
  Inflate, Deflate,  // the soft groups' active pressure (Control::soft_pressure), not the hand
  Count
};

using HeldKeys = std::array<bool, static_cast<std::size_t>(TeleopKey::Count)>;

struct TeleopSpeeds {
  double linear = 0.1;    // full deflection / a held key [m/s]
  double angular = 0.5;   // [rad/s]
};

// Each held key adds ± the speed along its axis (opposite keys cancel).
sim::TeleopCommand keys_command(const HeldKeys& held, const TeleopSpeeds& speeds);

// One reading of a game controller: axes in [−1, 1] (SDL's sign: stick down and right positive),
// triggers in [0, 1].
struct GamepadState {
  double left_x = 0, left_y = 0, right_x = 0, right_y = 0;
  double left_trigger = 0, right_trigger = 0;
  bool left_shoulder = false, right_shoulder = false;
  bool a = false, b = false;
  bool x = false, y = false;  // inflate, deflate the soft groups
};

// The dead zone: |v| below `dead_zone` reads 0, above it rescales linearly so that full
// deflection still reads ±1 (no jump at the edge of the zone).
double apply_dead_zone(double value, double dead_zone);

// Sticks and triggers (after the dead zone) times the speeds, as in the table above; A sets the
// gripper field to +1 (close), B to −1 (open), neither 0.
sim::TeleopCommand gamepad_command(const GamepadState& pad, const TeleopSpeeds& speeds, double dead_zone = 0.15);

// Component-wise sum of the velocities; the gripper field of `a` unless it is 0.
sim::TeleopCommand combine(const sim::TeleopCommand& a, const sim::TeleopCommand& b);

// Inflating (+1), deflating (−1) or neither (0, also when both are asked): ] / [ held, or the
// gamepad's X / Y.
int pressure_direction(const HeldKeys& held, const GamepadState& pad);

// Ramps every soft group's pressure `pressure` [Pa] by `direction` (±1, 0 leaves it) for
// `seconds`: at a rate that crosses its slider's range (`range` [Pa], ± range) in 2 s, clamped to
// it. Deterministic (the same inputs give the same doubles), so a recorded session replays it.
void ramp_soft_pressure(std::vector<sim::Real>& pressure, const std::vector<double>& range, int direction, double seconds);

}  // namespace coulomb::gui
