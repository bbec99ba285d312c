#include "shadow_map.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "vulkan_check.hpp"

namespace render {

sim::Result<ShadowMap> create_shadow_map(const RenderContext& context, int size) {
  ShadowMap m;
  m.size = size;
  m.format = pick_depth_format(context, true);
  const VkExtent2D extent{std::uint32_t(size), std::uint32_t(size)};
  auto depth = create_image(context, extent, m.format,
                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                            VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
  if (!depth) return sim::Error{"shadow map: " + depth.error()};
  m.depth = *depth;

  VkAttachmentDescription attachment{};
  attachment.format = m.format;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // cleared anyway
  attachment.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.pDepthStencilAttachment = &ref;
  VkSubpassDependency deps[2] = {};
  // The previous frame's scene pass sampled the map: finish those reads before writing.
  deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  deps[0].dstSubpass = 0;
  deps[0].srcStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  deps[0].dstStageMask = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  deps[0].srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
  deps[0].dstAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  // This frame's scene pass samples what was written.
  deps[1].srcSubpass = 0;
  deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  deps[1].srcStageMask = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  deps[1].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  deps[1].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  deps[1].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  auto pass = vk_init<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  pass.attachmentCount = 1;
  pass.pAttachments = &attachment;
  pass.subpassCount = 1;
  pass.pSubpasses = &subpass;
  pass.dependencyCount = 2;
  pass.pDependencies = deps;
  if (VkResult r = vkCreateRenderPass(context.device, &pass, nullptr, &m.render_pass); r != VK_SUCCESS) {
    destroy_shadow_map(context.device, m);
    return vk_error("vkCreateRenderPass", r);
  }
  auto fb = vk_init<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  fb.renderPass = m.render_pass;
  fb.attachmentCount = 1;
  fb.pAttachments = &m.depth.view;
  fb.width = extent.width;
  fb.height = extent.height;
  fb.layers = 1;
  if (VkResult r = vkCreateFramebuffer(context.device, &fb, nullptr, &m.framebuffer); r != VK_SUCCESS) {
    destroy_shadow_map(context.device, m);
    return vk_error("vkCreateFramebuffer", r);
  }

  VkFormatProperties props;
  vkGetPhysicalDeviceFormatProperties(context.physical_device, m.format, &props);
  const bool linear = props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
  auto sampler = vk_init<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
  // Linear filtering of comparison results gives 2x2 PCF for free where the format allows it.
  sampler.magFilter = sampler.minFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  sampler.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;  // outside the map: lit
  sampler.compareEnable = VK_TRUE;
  sampler.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  sampler.maxLod = 0.0f;
  if (VkResult r = vkCreateSampler(context.device, &sampler, nullptr, &m.sampler); r != VK_SUCCESS) {
    destroy_shadow_map(context.device, m);
    return vk_error("vkCreateSampler", r);
  }

  auto transitioned = run_one_time_commands(context, [&](VkCommandBuffer cmd) {
    auto barrier = vk_init<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    barrier.srcAccessMask = 0;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = m.depth.image;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &barrier);
  });
  if (!transitioned) {
    destroy_shadow_map(context.device, m);
    return sim::Error{"shadow map: " + transitioned.error()};
  }
  return m;
}

void destroy_shadow_map(VkDevice device, ShadowMap& m) {
  if (m.sampler) vkDestroySampler(device, m.sampler, nullptr);
  if (m.framebuffer) vkDestroyFramebuffer(device, m.framebuffer, nullptr);
  if (m.render_pass) vkDestroyRenderPass(device, m.render_pass, nullptr);
  destroy_image(device, m.depth);
  m = ShadowMap{};
}

void begin_shadow_pass(VkCommandBuffer cmd, const ShadowMap& map) {
  VkClearValue clear{};
  clear.depthStencil = {1.0f, 0};
  auto begin = vk_init<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
  begin.renderPass = map.render_pass;
  begin.framebuffer = map.framebuffer;
  begin.renderArea = {{0, 0}, {std::uint32_t(map.size), std::uint32_t(map.size)}};
  begin.clearValueCount = 1;
  begin.pClearValues = &clear;
  vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
}

glm::mat4 light_view_projection(const Bounds& casters, const glm::vec3& light_dir, int map_size) {
  float radius = std::max(0.5f * glm::length(casters.size()), 0.05f);
  radius = std::pow(1.25f, std::ceil(std::log(radius) / std::log(1.25f)));
  const glm::vec3 up = std::abs(light_dir.z) > 0.99f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f);
  // A light view through the world origin; the casters' centre is then snapped to texels in it.
  const glm::mat4 rotation = glm::lookAtRH(glm::vec3(0.0f), light_dir, up);
  glm::vec3 centre = glm::vec3(rotation * glm::vec4(casters.centre(), 1.0f));
  const float texel = 2.0f * radius / float(map_size);
  centre.x = std::floor(centre.x / texel) * texel;
  centre.y = std::floor(centre.y / texel) * texel;
  // In view space the light looks down -z: the casters lie between depths centre.z +- radius.
  const glm::mat4 projection = glm::orthoRH_ZO(centre.x - radius, centre.x + radius, centre.y - radius,
                                               centre.y + radius, -centre.z - 2.0f * radius, -centre.z + 2.0f * radius);
  return projection * rotation;
}

}  // namespace render
