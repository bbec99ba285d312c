#include "render/offscreen.hpp"

#include <chrono>
#include <cstring>

#include "gpu_resources.hpp"
#include "vulkan_check.hpp"

namespace render {

struct OffscreenTarget::Resources {
  GpuImage color;     // multisampled (absent at 1 sample: the resolve image is drawn directly)
  GpuImage depth;
  GpuImage resolved;  // single sample, copied to `readback`
  GpuBuffer readback;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
};

sim::Result<std::unique_ptr<OffscreenTarget>> OffscreenTarget::create(const RenderContext& context, int width,
                                                                      int height, int samples) {
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384)
    return sim::Error{"offscreen target: bad size " + std::to_string(width) + "x" + std::to_string(height)};
  std::unique_ptr<OffscreenTarget> t(new OffscreenTarget());
  t->device_ = context.device;
  t->extent_ = {std::uint32_t(width), std::uint32_t(height)};
  t->resources_ = std::make_unique<Resources>();
  Resources& r = *t->resources_;

  VkSampleCountFlagBits count = choose_sample_count(context, samples);
  VkImageFormatProperties format_props{};
  if (vkGetPhysicalDeviceImageFormatProperties(context.physical_device, kOffscreenColorFormat, VK_IMAGE_TYPE_2D,
                                               VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0,
                                               &format_props) != VK_SUCCESS)
    return sim::Error{"offscreen target: the device cannot render to R8G8B8A8_SRGB"};
  while (count > VK_SAMPLE_COUNT_1_BIT && !(format_props.sampleCounts & count))
    count = VkSampleCountFlagBits(count >> 1);
  t->samples_ = count;
  const bool msaa = count != VK_SAMPLE_COUNT_1_BIT;
  const VkFormat depth_format = pick_depth_format(context, false);

  auto resolved = create_image(context, t->extent_, kOffscreenColorFormat,
                               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                               VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  if (!resolved) return sim::Error{"offscreen colour: " + resolved.error()};
  r.resolved = *resolved;
  if (msaa) {
    auto color = create_image(context, t->extent_, kOffscreenColorFormat,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT, count,
                              VK_IMAGE_ASPECT_COLOR_BIT);
    if (!color) return sim::Error{"offscreen MSAA colour: " + color.error()};
    r.color = *color;
  }
  auto depth = create_image(context, t->extent_, depth_format,
                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT, count,
                            VK_IMAGE_ASPECT_DEPTH_BIT);
  if (!depth) return sim::Error{"offscreen depth: " + depth.error()};
  r.depth = *depth;
  auto readback = create_buffer(context, VkDeviceSize(width) * VkDeviceSize(height) * 4,
                                VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::HostRead);
  if (!readback) return sim::Error{"offscreen read-back: " + readback.error()};
  r.readback = *readback;

  // Attachments: [msaa colour,] depth, resolved colour.
  std::vector<VkAttachmentDescription> attachments;
  VkAttachmentDescription color{};
  color.format = kOffscreenColorFormat;
  color.samples = count;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = msaa ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE;
  color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  color.finalLayout = msaa ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  attachments.push_back(color);
  VkAttachmentDescription depth_attachment = color;
  depth_attachment.format = depth_format;
  depth_attachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth_attachment.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  attachments.push_back(depth_attachment);
  if (msaa) {
    VkAttachmentDescription resolve = color;
    resolve.samples = VK_SAMPLE_COUNT_1_BIT;
    resolve.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    resolve.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    resolve.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    attachments.push_back(resolve);
  }
  const VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference resolve_ref{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pResolveAttachments = msaa ? &resolve_ref : nullptr;
  subpass.pDepthStencilAttachment = &depth_ref;
  VkSubpassDependency deps[2] = {};
  // The previous frame's copy read the resolved image and its attachments were written.
  deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  deps[0].dstSubpass = 0;
  deps[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                         VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                         VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  deps[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                          VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  // The copy after the pass reads the resolved colour.
  deps[1].srcSubpass = 0;
  deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  deps[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  deps[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  auto pass = vk_init<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  pass.attachmentCount = std::uint32_t(attachments.size());
  pass.pAttachments = attachments.data();
  pass.subpassCount = 1;
  pass.pSubpasses = &subpass;
  pass.dependencyCount = 2;
  pass.pDependencies = deps;
  RENDER_VK_TRY(vkCreateRenderPass(context.device, &pass, nullptr, &t->render_pass_));

  std::vector<VkImageView> views;
  views.push_back(msaa ? r.color.view : r.resolved.view);
  views.push_back(r.depth.view);
  if (msaa) views.push_back(r.resolved.view);
  auto fb = vk_init<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  fb.renderPass = t->render_pass_;
  fb.attachmentCount = std::uint32_t(views.size());
  fb.pAttachments = views.data();
  fb.width = t->extent_.width;
  fb.height = t->extent_.height;
  fb.layers = 1;
  RENDER_VK_TRY(vkCreateFramebuffer(context.device, &fb, nullptr, &r.framebuffer));
  return t;
}

OffscreenTarget::~OffscreenTarget() {
  if (!device_) return;
  if (resources_) {
    Resources& r = *resources_;
    if (r.framebuffer) vkDestroyFramebuffer(device_, r.framebuffer, nullptr);
    destroy_image(device_, r.color);
    destroy_image(device_, r.depth);
    destroy_image(device_, r.resolved);
    destroy_buffer(device_, r.readback);
  }
  if (render_pass_) vkDestroyRenderPass(device_, render_pass_, nullptr);
}

void OffscreenTarget::begin(VkCommandBuffer cmd, const VkClearColorValue& clear) const {
  VkClearValue clears[3] = {};
  clears[0].color = clear;
  clears[1].depthStencil = {1.0f, 0};
  clears[2].color = clear;
  auto begin = vk_init<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
  begin.renderPass = render_pass_;
  begin.framebuffer = resources_->framebuffer;
  begin.renderArea = {{0, 0}, extent_};
  begin.clearValueCount = samples_ != VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
  begin.pClearValues = clears;
  vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
}

void OffscreenTarget::end_and_copy(VkCommandBuffer cmd) const {
  vkCmdEndRenderPass(cmd);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent_.width, extent_.height, 1};
  vkCmdCopyImageToBuffer(cmd, resources_->resolved.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         resources_->readback.buffer, 1, &region);
  auto barrier = vk_init<VkBufferMemoryBarrier>(VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = resources_->readback.buffer;
  barrier.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &barrier, 0,
                       nullptr);
}

void OffscreenTarget::read_pixels(std::vector<std::uint8_t>& rgba) const {
  const std::size_t bytes = std::size_t(extent_.width) * std::size_t(extent_.height) * 4;
  rgba.resize(bytes);
  std::memcpy(rgba.data(), resources_->readback.mapped, bytes);
}

// ---- OffscreenRenderer --------------------------------------------------------------------------

sim::Result<std::unique_ptr<OffscreenRenderer>> OffscreenRenderer::create(const RenderContext& context, int width,
                                                                          int height, int samples,
                                                                          const SceneRendererOptions& options) {
  std::unique_ptr<OffscreenRenderer> o(new OffscreenRenderer());
  o->context_ = context;
  auto target = OffscreenTarget::create(context, width, height, samples);
  if (!target) return sim::Error{target.error()};
  o->target_ = std::move(*target);
  auto scene = o->scene_.init(context, o->target_->render_pass(), o->target_->samples(), o->target_->color_format(),
                              options);
  if (!scene) return sim::Error{scene.error()};
  auto pool = vk_init<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = context.queue_family;
  RENDER_VK_TRY(vkCreateCommandPool(context.device, &pool, nullptr, &o->pool_));
  auto alloc = vk_init<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  alloc.commandPool = o->pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  RENDER_VK_TRY(vkAllocateCommandBuffers(context.device, &alloc, &o->cmd_));
  auto fence = vk_init<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  RENDER_VK_TRY(vkCreateFence(context.device, &fence, nullptr, &o->fence_));
  return o;
}

OffscreenRenderer::~OffscreenRenderer() {
  if (!context_.device) return;
  vkDeviceWaitIdle(context_.device);
  scene_.release();
  if (fence_) vkDestroyFence(context_.device, fence_, nullptr);
  if (pool_) vkDestroyCommandPool(context_.device, pool_, nullptr);
  target_.reset();
}

sim::Result<bool> OffscreenRenderer::set_model(const sim::Model& model) { return scene_.set_model(model); }

sim::Result<bool> OffscreenRenderer::render(const FrameInput& input, std::vector<std::uint8_t>& rgba) {
  const auto start = std::chrono::steady_clock::now();
  scene_.update(input);
  vkResetCommandBuffer(cmd_, 0);
  auto begin = vk_init<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(cmd_, &begin);
  scene_.record_shadow_pass(cmd_);
  target_->begin(cmd_, SceneRenderer::clear_color(target_->color_format(), input.background));
  scene_.record(cmd_, target_->extent());
  target_->end_and_copy(cmd_);
  RENDER_VK_TRY(vkEndCommandBuffer(cmd_));
  auto submit = vk_init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  RENDER_VK_TRY(vkResetFences(context_.device, 1, &fence_));
  RENDER_VK_TRY(vkQueueSubmit(context_.queue, 1, &submit, fence_));
  RENDER_VK_TRY(vkWaitForFences(context_.device, 1, &fence_, VK_TRUE, UINT64_MAX));
  target_->read_pixels(rgba);
  last_frame_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return true;
}

}  // namespace render
