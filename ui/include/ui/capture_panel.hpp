// The Solve capture panel (issue 15 items 2 and 6): one captured Newton solve, usually a failed
// step's (the app rolls back and solves it again with a capture). It shows the one-line
// explanation (ui/solve_diagnosis.hpp), scrubs the Newton iterations forward and back (the
// iterate's merit, residuals per row kind, step length, linear iterations), and lists the rows
// at that iterate in a table sortable by kind, residual and λ, the offending rows in red; its
// state column is the replay's stick/slip rule for contact rows (capture_contact_states: by the
// friction cone, not the solver's friction flag), active/inactive for limit rows.
// Clicking a table row selects it: the viewport outlines all of its bodies and particles (a
// contact or joint couples two, an FEM row four) and frames the camera on them. While the panel
// is open, the viewport replays the capture at the iterate shown (ui/capture_replay.hpp): a mark
// per contact and joint coloured by the chosen quantity, and λ as force arrows, with their colour
// legend and arrow scale here.
// Above, when given the ring (ui/capture_triggers.hpp): the capture triggers to set, a button
// that keeps the next step's solve, the kept solves (newest first, with their memory): clicking
// one opens it.
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/solve_capture.hpp"
#include "ui/capture_comparison.hpp"
#include "ui/capture_replay.hpp"
#include "ui/capture_triggers.hpp"
#include "ui/solve_diagnosis.hpp"

namespace ui {

// The table's columns; sorting by one of them.
enum class CaptureColumn : int { Row = 0, Kind, Bodies, Residual, Lambda, State };

struct CapturePanelView {
  const sim::SolveCapture* capture = nullptr;  // null: the panel says there is none
  const SolveDiagnosis* diagnosis = nullptr;   // highlighted rows and the explanation (null: none)
  bool failed = true;                          // a failed step (its explanation in red), else a kept one
  const sim::Model* model = nullptr;           // body names
  std::span<const sim::Contact> contacts;      // the captured step's contacts (their μ: the state column's rule)
  std::string headline;                        // "the step at t = 0.35 s failed: ..." (caller's)
  const CaptureRingStatus* ring = nullptr;     // triggers and kept solves (null: no such section)
  std::uint64_t opened_id = 0;                 // the kept solve shown (CaptureSummary::id; marked in the list)
  const CaptureComparison* comparison = nullptr;  // A/B and sweep of this capture (null: none yet)
  // The A/B and sweep inputs (kept between frames).
  bool ab_open = false;                        // hold the A/B section open
  int ab_key = -1;                             // index into sim::solver_option_keys() (-1: "preconditioner")
  char ab_value[48] = "identity";
  int sweep_key = -1;                          // (-1: "newton_iterations")
  float sweep_from = 1, sweep_to = 20;
  int sweep_count = 6;
  // Replay in the viewport (kept between frames; the app draws it while a capture is open).
  bool replay_shown = true;
  ReplayQuantity replay_quantity = ReplayQuantity::Residual;
  bool replay_arrows = true;
  // Filled by the app: the marks drawn in the last frame (their range and counts; null: none),
  // the arrows' scale and length limit [m/N, m] and why something is not drawn.
  const CaptureReplay* replay = nullptr;
  double force_scale = 0, max_arrow = 0;
  std::string replay_note;
  std::vector<std::array<float, 3>> map_colors;  // the colour map from low to high, sRGB (empty: no bar)
  // Kept between frames (caller-owned).
  int iteration = 0;                           // the iterate shown
  CaptureColumn sort = CaptureColumn::Residual;
  bool descending = true;
  int selected_row = -1;                       // a capture row (-1: none)
  bool open = false;                           // open the panel on the next frame (a new capture)
  std::vector<int> order;                      // scratch: the rows in the table's order
  std::vector<sim::Real> contact_normal;       // scratch: capture_contact_states at the iterate
  std::vector<sim::Vec2> contact_friction;
  std::vector<ReplayState> contact_states;
};

struct CapturePanelEdits {
  int select_body = -1;                        // a clicked row's first body: select it
  std::vector<int> frame_nodes;                // ... and all its nodes: frame the camera on them
  bool triggers_changed = false;               // set `triggers` on the ring
  CaptureTriggers triggers;
  bool capture_next = false;                   // keep the next step's solve (the button; F9)
  std::uint64_t open = 0;                      // open this kept solve (a click in the list; 0: none)
  bool compare = false;                        // solve the open capture again with key = value (B)
  std::string compare_key, compare_value;
  bool sweep = false;                          // solve it once per value of sweep_key
  std::string sweep_key;
  double sweep_from = 0, sweep_to = 0;
  int sweep_count = 0;
  bool sweep_cancel = false;                   // stop the running sweep (between its solves)
};

// The rows of `capture` at iterate `iteration` in the order of column `sort`: non-finite values
// count as the largest, ties keep the row order; at most `limit` rows. Into `out`. The state
// column sorts by capture_row_state with `contact_states` (capture_contact_states at the iterate).
void sort_capture_rows(const sim::SolveCapture& capture, int iteration, CaptureColumn sort, bool descending,
                       int limit, std::vector<int>& out, std::span<const ReplayState> contact_states = {});

// The nodes of capture row `row` (bodies 0..body_count-1, then particles) into `out`.
void capture_row_nodes(const sim::SolveCapture& capture, int row, std::vector<int>& out);

CapturePanelEdits capture_panel(CapturePanelView& view);

}  // namespace ui
