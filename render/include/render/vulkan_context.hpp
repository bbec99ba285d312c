// A Vulkan instance, device and graphics queue for rendering without a window (offscreen frames,
// tests on Mesa's lavapipe). With validation on, the Khronos validation layer's messages are
// counted (and printed), so tests can fail on any validation error.
#pragma once

#include <vulkan/vulkan.h>

#include <memory>
#include <string>

#include "sim/result.hpp"

namespace render {

struct VulkanContext {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  std::string device_name;
  bool validation = false;
  int validation_errors = 0;    // counted by the debug messenger
  int validation_warnings = 0;

  VulkanContext() = default;
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;
  ~VulkanContext();

  // Index of a memory type with `properties` among `type_bits`, or -1.
  int memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags properties) const;
};

// Creates a context on the first suitable device (discrete preferred; lavapipe accepted).
// `validation`: enable VK_LAYER_KHRONOS_validation when installed (an error if it is not).
sim::Result<std::shared_ptr<VulkanContext>> create_headless_context(bool validation);

}  // namespace render
