// CUDA kernels writing the renderer's pose slots in place (issue 17's interop): Vulkan exports
// the slots' device memory and a timeline semaphore (render::ExportedPoseBuffer), CUDA imports
// both (sim::cuda::ImportedPoseBuffer), a kernel writes each step's poses from a device copy of
// State::q and signals the semaphore, and a Vulkan submission that waits on that value reads the
// slot back: over 100 steps of shipped scenes the floats are the CPU's write_poses bit for bit,
// with no host synchronisation between the CUDA write and the Vulkan read. Needs a CUDA device and
// a Vulkan driver for the same GPU; says "skipped: ..." otherwise.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <memory>

#include "cuda/imported_pose_buffer.hpp"
#include "gpu/device_array.hpp"
#include "render/exported_pose_buffer.hpp"
#include "render/pose_sink.hpp"
#include "sim/step.hpp"
#include "support/pose_slot_reader.hpp"
#include "support/shipped_run.hpp"

namespace {

bool fcntl_closed(int fd) { return fcntl(fd, F_GETFD) == -1 && errno == EBADF; }

// A Vulkan context on the GPU that is CUDA device 0, with the interop extensions; null after a
// WARN saying why the test is skipped.
std::unique_ptr<render::HeadlessContext> interop_context_or_skip() {
  if (!test::cuda_device_present()) return nullptr;
  std::array<std::uint8_t, 16> uuid{};
  std::string error;
  REQUIRE(sim::cuda::cuda_device_uuid(0, uuid, error));
  render::HeadlessContextOptions options;
  options.interop = true;
  options.device_uuid = uuid;
  auto context = render::create_headless_context(options);
  if (!context) {
    WARN("skipped: no Vulkan device is CUDA device 0: " << context.error());
    return nullptr;
  }
  std::unique_ptr<render::HeadlessContext> hc = std::move(*context);
  const render::RenderContext& c = hc->context();
  INFO(hc->device_name());
  REQUIRE(c.external_memory_fd);
  REQUIRE(c.external_semaphore_fd);
  REQUIRE(c.timeline_semaphore);
  return hc;
}

}  // namespace

TEST_CASE("CUDA kernels write the renderer's exported pose slots in place, ordered by its timeline semaphore",
          "[gpu][interop]") {
  auto hc = interop_context_or_skip();
  if (!hc) return;
  const render::RenderContext& context = hc->context();
  std::printf("interop: Vulkan on %s\n", hc->device_name().c_str());
  for (const char* name : {"heavy_stack", "cloth", "soft_cube"}) {
    INFO(name);
    const sim::Model m = test::load_shipped_model(name);
    auto created = render::ExportedPoseBuffer::create(context, m.body_count, m.particle_count, 2);
    INFO((created.ok() ? std::string() : created.error()));
    REQUIRE(created.ok());
    render::ExportedPoseBuffer& poses = **created;
    REQUIRE(poses.has_semaphore());

    // A producer on another device is refused, and the descriptors it was handed are closed.
    {
      auto handles = poses.export_handles();
      REQUIRE(handles.ok());
      sim::SharedPoseMemory other = *handles;
      other.device_uuid[0] ^= 0xff;
      std::string error;
      REQUIRE(sim::cuda::ImportedPoseBuffer::import(other, m.particle_radius.data(), m.particle_count, error) == nullptr);
      REQUIRE(error.find("UUIDs differ") != std::string::npos);
      REQUIRE(fcntl_closed(other.memory_fd));
      REQUIRE(fcntl_closed(other.semaphore_fd));
    }

    auto handles = poses.export_handles();
    REQUIRE(handles.ok());
    std::string error;
    auto producer = sim::cuda::ImportedPoseBuffer::import(*handles, m.particle_radius.data(), m.particle_count, error);
    INFO(error);
    REQUIRE(producer);

    test::PoseSlotReader reader(context, poses);
    sim::State state = sim::make_initial_state(m);
    const sim::Control control = sim::make_initial_control(m);
    sim::Workspace ws;
    std::vector<float> expected(render::pose_float_count(m.body_count, m.particle_count));
    double publish_seconds = 0;
    for (std::uint64_t k = 1; k <= 100; ++k) {
      REQUIRE(sim::step(m, m.solver, state, control, ws).ok());
      const auto t0 = std::chrono::steady_clock::now();
      const int slot = poses.write_slot();
      REQUIRE(producer->write_host(state.q.data(), state.q.size(), slot, k) == cudaSuccess);
      poses.publish(k);
      publish_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      // The frame's submission waits on the GPU for value k: no cudaStreamSynchronize before it.
      const render::PoseSlotRing::Acquired a = poses.acquire(int(k % 2));
      REQUIRE(a.slot == slot);
      REQUIRE(a.tag == k);
      const std::vector<float> read = reader.read(a);
      render::write_poses(m, state.q, expected.data());
      REQUIRE(read.size() == expected.size());
      REQUIRE(std::equal(read.begin(), read.end(), expected.begin()));
    }
    REQUIRE(producer->synchronize() == cudaSuccess);
    std::printf("interop %s: %d bodies, %d particles, 100 frames equal to the CPU's poses; %.1f us per write+signal "
                "enqueued\n",
                name, m.body_count, m.particle_count, publish_seconds / 100 * 1e6);
    producer.reset();  // before the Vulkan memory it imported
  }
}
