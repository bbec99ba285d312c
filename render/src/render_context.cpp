#include "render/render_context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "vulkan_check.hpp"

namespace render {

const char* vk_result_name(VkResult result) {
  switch (result) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER (no Vulkan driver installed?)";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    default: return "VkResult error";
  }
}

namespace {

std::array<std::uint8_t, 16> physical_device_uuid(VkPhysicalDevice device) {
  auto id = vk_init<VkPhysicalDeviceIDProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES);
  auto properties2 = vk_init<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  properties2.pNext = &id;
  vkGetPhysicalDeviceProperties2(device, &properties2);
  std::array<std::uint8_t, 16> uuid{};
  std::memcpy(uuid.data(), id.deviceUUID, uuid.size());
  return uuid;
}

}  // namespace

RenderContext describe_context(VkInstance instance, VkPhysicalDevice physical_device, VkDevice device,
                               std::uint32_t queue_family, VkQueue queue) {
  RenderContext c;
  c.instance = instance;
  c.physical_device = physical_device;
  c.device = device;
  c.queue_family = queue_family;
  c.queue = queue;
  vkGetPhysicalDeviceProperties(physical_device, &c.properties);
  vkGetPhysicalDeviceMemoryProperties(physical_device, &c.memory_properties);
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(physical_device, &supported);
  c.fill_mode_non_solid = supported.fillModeNonSolid == VK_TRUE;
  c.device_uuid = physical_device_uuid(physical_device);
  return c;
}

int find_memory_type(const RenderContext& context, std::uint32_t type_bits, VkMemoryPropertyFlags required,
                     VkMemoryPropertyFlags preferred) {
  const VkPhysicalDeviceMemoryProperties& m = context.memory_properties;
  int fallback = -1;
  for (std::uint32_t i = 0; i < m.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    const VkMemoryPropertyFlags flags = m.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return static_cast<int>(i);
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  return fallback;
}

VkSampleCountFlagBits choose_sample_count(const RenderContext& context, int requested) {
  const VkSampleCountFlags supported = context.properties.limits.framebufferColorSampleCounts &
                                       context.properties.limits.framebufferDepthSampleCounts;
  for (int s = 64; s > 1; s /= 2)
    if (s <= requested && (supported & static_cast<VkSampleCountFlags>(s))) return static_cast<VkSampleCountFlagBits>(s);
  return VK_SAMPLE_COUNT_1_BIT;
}

// ---- headless context -------------------------------------------------------------------------

struct HeadlessContext::Log {
  std::mutex mutex;
  ValidationCounts counts;
  bool print = true;
};

HeadlessContext::HeadlessContext() : log_(std::make_unique<Log>()) {}

HeadlessContext::~HeadlessContext() {
  if (context_.device) {
    vkDeviceWaitIdle(context_.device);
    vkDestroyDevice(context_.device, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(context_.instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(context_.instance, messenger_, nullptr);
  }
  if (context_.instance) vkDestroyInstance(context_.instance, nullptr);
}

ValidationCounts HeadlessContext::validation_counts() const {
  std::lock_guard<std::mutex> lock(log_->mutex);
  return log_->counts;
}

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT types,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* log = static_cast<HeadlessContext::Log*>(user);
  const bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  const bool warning = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  if (!error && !warning) return VK_FALSE;
  const char* message = data && data->pMessage ? data->pMessage : "(no message)";
  std::lock_guard<std::mutex> lock(log->mutex);
  if (error) {
    if (log->counts.errors++ == 0) log->counts.first_error = message;
  } else {
    ++log->counts.warnings;
  }
  if (log->print)
    std::fprintf(stderr, "[vulkan %s%s] %s\n", error ? "error" : "warning",
                 (types & VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT) ? ", performance" : "", message);
  return VK_FALSE;  // never abort the call that triggered the message
}

bool has_layer(const char* name) {
  std::uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

bool has_instance_extension(const char* name, const char* layer = nullptr) {
  std::uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(layer, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data());
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

int graphics_queue_family(VkPhysicalDevice device) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (std::uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) return static_cast<int>(i);
  return -1;
}

bool has_device_extension(VkPhysicalDevice device, const char* name) {
  std::uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

int device_type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

}  // namespace

sim::Result<std::unique_ptr<HeadlessContext>> create_headless_context(const HeadlessContextOptions& options) {
  std::unique_ptr<HeadlessContext> hc(new HeadlessContext());
  hc->log_->print = options.print_messages;

  std::uint32_t loader_version = VK_API_VERSION_1_0;
  auto enumerate_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  if (enumerate_version) enumerate_version(&loader_version);
  if (loader_version < VK_API_VERSION_1_1)
    return sim::Error{"the Vulkan loader supports only Vulkan 1.0; the renderer needs 1.1"};

  const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";
  std::vector<const char*> layers, extensions;
  if (options.validation) {
    if (!has_layer(kValidationLayer))
      return sim::Error{"validation asked for but VK_LAYER_KHRONOS_validation is not installed "
                        "(Debian: vulkan-validationlayers)"};
    if (!has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
        !has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME, kValidationLayer))
      return sim::Error{"validation asked for but VK_EXT_debug_utils is missing"};
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }

  auto app = vk_init<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "coulomb";
  app.applicationVersion = VK_MAKE_VERSION(0, 1, 0);
  app.pEngineName = "coulomb-render";
  app.apiVersion = VK_API_VERSION_1_1;

  auto messenger_info = vk_init<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = on_debug_message;
  messenger_info.pUserData = hc->log_.get();

  VkValidationFeatureEnableEXT sync_feature = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  auto features = vk_init<VkValidationFeaturesEXT>(VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = &sync_feature;

  auto instance_info = vk_init<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instance_info.pApplicationInfo = &app;
  instance_info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  instance_info.ppEnabledLayerNames = layers.data();
  instance_info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  instance_info.ppEnabledExtensionNames = extensions.data();
  if (options.validation) {
    // Chained into the instance so that vkCreateInstance/vkDestroyInstance are checked too.
    instance_info.pNext = &messenger_info;
    if (options.synchronization_validation) messenger_info.pNext = &features;
  }
  RenderContext& c = hc->context_;
  if (VkResult r = vkCreateInstance(&instance_info, nullptr, &c.instance); r != VK_SUCCESS) {
    c.instance = VK_NULL_HANDLE;
    return sim::Error{std::string("cannot create a Vulkan instance: ") + vk_result_name(r)};
  }
  if (options.validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(c.instance, "vkCreateDebugUtilsMessengerEXT"));
    messenger_info.pNext = nullptr;
    if (!create || create(c.instance, &messenger_info, nullptr, &hc->messenger_) != VK_SUCCESS)
      return sim::Error{"cannot create the Vulkan debug messenger"};
  }

  std::uint32_t device_count = 0;
  vkEnumeratePhysicalDevices(c.instance, &device_count, nullptr);
  std::vector<VkPhysicalDevice> devices(device_count);
  vkEnumeratePhysicalDevices(c.instance, &device_count, devices.data());
  int best_rank = -1, best_family = -1;
  std::string seen;
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(d, &p);
    seen += std::string(seen.empty() ? "" : ", ") + p.deviceName;
    const int family = graphics_queue_family(d);
    if (family < 0 || p.apiVersion < VK_API_VERSION_1_1) continue;
    if (!options.device_name_contains.empty() &&
        std::string(p.deviceName).find(options.device_name_contains) == std::string::npos)
      continue;
    if (options.device_uuid && physical_device_uuid(d) != *options.device_uuid) continue;
    const int rank = device_type_rank(p.deviceType);
    if (rank > best_rank) {
      best_rank = rank;
      best_family = family;
      c.physical_device = d;
    }
  }
  if (!c.physical_device)
    return sim::Error{device_count == 0 ? std::string("no Vulkan device found (install a driver, e.g. Debian's "
                                                      "mesa-vulkan-drivers for the lavapipe CPU device)")
                                        : "no Vulkan 1.1 device with a graphics queue" +
                                              (options.device_name_contains.empty()
                                                   ? std::string()
                                                   : " named like '" + options.device_name_contains + "'") +
                                              (options.device_uuid ? " with the CUDA device's UUID" : "") +
                                              " among: " + seen};

  const float priority = 1.0f;
  auto queue_info = vk_init<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue_info.queueFamilyIndex = static_cast<std::uint32_t>(best_family);
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(c.physical_device, &supported);
  VkPhysicalDeviceFeatures features_enabled{};  // only wireframe drawing, where the device has it
  features_enabled.fillModeNonSolid = supported.fillModeNonSolid;
  c.fill_mode_non_solid = supported.fillModeNonSolid == VK_TRUE;
  auto device_info = vk_init<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.pEnabledFeatures = &features_enabled;
  // Interop: memory and semaphore export by POSIX fd, timeline semaphores (core in 1.2; the
  // extension on this 1.1 instance), each where the device has it.
  std::vector<const char*> device_extensions;
  auto timeline = vk_init<VkPhysicalDeviceTimelineSemaphoreFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES_KHR);
  bool memory_fd = false, semaphore_fd = false, timeline_semaphore = false;
  if (options.interop) {
    memory_fd = has_device_extension(c.physical_device, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
    semaphore_fd = has_device_extension(c.physical_device, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
    if (has_device_extension(c.physical_device, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME)) {
      auto supported_timeline = vk_init<VkPhysicalDeviceTimelineSemaphoreFeaturesKHR>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES_KHR);
      auto features2 = vk_init<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
      features2.pNext = &supported_timeline;
      vkGetPhysicalDeviceFeatures2(c.physical_device, &features2);
      timeline_semaphore = supported_timeline.timelineSemaphore == VK_TRUE;
    }
    if (memory_fd) device_extensions.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
    if (semaphore_fd) device_extensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
    if (timeline_semaphore) {
      device_extensions.push_back(VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
      timeline.timelineSemaphore = VK_TRUE;
      device_info.pNext = &timeline;
    }
    device_info.enabledExtensionCount = static_cast<std::uint32_t>(device_extensions.size());
    device_info.ppEnabledExtensionNames = device_extensions.data();
  }
  VkDevice device = VK_NULL_HANDLE;
  if (VkResult r = vkCreateDevice(c.physical_device, &device_info, nullptr, &device); r != VK_SUCCESS)
    return sim::Error{std::string("cannot create a Vulkan device: ") + vk_result_name(r)};
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, queue_info.queueFamilyIndex, 0, &queue);
  c = describe_context(c.instance, c.physical_device, device, queue_info.queueFamilyIndex, queue);
  c.external_memory_fd = memory_fd;
  c.external_semaphore_fd = semaphore_fd;
  c.timeline_semaphore = timeline_semaphore;
  return hc;
}

}  // namespace render
