// The pose slots a CUDA producer writes in place (render/exported_pose_buffer.hpp), on the Vulkan
// side alone: the slot ring never hands the producer a slot a frame reads, the exported memory
// starts as identity poses, and its file descriptor names the same memory (imported into a
// second Vulkan buffer here, written there, read back through the exported one). Runs on Mesa's
// lavapipe, which exports memory but not semaphores; the CUDA side runs in tests/gpu.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <memory>
#include <random>

#include "gpu_resources.hpp"
#include "render/exported_pose_buffer.hpp"
#include "render/pose_sink.hpp"
#include "render_test_support.hpp"
#include "support/pose_slot_reader.hpp"

namespace {

// The shared context (with the interop extensions), or null after a WARN saying why not.
render::HeadlessContext* interop_or_skip() {
  render::HeadlessContext* hc = render_test::context_or_skip();
  if (hc && !hc->context().external_memory_fd) {
    WARN("skipped: " << hc->device_name() << " has no VK_KHR_external_memory_fd");
    return nullptr;
  }
  return hc;
}

}  // namespace

TEST_CASE("the pose slot ring never hands the producer a slot that a frame or the next frame reads", "[render]") {
  for (int frames : {1, 2, 3}) {
    render::PoseSlotRing ring(frames);
    REQUIRE(ring.slot_count() == frames + 2);
    std::mt19937 random(7 + frames);
    std::vector<int> held(std::size_t(frames), -1);
    int latest = 0;
    std::uint64_t latest_tag = 0, tag = 0;
    for (int event = 0; event < 2000; ++event) {
      if (random() % 2) {
        const int written = ring.write_slot();
        const int next = ring.publish(++tag);
        latest = written, latest_tag = tag;
        // The next slot to write is neither the newest nor one a frame holds.
        REQUIRE(next == ring.write_slot());
        REQUIRE(next != latest);
        REQUIRE(std::find(held.begin(), held.end(), next) == held.end());
      } else {
        const int frame = int(random() % std::uint32_t(frames));
        const render::PoseSlotRing::Acquired a = ring.acquire(frame);
        REQUIRE(a.slot == latest);
        REQUIRE(a.tag == latest_tag);  // the value that slot's writes signal
        held[std::size_t(frame)] = a.slot;
        REQUIRE(ring.write_slot() != a.slot);
      }
      REQUIRE(ring.write_slot() >= 0);
      REQUIRE(ring.write_slot() < ring.slot_count());
    }
    REQUIRE(ring.publish_count() == tag);
  }
}

TEST_CASE("the exported pose buffer starts as identity poses and its descriptor names its memory", "[render]") {
  render::HeadlessContext* hc = interop_or_skip();
  if (!hc) return;
  const render::RenderContext& context = hc->context();
  const int errors_before = hc->validation_counts().errors;
  const int bodies = 3, particles = 5;
  auto created = render::ExportedPoseBuffer::create(context, bodies, particles, 2);
  REQUIRE(created.ok());
  render::ExportedPoseBuffer& poses = **created;
  REQUIRE(poses.slot_count() == 4);
  REQUIRE(poses.slot_range() == render::pose_float_count(bodies, particles) * sizeof(float));

  test::PoseSlotReader reader(context, poses);
  // Before any publish a frame reads identity poses at the origin (w = 1, all else 0).
  const std::vector<float> initial = reader.read(poses.acquire(0));
  for (std::size_t i = 0; i < initial.size(); ++i) {
    const bool w = i < std::size_t(8 * bodies) && i % 8 == 7;
    REQUIRE(initial[i] == (w ? 1.0f : 0.0f));
  }

  auto handles = poses.export_handles();
  REQUIRE(handles.ok());
  const sim::SharedPoseMemory m = *handles;
  REQUIRE(m.memory_fd >= 0);
  REQUIRE(m.allocation_size >= m.slot_stride * std::uint64_t(m.slot_count));
  REQUIRE(m.slot_count == poses.slot_count());
  REQUIRE(m.body_count == bodies);
  REQUIRE(m.particle_count == particles);
  REQUIRE(m.device_uuid == context.device_uuid);
  REQUIRE((m.semaphore_fd >= 0) == poses.has_semaphore());
  if (m.semaphore_fd >= 0) close(m.semaphore_fd);

  // The descriptor imported as a second buffer: what is written there is what the exported
  // buffer's slot holds.
  auto imported = render::create_external_buffer(context, m.slot_stride * std::uint64_t(m.slot_count),
                                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT, m.memory_fd, m.allocation_size);
  if (!imported) close(m.memory_fd);
  INFO((imported.ok() ? std::string() : imported.error()));
  REQUIRE(imported.ok());
  std::mt19937 random(11);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  std::vector<float> pattern(std::size_t(m.slot_stride / sizeof(float)) * std::size_t(m.slot_count));
  for (float& f : pattern) f = value(random);
  REQUIRE(render::upload_to_buffer(context, imported->buffer, pattern.data(), pattern.size() * sizeof(float)).ok());
  for (int slot = 0; slot < poses.slot_count(); ++slot) {
    const std::vector<float> read = reader.read({slot, 0});
    const float* expected = pattern.data() + std::size_t(poses.slot_offset(slot) / sizeof(float));
    REQUIRE(std::equal(read.begin(), read.end(), expected));
  }
  render::destroy_buffer(context.device, imported->buffer);
  REQUIRE(hc->validation_counts().errors == errors_before);
}
