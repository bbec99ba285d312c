// Connects the simulation thread to the renderer's pose buffer: SimRunner's pose hook calls
// write() on the simulation thread after each publish, which writes body poses and particle
// positions straight into the attached render::PoseSink (no copy through the UI thread). The
// viewport attaches a new sink after SceneRenderer::set_model and detaches it before; the mutex
// is held only for one write (never during a step), so attach/detach wait at most that long.
// Writes are ordered by snapshot sequence: an older state never overwrites a newer one.
// A replayed Solve capture (issue 15) holds the buffer on the capture's start State: hold()
// writes it and the simulation's writes are skipped until release(), after which the newest
// state seen is written again. No Qt.
#pragma once

#include <cstdint>
#include <mutex>

#include "render/pose_sink.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

namespace coulomb::gui {

class PoseBridge {
 public:
  // From now on write() fills `sink` (sized for a model with its body and particle counts).
  void attach(render::PoseSink* sink);
  void detach();
  bool attached() const;

  // Writes and publishes the state if a sink is attached, its sizes fit the model and `sequence`
  // is newer than the last written. Returns whether it wrote. Any thread, one at a time.
  // While held, nothing is written (the sequence is remembered).
  bool write(const sim::Model& model, const sim::State& state, std::uint64_t sequence);
  std::uint64_t writes() const;

  // Writes and publishes `state` (a captured step's start State) in place of the simulation's,
  // and holds it: write() is skipped until release(). Returns whether it wrote (a sink attached,
  // the sizes fit).
  bool hold(const sim::Model& model, const sim::State& state);
  // Ends a hold: the next write() of the newest sequence seen (or newer) goes through, so the
  // live state comes back even when the simulation has not stepped since. No-op when not held.
  void release();
  bool held() const;

 private:
  bool fits(const sim::Model& model, const sim::State& state) const;  // mutex held

  mutable std::mutex mutex_;
  render::PoseSink* sink_ = nullptr;
  std::uint64_t last_sequence_ = 0;
  std::uint64_t writes_ = 0;
  bool held_ = false;
  bool stale_ = false;  // released: the sink shows the held state, not last_sequence_'s
};

// What the viewport does each frame: with `replayed` (replay_pose_state() of the open capture)
// the buffer holds it; without, any hold is released and the live state written (skipped when
// the simulation thread wrote it already).
void write_frame_poses(PoseBridge& bridge, const sim::Model& model, const sim::State& live, std::uint64_t sequence,
                       const sim::State* replayed);

}  // namespace coulomb::gui
