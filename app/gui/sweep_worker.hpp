// The Solve capture panel's sweep (issue 15 item 4) on a thread of its own, so the simulation
// keeps stepping while a captured step is solved once per value of an option: one solve per
// value (sim::sweep_captured_step over that value), each point handed to `on_point` as it is
// done (the runner posts it to the simulation thread, which publishes it with the progress), the
// end to `on_done`; cancel() stops it between solves (a solve in progress finishes). No Qt.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "sim/captured_resolve.hpp"

namespace coulomb::gui {

struct SweepRequest {
  std::shared_ptr<const sim::Model> model;
  sim::SolverOptions base;     // the capture's options
  sim::State start;            // the captured step's input
  sim::Control control;
  std::string key;             // the swept option
  std::vector<double> values;
};

class SweepWorker {
 public:
  // Called on the worker thread: point `index` of `total`; at the end "" or why it stopped (a
  // refused value's message, "cancelled") with the points done.
  using PointFn = std::function<void(int index, int total, const sim::SweepPoint& point)>;
  using DoneFn = std::function<void(const std::string& error, int done, int total)>;

  SweepWorker() = default;
  ~SweepWorker();  // cancels and waits
  SweepWorker(const SweepWorker&) = delete;
  SweepWorker& operator=(const SweepWorker&) = delete;

  // Cancels and waits for a sweep in progress, then starts this one.
  void start(SweepRequest request, PointFn on_point, DoneFn on_done);
  void cancel() { cancel_.store(true, std::memory_order_release); }
  bool running() const { return running_.load(std::memory_order_acquire); }
  // Waits for the sweep to end (tests; the destructor).
  void wait();

 private:
  std::thread thread_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> running_{false};
};

}  // namespace coulomb::gui
