#include "render/vulkan_context.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace render {

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* context = static_cast<VulkanContext*>(user);
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    ++context->validation_errors;
    std::fprintf(stderr, "vulkan validation error: %s\n", data->pMessage);
  } else if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    ++context->validation_warnings;
    std::fprintf(stderr, "vulkan validation warning: %s\n", data->pMessage);
  }
  return VK_FALSE;
}

bool has_layer(const char* name) {
  std::uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const VkLayerProperties& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

}  // namespace

VulkanContext::~VulkanContext() {
  if (device != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance, messenger, nullptr);
  }
  if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
}

int VulkanContext::memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags properties) const {
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(physical_device, &mem);
  for (std::uint32_t i = 0; i < mem.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & properties) == properties) return static_cast<int>(i);
  return -1;
}

sim::Result<std::shared_ptr<VulkanContext>> create_headless_context(bool validation) {
  auto ctx = std::make_shared<VulkanContext>();
  const char* layer = "VK_LAYER_KHRONOS_validation";
  if (validation && !has_layer(layer))
    return sim::Error{"Vulkan validation requested but VK_LAYER_KHRONOS_validation is not installed"};
  ctx->validation = validation;

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "coulomb";
  app.apiVersion = VK_API_VERSION_1_1;
  std::vector<const char*> extensions;
  if (validation) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = on_validation_message;
  messenger_info.pUserData = ctx.get();
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  if (validation) {
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = &layer;
    info.pNext = &messenger_info;
  }
  if (vkCreateInstance(&info, nullptr, &ctx->instance) != VK_SUCCESS)
    return sim::Error{"cannot create a Vulkan instance (is a Vulkan driver such as mesa-vulkan-drivers installed?)"};
  if (validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(ctx->instance, "vkCreateDebugUtilsMessengerEXT"));
    if (create) create(ctx->instance, &messenger_info, nullptr, &ctx->messenger);
  }

  std::uint32_t count = 0;
  vkEnumeratePhysicalDevices(ctx->instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(ctx->instance, &count, devices.data());
  int best_score = -1;
  for (VkPhysicalDevice d : devices) {
    std::uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(d, &families, props.data());
    for (std::uint32_t f = 0; f < families; ++f) {
      if (!(props[f].queueFlags & VK_QUEUE_GRAPHICS_BIT)) continue;
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(d, &p);
      const int score = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? 3
                        : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 2 : 1;
      if (score > best_score) {
        best_score = score;
        ctx->physical_device = d;
        ctx->queue_family = f;
        ctx->device_name = p.deviceName;
      }
      break;
    }
  }
  if (ctx->physical_device == VK_NULL_HANDLE) return sim::Error{"no Vulkan device with a graphics queue"};

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = ctx->queue_family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkPhysicalDeviceFeatures features{};
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue;
  device_info.pEnabledFeatures = &features;
  if (vkCreateDevice(ctx->physical_device, &device_info, nullptr, &ctx->device) != VK_SUCCESS)
    return sim::Error{"cannot create a Vulkan device on " + ctx->device_name};
  vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
  return ctx;
}

}  // namespace render
