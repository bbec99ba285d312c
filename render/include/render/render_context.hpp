// The Vulkan objects the renderer runs on. A window that owns its device (the Qt shell's
// QVulkanWindow) describes its handles in a RenderContext; headless use (offscreen frames, tests,
// `coulomb render`) creates and owns them with create_headless_context().
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sim/result.hpp"

namespace render {

// Handles only; whoever created them destroys them. The queue is externally synchronized:
// render/ submits to it (uploads in set_model, offscreen frames) only from the thread that records.
struct RenderContext {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;   // supports graphics (and so transfer)
  VkQueue queue = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory_properties{};
  // The device was created with fillModeNonSolid (wireframe drawing): the headless context enables
  // it where supported; a Qt window's device has every supported 1.0 feature (Qt 6.4's
  // QVulkanWindow enables them all but robustBufferAccess).
  bool fill_mode_non_solid = false;
  // The physical device's VkPhysicalDeviceIDProperties::deviceUUID (what a CUDA device must match
  // to share its memory), and whether the device was created with what ExportedPoseBuffer needs:
  // VK_KHR_external_memory_fd, VK_KHR_external_semaphore_fd and timeline semaphores. The headless
  // context enables them with HeadlessContextOptions::interop; a window that enabled them sets them.
  std::array<std::uint8_t, 16> device_uuid{};
  bool external_memory_fd = false;
  bool external_semaphore_fd = false;
  bool timeline_semaphore = false;
};

// Fills properties and memory properties for handles someone else created (the Qt window).
RenderContext describe_context(VkInstance instance, VkPhysicalDevice physical_device, VkDevice device,
                               std::uint32_t queue_family, VkQueue queue);

// Index of a memory type allowed by `type_bits` with all `required` flags, preferring one that
// also has `preferred`; -1 when none has `required`.
int find_memory_type(const RenderContext& context, std::uint32_t type_bits, VkMemoryPropertyFlags required,
                     VkMemoryPropertyFlags preferred = 0);

// The largest sample count <= `requested` that colour and depth attachments both support
// (4x asked for by default; every device has 1x and 4x).
VkSampleCountFlagBits choose_sample_count(const RenderContext& context, int requested);

struct HeadlessContextOptions {
  bool validation = false;                 // VK_LAYER_KHRONOS_validation; an error if not installed
  bool synchronization_validation = false; // also the layer's synchronization checks (slower)
  bool print_messages = true;              // validation messages to stderr as they arrive
  std::string device_name_contains;        // pick the first device whose name contains this
  // Pick the device with this deviceUUID (the CUDA device's, for interop); an error if none has it.
  std::optional<std::array<std::uint8_t, 16>> device_uuid;
  // Enable the memory and semaphore export extensions and timeline semaphores where the device
  // has them (RenderContext says which it got).
  bool interop = false;
};

// Counts (and prints) what the debug-utils messenger reports, so tests can fail on any
// validation error.
struct ValidationCounts {
  int errors = 0;
  int warnings = 0;
  std::string first_error;   // the first error message, for test output
};

// Owns an instance, a device on the best physical device (discrete > integrated > virtual >
// CPU, so Mesa's lavapipe is accepted when nothing else exists), one graphics queue and, with
// validation, a debug messenger.
class HeadlessContext {
 public:
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  const RenderContext& context() const { return context_; }
  std::string device_name() const { return context_.properties.deviceName; }
  bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }
  ValidationCounts validation_counts() const;

  struct Log;  // what the messenger callback writes (defined in render_context.cpp)

 private:
  friend sim::Result<std::unique_ptr<HeadlessContext>> create_headless_context(const HeadlessContextOptions&);
  HeadlessContext();
  RenderContext context_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::unique_ptr<Log> log_;   // the messenger's user data: stable address
};

// Errors say what is missing: no Vulkan loader/driver, no device with a graphics queue, or the
// validation layer when it was asked for.
sim::Result<std::unique_ptr<HeadlessContext>> create_headless_context(const HeadlessContextOptions& options = {});

}  // namespace render
