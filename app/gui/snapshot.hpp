// What the simulation thread publishes after each step for the UI to read (poses, contacts,
// forces, solver trace, report, pacing figures), and the lock-free triple buffer that hands it
// over: the writer never waits for the reader and the reader never waits for a step.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gui/failed_step.hpp"
#include "ui/capture_comparison.hpp"
#include "gui/teleop_session.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "ui/convergence_panel.hpp"
#include "ui/iteration_quartiles.hpp"

namespace coulomb::gui {

// The history scrubber's ring (state_history.hpp) as the UI sees it.
struct HistoryStatus {
  std::size_t size = 0;        // states held (0: none)
  long cursor = -1;            // the state shown: an index into them; -1: the newest (live)
  double first_time = 0;       // simulated time of the oldest and the newest state [s]
  double last_time = 0;
  std::size_t bytes = 0;       // memory the states hold now, and the budget [bytes]
  std::size_t budget = 0;
  std::size_t capacity = 0;    // states the budget holds
};

// The per-step figures kept for the timeline (10 s at 120 Hz).
inline constexpr int kTimelineSteps = 1200;
// The steps and Newton iterates of the quartile plot (2 s at 120 Hz).
inline constexpr int kQuartileSteps = 240;
inline constexpr int kQuartileIterations = 32;

struct Snapshot {
  std::uint64_t sequence = 0;              // increases with every publish (0: nothing yet)
  std::shared_ptr<const sim::Model> model; // the model `state` belongs to (immutable once published)
  std::uint64_t scene_version = 0;         // changes when a scene is loaded (not with edits)
  std::uint64_t model_version = 0;         // changes when the model's structure or geometry changes
  std::uint64_t parameter_version = 0;     // changes with every model change, parameter patches included
  sim::State state;
  // Contacts, contact forces, joint forces and the solver trace of the last step (the scratch
  // members stay empty): renderers and panels take it where they take a Workspace.
  sim::Workspace workspace;
  sim::StepReport report;                  // last step
  bool stepped = false;                    // report/workspace hold a step (false after load/reset)
  bool playing = false;
  bool real_time = true;
  double real_time_factor = 0;             // simulated / wall seconds over the last ~0.5 s
  double ms_per_step = 0;                  // wall time of step(), smoothed [ms]
  double max_residual = 0;                 // largest final residual of the last step (normal, friction, bilateral)
  std::string message;                     // why the simulation paused itself (divergence), else empty
  std::uint64_t retried_steps = 0;         // steps since the run started that passed only when retried (sim::kStepRetried)
  std::string last_retry;                  // the last one's time and what it recovered from
  TeleopStatus teleop;                     // the teleoperation session (active: driving)
  std::vector<sim::Real> joint_target;     // the drive targets the next step uses (keyframes save them)
  std::vector<sim::Real> soft_pressure;    // the soft groups' active pressure the next step uses [Pa]
  HistoryStatus history;
  // Every step's figures (final residuals, iterations, contacts, ms) over the last steps, recorded
  // by the simulation thread: the Convergence panel's timeline misses none at a low frame rate.
  // A fixed ring, copied into the slot without allocating once warm.
  ui::ConvergenceHistory steps{kTimelineSteps};
  // The residual per Newton iterate of the last steps (the Convergence panel's quartile plot,
  // the paper's Fig. 16); a fixed ring like `steps`.
  ui::IterationTraces traces{kQuartileSteps, kQuartileIterations};
  // The capture open in the Solve capture panel (null: none): the last failed step of this model,
  // rolled back and solved again with a capture, or a kept solve opened from the ring; its id
  // changes with every one (the UI opens the panel on a new one).
  std::shared_ptr<const FailedStep> failed_step;
  // A/B and sweep of the open capture (its capture_id: FailedStep::id; null: none asked for).
  std::shared_ptr<const ui::CaptureComparison> comparison;
  // The capture ring's kept solves (oldest first), triggers and memory (capture_ring.hpp).
  ui::CaptureRingStatus captures;
  std::chrono::steady_clock::time_point published{};
};

// Single writer, single reader. Three slots: the writer fills its back slot and swaps it into the
// middle; the reader swaps the middle into its front slot when something new is there. Both swaps
// are one atomic exchange, so neither side ever blocks. The reader's front() stays valid and
// unchanged until its next acquire().
template <class T>
class TripleBuffer {
 public:
  // Writer side.
  T& back() { return slots_[back_]; }
  void publish() {
    const unsigned previous = middle_.exchange(back_ | kFresh, std::memory_order_acq_rel);
    back_ = previous & kIndex;
  }

  // Reader side: takes the newest published value if there is one; true if it did.
  bool acquire() {
    if (!(middle_.load(std::memory_order_acquire) & kFresh)) return false;
    const unsigned previous = middle_.exchange(front_, std::memory_order_acq_rel);
    front_ = previous & kIndex;
    return true;
  }
  const T& front() const { return slots_[front_]; }

 private:
  static constexpr unsigned kIndex = 3u;
  static constexpr unsigned kFresh = 4u;
  std::array<T, 3> slots_{};
  unsigned back_ = 0;                 // writer's
  unsigned front_ = 2;                // reader's
  std::atomic<unsigned> middle_{1u};  // index of the shared slot, | kFresh when unread
};

}  // namespace coulomb::gui
