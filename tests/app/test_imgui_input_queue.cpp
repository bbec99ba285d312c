// The ImGui input queue (app/gui/imgui_input_queue.hpp): Dear ImGui 1.86 samples io.MouseDown once
// per frame, so a press and release between two frames are lost; through the queue they land on
// consecutive frames and the button clicks. Headless ImGui context, no display.
#include <catch2/catch.hpp>

#include <imgui.h>

#include "gui/imgui_input_queue.hpp"
#include "ui/headless_imgui.hpp"

namespace {

// One frame with a button at a fixed place; true when it was clicked.
bool frame_with_button() {
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(10, 10));
  ImGui::SetNextWindowSize(ImVec2(200, 100));
  ImGui::Begin("w");
  ImGui::SetCursorScreenPos(ImVec2(50, 50));
  const bool clicked = ImGui::Button("press me", ImVec2(100, 30));
  ImGui::End();
  ImGui::Render();
  return clicked;
}

}  // namespace

TEST_CASE("a press and release between two frames click an ImGui button through the queue", "[app][input]") {
  test::HeadlessImGui context;
  ImGuiIO& io = ImGui::GetIO();
  frame_with_button();

  SECTION("set directly, as 1.86 is fed without a queue, the click is lost") {
    io.MousePos = ImVec2(100, 65);
    frame_with_button();  // hover
    io.MouseDown[0] = true;
    io.MouseDown[0] = false;  // both between the same two frames
    int clicks = 0;
    for (int i = 0; i < 4; ++i) clicks += frame_with_button();
    CHECK(clicks == 0);
  }
  SECTION("queued, the press lands in one frame and the release in the next") {
    coulomb::gui::ImGuiInputQueue queue;
    queue.mouse_position(100, 65);
    queue.mouse_button(0, true);
    queue.mouse_button(0, false);
    CHECK(queue.apply(io));  // the release waits
    CHECK(io.MouseDown[0]);
    CHECK_FALSE(frame_with_button());
    CHECK_FALSE(queue.apply(io));  // nothing left after this one
    CHECK_FALSE(io.MouseDown[0]);
    CHECK(frame_with_button());
    CHECK(queue.empty());
  }
  SECTION("a double click and keys keep their order, one change per frame") {
    coulomb::gui::ImGuiInputQueue queue;
    queue.mouse_position(300, 300);
    queue.mouse_button(0, true);
    queue.mouse_button(0, false);
    queue.mouse_button(0, true);
    queue.mouse_position(310, 300);  // a move after the press waits for the next frame too
    queue.key(ImGuiKey_Enter, true);
    queue.key(ImGuiKey_Enter, false);
    queue.character('x');
    int frames = 0;
    std::vector<bool> down;
    while (queue.apply(io) && frames < 10) {
      down.push_back(io.MouseDown[0]);
      frame_with_button();
      ++frames;
    }
    down.push_back(io.MouseDown[0]);
    // press | release | press | move, Enter down | Enter up, 'x'
    CHECK(frames == 4);
    CHECK(down == std::vector<bool>{true, false, true, true, true});
    CHECK(io.MousePos.x == 310);
    CHECK_FALSE(io.KeysDown[ImGuiKey_Enter]);
  }
}
