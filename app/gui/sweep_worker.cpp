#include "gui/sweep_worker.hpp"

namespace coulomb::gui {

SweepWorker::~SweepWorker() {
  cancel();
  wait();
}

void SweepWorker::wait() {
  if (thread_.joinable()) thread_.join();
}

void SweepWorker::start(SweepRequest request, PointFn on_point, DoneFn on_done) {
  cancel();
  wait();
  cancel_.store(false, std::memory_order_release);
  running_.store(true, std::memory_order_release);
  thread_ = std::thread([this, request = std::move(request), on_point = std::move(on_point), on_done = std::move(on_done)] {
    const int total = static_cast<int>(request.values.size());
    std::string error;
    int done = 0;
    std::vector<sim::SweepPoint> point;
    for (; done < total; ++done) {
      if (cancel_.load(std::memory_order_acquire)) {
        error = "cancelled";
        break;
      }
      point.clear();
      error = sim::sweep_captured_step(*request.model, request.base, request.start, request.control, request.key,
                                       {request.values[static_cast<std::size_t>(done)]}, point);
      if (!error.empty() || point.empty()) break;
      on_point(done, total, point.front());
    }
    running_.store(false, std::memory_order_release);
    on_done(error, done, total);
  });
}

}  // namespace coulomb::gui
