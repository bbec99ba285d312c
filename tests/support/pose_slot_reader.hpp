// Reads one slot of a render::ExportedPoseBuffer back to the host the way a frame consumes it:
// one submission that waits on the buffer's timeline semaphore for the slot's value (when it has
// a semaphore and the value is > 0) before a transfer copies the slot into host-visible memory.
// A fence bounds the wait (5 s), so a producer that never signals fails the test instead of
// hanging it. For tests/render (lavapipe) and tests/gpu (the CUDA producer).
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "gpu_resources.hpp"
#include "render/exported_pose_buffer.hpp"

namespace test {

class PoseSlotReader {
 public:
  PoseSlotReader(const render::RenderContext& context, const render::ExportedPoseBuffer& poses)
      : context_(context), poses_(poses) {
    auto staging = render::create_buffer(context, poses.slot_range(), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                         render::MemoryUse::HostRead);
    REQUIRE(staging.ok());
    staging_ = *staging;
    auto pool = render::create_transient_pool(context);
    REQUIRE(pool.ok());
    pool_ = *pool;
    auto alloc = render::vk_init<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    REQUIRE(vkAllocateCommandBuffers(context.device, &alloc, &cmd_) == VK_SUCCESS);
    auto fence_info = render::vk_init<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    REQUIRE(vkCreateFence(context.device, &fence_info, nullptr, &fence_) == VK_SUCCESS);
  }
  ~PoseSlotReader() {
    vkDeviceWaitIdle(context_.device);
    vkDestroyFence(context_.device, fence_, nullptr);
    vkDestroyCommandPool(context_.device, pool_, nullptr);
    render::destroy_buffer(context_.device, staging_);
  }
  PoseSlotReader(const PoseSlotReader&) = delete;
  PoseSlotReader& operator=(const PoseSlotReader&) = delete;

  // The floats of slot `a.slot` once the semaphore reaches `a.tag`.
  std::vector<float> read(const render::PoseSlotRing::Acquired& a) {
    vkResetCommandPool(context_.device, pool_, 0);
    auto begin = render::vk_init<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd_, &begin);
    VkBufferCopy region{poses_.slot_offset(a.slot), 0, poses_.slot_range()};
    vkCmdCopyBuffer(cmd_, poses_.buffer(), staging_.buffer, 1, &region);
    auto barrier = render::vk_init<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr,
                         0, nullptr);
    vkEndCommandBuffer(cmd_);

    const bool wait = poses_.has_semaphore() && a.tag > 0;
    const VkSemaphore semaphore = poses_.semaphore();
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    auto timeline = render::vk_init<VkTimelineSemaphoreSubmitInfoKHR>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO_KHR);
    timeline.waitSemaphoreValueCount = 1;
    timeline.pWaitSemaphoreValues = &a.tag;
    auto submit = render::vk_init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    if (wait) {
      submit.pNext = &timeline;
      submit.waitSemaphoreCount = 1;
      submit.pWaitSemaphores = &semaphore;
      submit.pWaitDstStageMask = &stage;
    }
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd_;
    REQUIRE(vkResetFences(context_.device, 1, &fence_) == VK_SUCCESS);
    REQUIRE(vkQueueSubmit(context_.queue, 1, &submit, fence_) == VK_SUCCESS);
    const VkResult waited = vkWaitForFences(context_.device, 1, &fence_, VK_TRUE, 5'000'000'000ull);
    INFO("slot " << a.slot << ", waiting for semaphore value " << a.tag);
    REQUIRE(waited == VK_SUCCESS);
    std::vector<float> out(std::size_t(poses_.slot_range() / sizeof(float)));
    std::memcpy(out.data(), staging_.mapped, out.size() * sizeof(float));
    return out;
  }

 private:
  const render::RenderContext& context_;
  const render::ExportedPoseBuffer& poses_;
  render::GpuBuffer staging_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace test
