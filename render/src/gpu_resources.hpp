// Buffers, images, shader modules and one-shot uploads: the few allocation patterns the renderer
// uses, one vkAllocateMemory each (a handful of objects per scene, so no sub-allocator).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

#include "render/render_context.hpp"
#include "sim/result.hpp"
#include "vulkan_check.hpp"

namespace render {

struct GpuBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;   // host-visible buffers stay mapped for their lifetime
  VkDeviceSize size = 0;
};

enum class MemoryUse {
  DeviceLocal,   // filled by upload_to_buffer(); falls back to any memory the buffer allows
  HostWrite,     // host-visible and coherent, mapped: per-frame data, shared poses
  HostRead,      // host-visible, coherent, cached where possible, mapped: read-back
};

sim::Result<GpuBuffer> create_buffer(const RenderContext& context, VkDeviceSize size, VkBufferUsageFlags usage,
                                     MemoryUse use);
void destroy_buffer(VkDevice device, GpuBuffer& buffer);

// A device-local buffer whose memory another API (CUDA) or device object shares through an opaque
// POSIX file descriptor (VK_KHR_external_memory_fd; the context must have it enabled). With
// `import_fd` < 0 the memory is allocated exportable (export_memory_fd hands out descriptors);
// else it is the memory behind `import_fd`, of `import_size` bytes (the exporter's allocation
// size), which the new memory owns from then on. `dedicated`: the implementation requires a
// dedicated allocation for this buffer (an importer must say so too).
struct ExternalBuffer {
  GpuBuffer buffer;
  VkDeviceSize allocation_size = 0;
  bool dedicated = false;
};
sim::Result<ExternalBuffer> create_external_buffer(const RenderContext& context, VkDeviceSize size,
                                                   VkBufferUsageFlags usage, int import_fd = -1,
                                                   VkDeviceSize import_size = 0);
// A new descriptor of exportable memory; the caller owns it.
sim::Result<int> export_memory_fd(const RenderContext& context, VkDeviceMemory memory);

// Copies `bytes` into `buffer` at offset 0 through a staging buffer and a one-time command
// buffer on the context's queue, and waits. A barrier makes the data visible to vertex input and
// shader reads of every later submission.
sim::Result<bool> upload_to_buffer(const RenderContext& context, GpuBuffer& buffer, const void* bytes,
                                   std::size_t size);

struct GpuImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

sim::Result<GpuImage> create_image(const RenderContext& context, VkExtent2D extent, VkFormat format,
                                   VkImageUsageFlags usage, VkSampleCountFlagBits samples,
                                   VkImageAspectFlags aspect);
void destroy_image(VkDevice device, GpuImage& image);

// Runs `record(cmd)` in a one-time command buffer on the context's queue and waits for it.
template <class Record>
sim::Result<bool> run_one_time_commands(const RenderContext& context, Record&& record);

sim::Result<VkShaderModule> create_shader_module(VkDevice device, const std::uint32_t* words, std::size_t word_count);

// The first of `candidates` usable as a depth attachment with optimal tiling (and, when
// `sampled`, sampled with linear filtering and depth comparison).
VkFormat pick_depth_format(const RenderContext& context, bool sampled);

// ---- implementation of the template ----------------------------------------------------------

sim::Result<bool> submit_one_time(const RenderContext& context, VkCommandPool pool, VkCommandBuffer cmd);
sim::Result<VkCommandPool> create_transient_pool(const RenderContext& context);

template <class Record>
sim::Result<bool> run_one_time_commands(const RenderContext& context, Record&& record) {
  auto pool = create_transient_pool(context);
  if (!pool) return sim::Error{pool.error()};
  auto alloc = vk_init<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  alloc.commandPool = *pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (vkAllocateCommandBuffers(context.device, &alloc, &cmd) != VK_SUCCESS) {
    vkDestroyCommandPool(context.device, *pool, nullptr);
    return sim::Error{"vkAllocateCommandBuffers failed"};
  }
  auto begin = vk_init<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(cmd, &begin);
  record(cmd);
  return submit_one_time(context, *pool, cmd);  // destroys the pool
}

}  // namespace render
