#include "render/pipeline_recipe.hpp"

#include "vulkan_check.hpp"

namespace render {

sim::Result<VkPipeline> PipelineRecipe::build(VkDevice device, VkPipelineLayout layout, VkRenderPass pass) const {
  VkPipelineShaderStageCreateInfo stages[2] = {};
  stages[0] = vk_init<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vertex;
  stages[0].pName = "main";
  stages[1] = vk_init<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fragment;
  stages[1].pName = "main";

  auto input = vk_init<VkPipelineVertexInputStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  input.vertexBindingDescriptionCount = binding.stride > 0 ? 1 : 0;
  input.pVertexBindingDescriptions = &binding;
  input.vertexAttributeDescriptionCount = std::uint32_t(attributes.size());
  input.pVertexAttributeDescriptions = attributes.data();
  auto assembly = vk_init<VkPipelineInputAssemblyStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  assembly.topology = topology;

  VkViewport viewport{0.0f, 0.0f, float(fixed_viewport), float(fixed_viewport), 0.0f, 1.0f};
  VkRect2D scissor{{0, 0}, {std::uint32_t(fixed_viewport), std::uint32_t(fixed_viewport)}};
  auto viewport_state = vk_init<VkPipelineViewportStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  viewport_state.viewportCount = 1;
  viewport_state.scissorCount = 1;
  if (fixed_viewport > 0) {
    viewport_state.pViewports = &viewport;
    viewport_state.pScissors = &scissor;
  }

  auto raster = vk_init<VkPipelineRasterizationStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  raster.polygonMode = polygon_mode;
  raster.cullMode = cull;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  if (depth_bias) {
    // Slope-scaled bias against shadow acne on surfaces facing away from the light.
    raster.depthBiasEnable = VK_TRUE;
    raster.depthBiasConstantFactor = 1.25f;
    raster.depthBiasSlopeFactor = 1.75f;
  }
  auto multisample = vk_init<VkPipelineMultisampleStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  multisample.rasterizationSamples = samples;
  auto depth = vk_init<VkPipelineDepthStencilStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
  depth.depthTestEnable = depth_test ? VK_TRUE : VK_FALSE;
  depth.depthWriteEnable = depth_write ? VK_TRUE : VK_FALSE;
  depth.depthCompareOp = depth_compare;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  if (alpha_blend) {
    blend_attachment.blendEnable = VK_TRUE;
    blend_attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
    blend_attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend_attachment.colorBlendOp = VK_BLEND_OP_ADD;
    blend_attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;  // the target stays opaque
    blend_attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend_attachment.alphaBlendOp = VK_BLEND_OP_ADD;
  }
  if (constant_alpha > 0) {
    blend_attachment.blendEnable = VK_TRUE;
    blend_attachment.srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_ALPHA;
    blend_attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
    blend_attachment.colorBlendOp = VK_BLEND_OP_ADD;
    blend_attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;  // the target stays opaque
    blend_attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend_attachment.alphaBlendOp = VK_BLEND_OP_ADD;
  }
  blend_attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  auto blend = vk_init<VkPipelineColorBlendStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  blend.attachmentCount = has_color ? 1 : 0;
  blend.pAttachments = &blend_attachment;
  for (float& c : blend.blendConstants) c = constant_alpha;
  const VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  auto dynamic = vk_init<VkPipelineDynamicStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO);
  dynamic.dynamicStateCount = fixed_viewport > 0 ? 0 : 2;
  dynamic.pDynamicStates = dynamic_states;

  auto info = vk_init<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  info.stageCount = fragment ? 2 : 1;
  info.pStages = stages;
  info.pVertexInputState = &input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport_state;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  info.renderPass = pass;
  info.subpass = 0;
  VkPipeline pipeline = VK_NULL_HANDLE;
  RENDER_VK_TRY(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
  return pipeline;
}

}  // namespace render
