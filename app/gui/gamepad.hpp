// A game controller read through SDL2's game controller API (SDL_INIT_GAMECONTROLLER only: no SDL
// video, no window): hot-plugged controllers are opened as they appear, the first one is read on
// every poll into a GamepadState (teleop_input.hpp maps it to a velocity command). Built without
// SDL2 (libsdl2-dev absent at configure time) or when SDL cannot initialise, init() fails with a
// message and the app runs without a gamepad. No Qt here; the UI polls it from a timer.
#pragma once

#include <string>

#include "gui/teleop_input.hpp"

struct _SDL_GameController;

namespace coulomb::gui {

class Gamepad {
 public:
  Gamepad() = default;
  ~Gamepad();  // closes the controller and SDL's game controller subsystem
  Gamepad(const Gamepad&) = delete;
  Gamepad& operator=(const Gamepad&) = delete;

  // Initialises SDL's game controller subsystem; false (with status()) when it cannot.
  bool init();
  bool initialised() const { return initialised_; }

  // Handles SDL's pending device events, then reads the open controller into `out`; false (and a
  // zero state) when no controller is connected.
  bool poll(GamepadState& out);

  // "Xbox 360 Controller", "no gamepad connected", or why there is no gamepad support.
  const std::string& status() const { return status_; }
  bool connected() const { return controller_ != nullptr; }

 private:
  void open_first();
  void close();

  bool initialised_ = false;
  _SDL_GameController* controller_ = nullptr;
  int instance_ = -1;  // SDL joystick instance id of the open controller
  std::string status_ = "gamepad not initialised";
};

}  // namespace coulomb::gui
