// The Solve capture replayed in the viewport (issue 15 item 2): the marks of ui/capture_replay.hpp
// (a contact's or joint's rows at the scrubbed Newton iterate, coloured by the chosen quantity)
// and the contacts' multipliers as force arrows, turned into the renderer's contact overlay in
// place of the live step's contacts. The captured step's contacts are placed with its start
// State (the bodies as the solve began), and the bodies and particles are drawn in it too
// (replay_pose_state, held in the pose buffer by PoseBridge::hold); joints are marked at their
// frame on body a, with their constraint force as an arrow; particle distance rows at the
// midpoint of their particles, with their pull on particle b as an arrow.
#pragma once

#include <span>
#include <string>

#include "render/frame_input.hpp"
#include "sim/contact.hpp"
#include "sim/model.hpp"
#include "sim/solve_capture.hpp"
#include "ui/capture_replay.hpp"

namespace coulomb::gui {

// The State the viewport draws the bodies and particles in: the capture's start State while its
// replay is shown (a solve captured, the replay switched on, the run paused, the capture of this
// model's size), so the marks and arrows sit on the bodies as they were; null otherwise (the
// live state).
const sim::State* replay_pose_state(const sim::Model& model, const sim::SolveCapture* capture, bool replay_shown,
                                    bool playing);

// Linear RGB of a mark: the replay's log colour map (viridis, render::field_color) for the
// continuous quantities, grey without a value; the state's colour otherwise.
glm::vec3 replay_mark_color(const ui::CaptureReplay& replay, const ui::ReplayMark& mark);

// Fills `out` (cleared first): the capture's contacts at its start State with their forces at the
// replay's iterate (normal_force, friction_force: the arrows), and a mark per contact, joint and
// distance row (mark_point, mark_color; mark_force: a joint's CaptureReplay::joint_force, a
// distance row's CaptureReplay::distance_force, zero for a contact's: its arrows are its own). A distance row's mark is at the midpoint of its two particles. `contacts` are the captured step's (FailedStep::contacts); when they
// do not match the capture (another count) the contact marks and arrows are left out and the
// returned line says so; "" otherwise.
std::string fill_replay_overlay(const sim::Model& model, const sim::SolveCapture& capture,
                                std::span<const sim::Contact> contacts, const ui::CaptureReplay& replay,
                                render::ContactOverlay& out);

}  // namespace coulomb::gui
