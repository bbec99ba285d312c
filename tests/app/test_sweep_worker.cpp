// The capture sweep off the simulation thread (issue 15 item 4; app/gui/sweep_worker.hpp): the
// solves run on a thread of their own, each point handed over as it is done equals the point
// the one-shot sweep (sim::sweep_captured_step) computes for that value, and a cancel stops the
// sweep between solves with "cancelled" and the points done. The worker is held inside its first
// point until the test has checked and cancelled, so nothing depends on timing.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "gui/sweep_worker.hpp"
#include "support/scene_builders.hpp"

using namespace coulomb::gui;

namespace {

SweepRequest box_drop_request() {
  sim::SceneSpec spec;
  spec.dt = 0.005;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "box", sim::Vec3(0, 0, 0.099), 1.0, test::box_shape(sim::Vec3(0.1, 0.1, 0.1)));
  auto model = std::make_shared<const sim::Model>(test::compile(spec));
  SweepRequest r{model, model->solver, sim::make_initial_state(*model), sim::make_initial_control(*model),
                 "newton_iterations", {1, 2, 3, 4, 5}};
  return r;
}

}  // namespace

TEST_CASE("the sweep worker solves off the calling thread, point by point, and stops on cancel", "[capture][sweep]") {
  const SweepRequest request = box_drop_request();
  std::vector<sim::SweepPoint> expected;
  REQUIRE(sim::sweep_captured_step(*request.model, request.base, request.start, request.control, request.key,
                                   request.values, expected)
              .empty());
  REQUIRE(expected.size() == 5);

  SECTION("run to the end: the same points, in order, on another thread") {
    std::mutex m;
    std::vector<sim::SweepPoint> points;
    std::thread::id worker_thread;
    std::string error = "not done";
    SweepWorker worker;
    worker.start(request,
                 [&](int index, int total, const sim::SweepPoint& p) {
                   std::lock_guard<std::mutex> lock(m);
                   CHECK(index == static_cast<int>(points.size()));
                   CHECK(total == 5);
                   points.push_back(p);
                   worker_thread = std::this_thread::get_id();
                 },
                 [&](const std::string& e, int done, int total) {
                   std::lock_guard<std::mutex> lock(m);
                   error = e;
                   CHECK(done == 5);
                   CHECK(total == 5);
                 });
    worker.wait();
    CHECK_FALSE(worker.running());
    CHECK(error.empty());
    CHECK(worker_thread != std::this_thread::get_id());
    REQUIRE(points.size() == 5);
    for (std::size_t i = 0; i < 5; ++i) {
      CHECK(points[i].value == expected[i].value);
      CHECK(points[i].newton_iterations == expected[i].newton_iterations);
      CHECK(points[i].linear_iterations == expected[i].linear_iterations);
      CHECK(points[i].residual == expected[i].residual);  // bit for bit: the same solve
    }
  }

  SECTION("cancelled inside its first point: it stops there, says so, keeps the point done") {
    std::mutex m;
    std::condition_variable cv;
    bool inside = false, release = false;
    int points = 0, done_count = -1;
    std::string error = "not done";
    SweepWorker worker;
    worker.start(request,
                 [&](int, int, const sim::SweepPoint&) {
                   std::unique_lock<std::mutex> lock(m);
                   ++points;
                   inside = true;
                   cv.notify_all();
                   cv.wait(lock, [&] { return release; });
                 },
                 [&](const std::string& e, int done, int) {
                   std::lock_guard<std::mutex> lock(m);
                   error = e;
                   done_count = done;
                 });
    {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return inside; });
    }
    CHECK(worker.running());  // held in its first point while this thread goes on
    worker.cancel();
    {
      std::lock_guard<std::mutex> lock(m);
      release = true;
    }
    cv.notify_all();
    worker.wait();
    CHECK(points == 1);
    CHECK(done_count == 1);
    CHECK(error == "cancelled");
  }
}
