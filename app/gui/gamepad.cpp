#include "gui/gamepad.hpp"

#if COULOMB_HAVE_SDL2
#include <SDL.h>
#endif

namespace coulomb::gui {

#if COULOMB_HAVE_SDL2

namespace {

constexpr const char* kNoController = "no gamepad connected";

double stick(SDL_GameController* c, SDL_GameControllerAxis axis) {
  // −32768 .. 32767
  const double v = SDL_GameControllerGetAxis(c, axis);
  return v < 0 ? v / 32768.0 : v / 32767.0;
}

}  // namespace

Gamepad::~Gamepad() {
  close();
  if (initialised_) SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER);
}

bool Gamepad::init() {
  if (initialised_) return true;
  // The app owns the signals (Ctrl+C) and the windows: SDL only reads controllers.
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
  SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
  if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) {
    status_ = std::string("gamepad unavailable: SDL could not initialise its game controller support (") +
              SDL_GetError() + ")";
    return false;
  }
  initialised_ = true;
  status_ = kNoController;
  open_first();
  return true;
}

void Gamepad::open_first() {
  for (int i = 0; i < SDL_NumJoysticks() && !controller_; ++i) {
    if (!SDL_IsGameController(i)) continue;
    controller_ = SDL_GameControllerOpen(i);
    if (!controller_) continue;
    instance_ = SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(controller_));
    const char* name = SDL_GameControllerName(controller_);
    status_ = std::string(name ? name : "gamepad") + " connected";
  }
}

void Gamepad::close() {
  if (controller_) SDL_GameControllerClose(controller_);
  controller_ = nullptr;
  instance_ = -1;
  if (initialised_) status_ = kNoController;
}

bool Gamepad::poll(GamepadState& out) {
  out = GamepadState{};
  if (!initialised_) return false;
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if (event.type == SDL_CONTROLLERDEVICEREMOVED && event.cdevice.which == instance_) close();
    if (event.type == SDL_CONTROLLERDEVICEADDED && !controller_) open_first();
  }
  if (controller_ && !SDL_GameControllerGetAttached(controller_)) close();
  if (!controller_) return false;
  SDL_GameController* c = controller_;
  out.left_x = stick(c, SDL_CONTROLLER_AXIS_LEFTX);
  out.left_y = stick(c, SDL_CONTROLLER_AXIS_LEFTY);
  out.right_x = stick(c, SDL_CONTROLLER_AXIS_RIGHTX);
  out.right_y = stick(c, SDL_CONTROLLER_AXIS_RIGHTY);
  out.left_trigger = stick(c, SDL_CONTROLLER_AXIS_TRIGGERLEFT);
  out.right_trigger = stick(c, SDL_CONTROLLER_AXIS_TRIGGERRIGHT);
  out.left_shoulder = SDL_GameControllerGetButton(c, SDL_CONTROLLER_BUTTON_LEFTSHOULDER) != 0;
  out.right_shoulder = SDL_GameControllerGetButton(c, SDL_CONTROLLER_BUTTON_RIGHTSHOULDER) != 0;
  out.a = SDL_GameControllerGetButton(c, SDL_CONTROLLER_BUTTON_A) != 0;
  out.b = SDL_GameControllerGetButton(c, SDL_CONTROLLER_BUTTON_B) != 0;
  out.x = SDL_GameControllerGetButton(c, SDL_CONTROLLER_BUTTON_X) != 0;
  out.y = SDL_GameControllerGetButton(c, SDL_CONTROLLER_BUTTON_Y) != 0;
  return true;
}

#else  // built without SDL2

Gamepad::~Gamepad() = default;

bool Gamepad::init() {
  status_ = "gamepad unavailable: built without SDL2 (install libsdl2-dev and rebuild)";
  return false;
}

void Gamepad::open_first() {}
void Gamepad::close() {}

bool Gamepad::poll(GamepadState& out) {
  out = GamepadState{};
  return false;
}

#endif

}  // namespace coulomb::gui
