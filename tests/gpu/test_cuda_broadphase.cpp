// The broadphase on the device (sim/cuda/device_broadphase.hpp): for random box sets (ties,
// signed zeros, every group combination, excluded objects) on every sweep axis, and for the boxes
// and groups the collision stage builds for shipped scenes and a 10,153-box pyramid, the device's
// sorted pair list is the CPU's sweep_and_prune list exactly. Prints CPU and device times.
// Says "skipped: no CUDA device" without a GPU.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "collision/broadphase.hpp"
#include "collision/collide.hpp"
#include "cuda/device_broadphase.hpp"
#include "gpu/device_array.hpp"
#include "sim/scene_io.hpp"
#include "support/pyramid_scene.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_run.hpp"

using sim::Real;
using sim::Vec3;
using sim::detail::Aabb;

namespace {

struct Timed {
  std::vector<std::uint64_t> pairs;
  double ms = 0;
};

Timed cpu_pairs(const std::vector<Aabb>& boxes, const std::vector<std::uint8_t>& groups) {
  sim::detail::SweepAndPrune sap;  // fresh: a full sort, as on a first step
  Timed t;
  const auto t0 = std::chrono::steady_clock::now();
  sim::detail::sweep_and_prune(boxes, groups, sap, t.pairs, true);
  t.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

Timed device_pairs(sim::cuda::DeviceBroadphase& broadphase, const std::vector<Aabb>& boxes,
                   const std::vector<std::uint8_t>& groups, int axis) {
  test::DeviceArray<Aabb> b(boxes);
  test::DeviceArray<std::uint8_t> g(groups);
  Timed t;
  REQUIRE(broadphase.run(b.get(), g.get(), int(boxes.size()), axis, nullptr) == cudaSuccess);  // warm
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(broadphase.run(b.get(), g.get(), int(boxes.size()), axis, nullptr) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  t.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  t.pairs.resize(std::size_t(broadphase.pair_count()));
  if (!t.pairs.empty())
    REQUIRE(cudaMemcpy(t.pairs.data(), broadphase.pairs(), t.pairs.size() * sizeof(std::uint64_t),
                       cudaMemcpyDeviceToHost) == cudaSuccess);
  return t;
}

// `count` boxes in a cube of side `spread` (sizes up to `size`); a fifth of the lower bounds
// snapped to a coarse lattice (ties), some at ±0 on each axis.
void random_boxes(int count, Real spread, Real size, unsigned seed, std::vector<Aabb>& boxes,
                  std::vector<std::uint8_t>& groups) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<Real> unit(0, 1);
  const std::uint8_t kinds[] = {0, 0, 0, sim::detail::kGroupStatic, sim::detail::kGroupParticle,
                                sim::detail::kBroadphaseExcluded};
  boxes.resize(std::size_t(count));
  groups.resize(std::size_t(count));
  for (int i = 0; i < count; ++i) {
    Aabb& b = boxes[std::size_t(i)];
    for (int a = 0; a < 3; ++a) {
      Real lo = (unit(random) - Real(0.5)) * spread;
      if (i % 5 == 0) lo = std::round(lo / size) * size;
      if (i % 97 == a) lo = (i % 2 ? Real(0) : -Real(0));
      b.lo[a] = lo;
      b.hi[a] = lo + unit(random) * size;
    }
    groups[std::size_t(i)] = kinds[random() % 6];
  }
}

}  // namespace

TEST_CASE("the device broadphase gives the CPU's sorted pairs on random boxes, on every axis", "[gpu][broadphase]") {
  if (!test::cuda_device_present()) return;
  sim::cuda::DeviceBroadphase broadphase;
  for (int count : {1, 2, 7, 1000, 50000}) {
    std::vector<Aabb> boxes;
    std::vector<std::uint8_t> groups;
    random_boxes(count, Real(10), Real(0.4), unsigned(count), boxes, groups);
    const Timed cpu = cpu_pairs(boxes, groups);
    for (int axis = 0; axis < 3; ++axis) {
      INFO(count << " boxes, axis " << axis);
      const Timed gpu = device_pairs(broadphase, boxes, groups, axis);
      REQUIRE(gpu.pairs == cpu.pairs);
    }
    if (count >= 1000) std::printf("broadphase %d random boxes: %zu pairs, equal to the CPU's\n", count, cpu.pairs.size());
  }
  // Everything excluded, and nothing at all.
  std::vector<Aabb> boxes(10);
  std::vector<std::uint8_t> excluded(10, sim::detail::kBroadphaseExcluded);
  REQUIRE(device_pairs(broadphase, boxes, excluded, 0).pairs.empty());
  REQUIRE(broadphase.run(nullptr, nullptr, 0, 0, nullptr) == cudaSuccess);
  REQUIRE(broadphase.pair_count() == 0);
}

TEST_CASE("the device broadphase gives the CPU's pairs on the collision stage's boxes", "[gpu][broadphase]") {
  if (!test::cuda_device_present()) return;
  sim::cuda::DeviceBroadphase broadphase;
  auto check = [&](const std::string& name, const sim::Model& m, const sim::State& state) {
    INFO(name);
    sim::detail::CollisionScratch scratch;
    sim::detail::prepare_pairs(m, state, m.dt, m.solver.contact_margin, scratch);
    const Timed cpu = cpu_pairs(scratch.boxes, scratch.groups);
    const Timed gpu = device_pairs(broadphase, scratch.boxes, scratch.groups, 0);
    REQUIRE(gpu.pairs == cpu.pairs);
    std::printf("broadphase %-12s %6zu objects, %6zu pairs: CPU %.3f ms (one thread, full sort), device %.3f ms\n",
                name.c_str(), scratch.boxes.size(), cpu.pairs.size(), cpu.ms, gpu.ms);
  };
  for (const char* name : {"table_pile", "pyramid", "cloth", "workcell", "soft_cube", "friction_texture"}) {
    test::ShippedRun run(name, 20);
    check(name, run.model, run.state);
  }
  auto spec = sim::parse_scene_xml(test::pyramid_xml(142), "pyramid.xml");
  REQUIRE(spec.ok());
  test::ShippedRun pile(test::compile(*spec), 3);
  check("pyramid 10k", pile.model, pile.state);
}
