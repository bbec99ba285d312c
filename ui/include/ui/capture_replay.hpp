// Replay of a captured solve in the viewport (issue 15 item 2): at the Newton iterate the Solve
// capture panel is scrubbed to, one mark per contact, per joint with rows and per particle distance
// row (rope, cloth; at the midpoint of its two particles), coloured by a chosen
// quantity of its rows at that iterate, and the contacts' multipliers λ as forces (the viewport
// draws them as arrows at the contact points, render::copy_contacts), each joint's linear
// constraint force and each distance row's pull on its particle b (arrows at their marks). A pure function over the
// capture (sim/solve_capture.hpp). Soft bodies' elements (a tet's seven rows, a shell triangle's
// four, a hinge's one) and particle attachments get one mark each, at the mean of their nodes
// (no arrow: their forces are internal).: no ImGui, no renderer; the app turns the marks into coloured
// overlay lines (app/gui/capture_replay_overlay.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "sim/math.hpp"
#include "sim/contact.hpp"
#include "sim/model.hpp"
#include "sim/solve_capture.hpp"

namespace ui {

enum class ReplayQuantity : int {
  Residual = 0,     // the largest residual of the mark's rows (each in its row's units)
  Complementarity,  // the largest residual of its NCP rows only (normal, limit, friction: the NCP
                    // functions of eqs. 93-106, zero exactly when complementarity holds); joints
                    // without a limit have none (grey)
  ActiveSet,        // contacts and limits: NCP active or not; bilateral joints and distance rows always active
  StickSlip,        // contacts: separated (normal inactive), else sliding when the friction force is
                    // on the cone (friction_cone_ratio > kSlidingConeRatio, as the Contact panel
                    // says), else sticking; without the contacts (μ) the friction rows' flag
                    // (W > 0 of eq. 106, which Fischer–Burmeister sets at any slip speed)
};
inline constexpr int kReplayQuantities = 4;
const char* replay_quantity_name(ReplayQuantity quantity);  // "residual", "complementarity", ...
bool replay_quantity_continuous(ReplayQuantity quantity);   // Residual, Complementarity: a colour map

enum class ReplayState : std::int8_t { None = 0, Inactive, Active, Stick, Slip };
inline constexpr int kReplayStates = 5;
const char* replay_state_name(ReplayState state);  // "n/a", "inactive", "active", "stick", "slip"
// What a mark in that state is drawn with (linear RGB in [0, 1]; the panel's legend shows it sRGB).
std::array<float, 3> replay_state_color(ReplayState state);

struct ReplayMark {
  int contact = -1;         // the contact it marks (its index in the captured step's contacts), or
  int joint = -1;           // the joint, or
  int distance = -1;        // the particle distance row (rope, cloth: Model::distance_*), or
  int element = -1;         // an elastic element's (tet, shell triangle, hinge) or particle
                            // attachment's first row: its rows are the consecutive bilateral rows
                            // with that row's source and nodes
  int worst_row = -1;       // its row with the largest value (-1: none has one)
  double value = std::numeric_limits<double>::quiet_NaN();  // Residual / Complementarity (valid with worst_row >= 0; may be non-finite)
  ReplayState state = ReplayState::None;                    // ActiveSet / StickSlip
};

struct CaptureReplay {
  int iteration = -1;
  ReplayQuantity quantity = ReplayQuantity::Residual;
  std::vector<ReplayMark> marks;          // contacts (ascending), then joints, then distance rows (ascending),
                                          // then elements (in row order)
  // Per contact (capture.contact_count): λ_n and (λ_f1, λ_f2) along tangent1, tangent2 at the
  // iterate [N]: the force on side a is λ_n n + λ_f1 d1 + λ_f2 d2.
  std::vector<sim::Real> normal_force;
  std::vector<sim::Vec2> friction_force;
  std::vector<ReplayState> contact_state;  // per contact: capture_contact_states' stick / slip / inactive
  // Per joint (model.joint_count): the linear constraint force its positional rows put on body b
  // at the iterate, the sum of λ w over them (ui/joint_row_axis.hpp; their axes with the
  // capture's start State) [N, world]; zero for a joint without rows (the viewport draws it as an
  // arrow at the joint's mark; a pendulum at rest: m g up).
  std::vector<sim::Vec3> joint_force;
  // Per particle distance row (model.distance_count): the force its multiplier puts on particle b,
  // λ n with n = (x_b − x_a)/|x_b − x_a| at the capture's start State (the row's gradient on b,
  // kernels/distance_row_kernel.hpp) [N, world]: a rope's tension pulling b towards a (a hanging
  // rope at rest: the weight below b, up). The viewport draws it as an arrow at the row's mark.
  std::vector<sim::Vec3> distance_force;
  double lo = 0, hi = 0;                  // the marks' finite positive values: the log map's ends
  int non_finite = 0;                     // marks whose value is NaN or inf (drawn at the map's top)
  double largest_force = 0;               // the largest |λ_n n + λ_f| over the contacts, |joint_force| and |distance_force| [N]
};

// The marks of `capture` at `iteration` (clamped to the captured iterates). No marks when the
// capture holds no solve. `contacts`: the captured step's (their μ for stick/slip; ignored unless
// there are capture.contact_count of them).
void build_capture_replay(const sim::Model& model, const sim::SolveCapture& capture,
                          std::span<const sim::Contact> contacts, int iteration, ReplayQuantity quantity,
                          CaptureReplay& out);

// Each contact of `capture` at `iteration` (clamped; capture.contact_count entries in each):
// λ_n, (λ_f1, λ_f2) [N] and its state by the one stick/slip rule of the replay and the rows
// table: Inactive (separated) when its normal row is inactive, else Slip when its friction force
// is on its cone (friction_cone_ratio > kSlidingConeRatio, as the Contact panel says), else
// Stick. Without the contacts (their μ; `contacts` must hold capture.contact_count), Slip falls
// back to the friction rows' flag (W > 0 of eq. 106). None for a contact without a normal row.
void capture_contact_states(const sim::SolveCapture& capture, std::span<const sim::Contact> contacts, int iteration,
                            std::vector<sim::Real>& normal_force, std::vector<sim::Vec2>& friction_force,
                            std::vector<ReplayState>& state);

// The state of capture row `row` at iterate `it` as the rows table shows it: a contact's rows
// (normal and friction) its contact's state (`contact_states`, from capture_contact_states); a
// limit row Active or Inactive (NCP active); other rows None.
ReplayState capture_row_state(const sim::SolveCapture& capture, std::span<const ReplayState> contact_states,
                              const sim::CapturedIterate& it, int row);

// Where a mark's value sits on the replay's log colour map: 0 at lo (and below), 1 at hi;
// non-finite values 1; NaN for a mark without a value or a quantity without a map (drawn by state).
float replay_map_position(const CaptureReplay& replay, const ReplayMark& mark);

}  // namespace ui
