#include "gpu_resources.hpp"

#include <cstring>
#include <string>

#include "vulkan_check.hpp"

namespace render {

namespace {

// Memory of type `type` (-1: none suits) for `req`; errors say what it was for.
sim::Result<VkDeviceMemory> allocate_memory(const RenderContext& context, const VkMemoryRequirements& req, int type,
                                            const char* what) {
  if (type < 0) return sim::Error{std::string("no suitable memory type for ") + what};
  auto alloc = vk_init<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = static_cast<std::uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  RENDER_VK_TRY(vkAllocateMemory(context.device, &alloc, nullptr, &memory));
  return memory;
}

}  // namespace

sim::Result<GpuBuffer> create_buffer(const RenderContext& context, VkDeviceSize size, VkBufferUsageFlags usage,
                                     MemoryUse use) {
  GpuBuffer b;
  b.size = size;
  auto info = vk_init<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  info.usage = usage | (use == MemoryUse::DeviceLocal ? VK_BUFFER_USAGE_TRANSFER_DST_BIT : 0);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  RENDER_VK_TRY(vkCreateBuffer(context.device, &info, nullptr, &b.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(context.device, b.buffer, &req);
  int type = -1;
  switch (use) {
    case MemoryUse::DeviceLocal:
      type = find_memory_type(context, req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      break;
    case MemoryUse::HostWrite:
      // Every device has a host-visible coherent type, so no flushes anywhere.
      type = find_memory_type(context, req.memoryTypeBits,
                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
      break;
    case MemoryUse::HostRead:
      type = find_memory_type(context, req.memoryTypeBits,
                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                              VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
      break;
  }
  auto memory = allocate_memory(context, req, type, "a buffer");
  if (!memory) {
    destroy_buffer(context.device, b);
    return sim::Error{memory.error()};
  }
  b.memory = *memory;
  vkBindBufferMemory(context.device, b.buffer, b.memory, 0);
  if (use != MemoryUse::DeviceLocal) {
    if (VkResult r = vkMapMemory(context.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped); r != VK_SUCCESS) {
      destroy_buffer(context.device, b);
      return vk_error("vkMapMemory", r);
    }
  }
  return b;
}

void destroy_buffer(VkDevice device, GpuBuffer& b) {
  if (b.buffer) vkDestroyBuffer(device, b.buffer, nullptr);
  if (b.memory) vkFreeMemory(device, b.memory, nullptr);  // unmaps implicitly
  b = GpuBuffer{};
}

sim::Result<ExternalBuffer> create_external_buffer(const RenderContext& context, VkDeviceSize size,
                                                   VkBufferUsageFlags usage, int import_fd, VkDeviceSize import_size) {
  if (!context.external_memory_fd)
    return sim::Error{"the Vulkan device was created without VK_KHR_external_memory_fd"};
  constexpr auto kHandle = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  const bool importing = import_fd >= 0;
  // Whether this buffer can be exported/imported by opaque fd, and whether only dedicated.
  auto buffer_query = vk_init<VkPhysicalDeviceExternalBufferInfo>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO);
  buffer_query.usage = usage;
  buffer_query.handleType = kHandle;
  auto external = vk_init<VkExternalBufferProperties>(VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES);
  vkGetPhysicalDeviceExternalBufferProperties(context.physical_device, &buffer_query, &external);
  const VkExternalMemoryFeatureFlags features = external.externalMemoryProperties.externalMemoryFeatures;
  const VkExternalMemoryFeatureFlags needed =
      importing ? VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT : VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT;
  if (!(features & needed))
    return sim::Error{std::string("the Vulkan device cannot ") + (importing ? "import" : "export") +
                      " buffer memory as an opaque fd"};
  ExternalBuffer e;
  e.dedicated = (features & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT) != 0;
  GpuBuffer& b = e.buffer;
  b.size = size;
  auto external_info = vk_init<VkExternalMemoryBufferCreateInfo>(VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
  external_info.handleTypes = kHandle;
  auto info = vk_init<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.pNext = &external_info;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  RENDER_VK_TRY(vkCreateBuffer(context.device, &info, nullptr, &b.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(context.device, b.buffer, &req);
  const int type = find_memory_type(context, req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  e.allocation_size = importing ? import_size : req.size;
  auto dedicated = vk_init<VkMemoryDedicatedAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO);
  dedicated.buffer = b.buffer;
  auto export_info = vk_init<VkExportMemoryAllocateInfo>(VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
  export_info.handleTypes = kHandle;
  auto import_info = vk_init<VkImportMemoryFdInfoKHR>(VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR);
  import_info.handleType = kHandle;
  import_info.fd = import_fd;
  auto alloc = vk_init<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  alloc.allocationSize = e.allocation_size;
  alloc.memoryTypeIndex = static_cast<std::uint32_t>(type);
  if (importing) {
    alloc.pNext = &import_info;
    if (e.dedicated) import_info.pNext = &dedicated;
  } else {
    alloc.pNext = &export_info;
    if (e.dedicated) export_info.pNext = &dedicated;
  }
  if (type < 0 || (importing && import_size < req.size)) {
    destroy_buffer(context.device, b);
    return sim::Error{type < 0 ? std::string("no memory type for an external buffer")
                               : "the imported memory (" + std::to_string(import_size) +
                                     " bytes) is smaller than the buffer needs (" + std::to_string(req.size) + ")"};
  }
  if (VkResult r = vkAllocateMemory(context.device, &alloc, nullptr, &b.memory); r != VK_SUCCESS) {
    destroy_buffer(context.device, b);
    return vk_error("vkAllocateMemory", r);
  }
  vkBindBufferMemory(context.device, b.buffer, b.memory, 0);
  return e;
}

sim::Result<int> export_memory_fd(const RenderContext& context, VkDeviceMemory memory) {
  auto get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(context.device, "vkGetMemoryFdKHR"));
  if (!get_fd) return sim::Error{"vkGetMemoryFdKHR is not available (VK_KHR_external_memory_fd not enabled)"};
  auto info = vk_init<VkMemoryGetFdInfoKHR>(VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR);
  info.memory = memory;
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  RENDER_VK_TRY(get_fd(context.device, &info, &fd));
  return fd;
}

sim::Result<VkCommandPool> create_transient_pool(const RenderContext& context) {
  auto info = vk_init<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  info.queueFamilyIndex = context.queue_family;
  VkCommandPool pool = VK_NULL_HANDLE;
  RENDER_VK_TRY(vkCreateCommandPool(context.device, &info, nullptr, &pool));
  return pool;
}

sim::Result<bool> submit_one_time(const RenderContext& context, VkCommandPool pool, VkCommandBuffer cmd) {
  vkEndCommandBuffer(cmd);
  auto fence_info = vk_init<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence fence = VK_NULL_HANDLE;
  VkResult r = vkCreateFence(context.device, &fence_info, nullptr, &fence);
  if (r == VK_SUCCESS) {
    auto submit = vk_init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    r = vkQueueSubmit(context.queue, 1, &submit, fence);
    if (r == VK_SUCCESS) r = vkWaitForFences(context.device, 1, &fence, VK_TRUE, UINT64_MAX);
    vkDestroyFence(context.device, fence, nullptr);
  }
  vkDestroyCommandPool(context.device, pool, nullptr);
  if (r != VK_SUCCESS) return vk_error("vkQueueSubmit", r);
  return true;
}

sim::Result<bool> upload_to_buffer(const RenderContext& context, GpuBuffer& buffer, const void* bytes,
                                   std::size_t size) {
  if (size == 0) return true;
  auto staging = create_buffer(context, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::HostWrite);
  if (!staging) return sim::Error{staging.error()};
  std::memcpy(staging->mapped, bytes, size);
  auto done = run_one_time_commands(context, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, size};
    vkCmdCopyBuffer(cmd, staging->buffer, buffer.buffer, 1, &region);
    auto barrier = vk_init<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask =
        VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_INDEX_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                             VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                         0, 1, &barrier, 0, nullptr, 0, nullptr);
  });
  destroy_buffer(context.device, *staging);
  return done;
}

sim::Result<GpuImage> create_image(const RenderContext& context, VkExtent2D extent, VkFormat format,
                                   VkImageUsageFlags usage, VkSampleCountFlagBits samples,
                                   VkImageAspectFlags aspect) {
  GpuImage im;
  auto info = vk_init<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  RENDER_VK_TRY(vkCreateImage(context.device, &info, nullptr, &im.image));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(context.device, im.image, &req);
  // Transient attachments (MSAA colour and depth) may live in lazily allocated memory.
  const VkMemoryPropertyFlags preferred = (usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT)
                                              ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT
                                              : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  auto memory = allocate_memory(context, req, find_memory_type(context, req.memoryTypeBits, 0, preferred), "an image");
  if (!memory) {
    destroy_image(context.device, im);
    return sim::Error{memory.error()};
  }
  im.memory = *memory;
  vkBindImageMemory(context.device, im.image, im.memory, 0);
  auto view = vk_init<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  view.image = im.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {aspect, 0, 1, 0, 1};
  if (VkResult r = vkCreateImageView(context.device, &view, nullptr, &im.view); r != VK_SUCCESS) {
    destroy_image(context.device, im);
    return vk_error("vkCreateImageView", r);
  }
  return im;
}

void destroy_image(VkDevice device, GpuImage& im) {
  if (im.view) vkDestroyImageView(device, im.view, nullptr);
  if (im.image) vkDestroyImage(device, im.image, nullptr);
  if (im.memory) vkFreeMemory(device, im.memory, nullptr);
  im = GpuImage{};
}

sim::Result<VkShaderModule> create_shader_module(VkDevice device, const std::uint32_t* words, std::size_t word_count) {
  auto info = vk_init<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = word_count * sizeof(std::uint32_t);
  info.pCode = words;
  VkShaderModule module = VK_NULL_HANDLE;
  RENDER_VK_TRY(vkCreateShaderModule(device, &info, nullptr, &module));
  return module;
}

VkFormat pick_depth_format(const RenderContext& context, bool sampled) {
  VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
  if (sampled) needed |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
  for (VkFormat f : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM}) {
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(context.physical_device, f, &props);
    if ((props.optimalTilingFeatures & needed) == needed) return f;
  }
  return VK_FORMAT_D16_UNORM;  // required to support both uses by the specification
}

}  // namespace render
