#include "render/exported_pose_buffer.hpp"

#include <unistd.h>

#include <vector>

#include "gpu_resources.hpp"
#include "vulkan_check.hpp"

namespace render {

namespace {

constexpr auto kSemaphoreHandle = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;

// Whether a timeline semaphore can be exported as an opaque fd on this device.
bool timeline_exportable(const RenderContext& context) {
  if (!context.external_semaphore_fd || !context.timeline_semaphore) return false;
  auto type = vk_init<VkSemaphoreTypeCreateInfoKHR>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO_KHR);
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE_KHR;
  auto query = vk_init<VkPhysicalDeviceExternalSemaphoreInfo>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO);
  query.pNext = &type;
  query.handleType = kSemaphoreHandle;
  auto properties = vk_init<VkExternalSemaphoreProperties>(VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES);
  vkGetPhysicalDeviceExternalSemaphoreProperties(context.physical_device, &query, &properties);
  return (properties.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT) != 0;
}

}  // namespace

sim::Result<std::unique_ptr<ExportedPoseBuffer>> ExportedPoseBuffer::create(const RenderContext& context,
                                                                            int body_count, int particle_count,
                                                                            int frames_in_flight) {
  std::unique_ptr<ExportedPoseBuffer> p(new ExportedPoseBuffer(frames_in_flight));
  p->context_ = context;
  p->body_count_ = body_count;
  p->particle_count_ = particle_count;
  p->range_ = pose_slot_bytes(body_count, particle_count);
  p->stride_ = pose_slot_stride(p->range_, context.properties.limits.minStorageBufferOffsetAlignment);
  auto external = create_external_buffer(context, p->stride_ * VkDeviceSize(p->slot_count()),
                                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                             VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  if (!external) return sim::Error{"exported pose buffer: " + external.error()};
  p->buffer_ = external->buffer.buffer;
  p->memory_ = external->buffer.memory;
  p->allocation_size_ = external->allocation_size;
  p->dedicated_ = external->dedicated;
  // Until something is published every slot holds identity poses at the origin.
  std::vector<float> identity(std::size_t(p->stride_ / sizeof(float)) * std::size_t(p->slot_count()));
  for (int s = 0; s < p->slot_count(); ++s)
    fill_identity_poses(identity.data() + std::size_t(p->slot_offset(s) / sizeof(float)), p->stride_, body_count);
  if (auto up = upload_to_buffer(context, external->buffer, identity.data(), identity.size() * sizeof(float)); !up)
    return sim::Error{"exported pose buffer: " + up.error()};
  if (timeline_exportable(context)) {
    auto export_info = vk_init<VkExportSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO);
    export_info.handleTypes = kSemaphoreHandle;
    auto type = vk_init<VkSemaphoreTypeCreateInfoKHR>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO_KHR);
    type.pNext = &export_info;
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE_KHR;
    type.initialValue = 0;
    auto info = vk_init<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
    info.pNext = &type;
    RENDER_VK_TRY(vkCreateSemaphore(context.device, &info, nullptr, &p->semaphore_));
  }
  return p;
}

ExportedPoseBuffer::~ExportedPoseBuffer() {
  if (!context_.device) return;
  vkDeviceWaitIdle(context_.device);
  if (semaphore_) vkDestroySemaphore(context_.device, semaphore_, nullptr);
  GpuBuffer b;
  b.buffer = buffer_;
  b.memory = memory_;
  destroy_buffer(context_.device, b);
}

sim::Result<sim::SharedPoseMemory> ExportedPoseBuffer::export_handles() const {
  sim::SharedPoseMemory m;
  auto memory_fd = export_memory_fd(context_, memory_);
  if (!memory_fd) return sim::Error{"exported pose buffer: " + memory_fd.error()};
  m.memory_fd = *memory_fd;
  m.allocation_size = allocation_size_;
  m.dedicated = dedicated_;
  m.slot_stride = stride_;
  m.slot_count = slot_count();
  m.body_count = body_count_;
  m.particle_count = particle_count_;
  m.device_uuid = context_.device_uuid;
  if (semaphore_) {
    auto get_fd =
        reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(context_.device, "vkGetSemaphoreFdKHR"));
    auto info = vk_init<VkSemaphoreGetFdInfoKHR>(VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR);
    info.semaphore = semaphore_;
    info.handleType = kSemaphoreHandle;
    const VkResult r = get_fd ? get_fd(context_.device, &info, &m.semaphore_fd) : VK_ERROR_EXTENSION_NOT_PRESENT;
    if (r != VK_SUCCESS) {
      close(m.memory_fd);
      return sim::Error{std::string("exported pose buffer: vkGetSemaphoreFdKHR failed: ") + vk_result_name(r)};
    }
  }
  return m;
}

}  // namespace render
