// Connects the simulation thread to the renderer's pose buffer: SimRunner's pose hook calls
// write() on the simulation thread after each publish, which writes body poses and particle
// positions straight into the attached render::PoseSink (no copy through the UI thread). The
// viewport attaches a new sink after SceneRenderer::set_model and detaches it before; the mutex
// is held only for one write (never during a step), so attach/detach wait at most that long.
// Writes are ordered by snapshot sequence: an older state never overwrites a newer one. No Qt.
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
  bool write(const sim::Model& model, const sim::State& state, std::uint64_t sequence);
  std::uint64_t writes() const;

 private:
  mutable std::mutex mutex_;
  render::PoseSink* sink_ = nullptr;
  std::uint64_t last_sequence_ = 0;
  std::uint64_t writes_ = 0;
};

}  // namespace coulomb::gui
