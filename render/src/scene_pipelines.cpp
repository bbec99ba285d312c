#include "scene_pipelines.hpp"

#include <vector>

#include "embedded_shaders.hpp"
#include "render/pipeline_recipe.hpp"
#include "gpu_layout.hpp"
#include "gpu_resources.hpp"
#include "shape_tessellation.hpp"
#include "vulkan_check.hpp"

namespace render {

namespace {

VkVertexInputBindingDescription mesh_binding() { return {0, sizeof(MeshVertex), VK_VERTEX_INPUT_RATE_VERTEX}; }

std::vector<VkVertexInputAttributeDescription> mesh_attributes() {
  return {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, position)},
          {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, normal)}};
}

}  // namespace

sim::Result<ScenePipelines> create_scene_pipelines(const RenderContext& context, VkRenderPass scene_pass,
                                                   VkSampleCountFlagBits samples, VkRenderPass shadow_pass,
                                                   int shadow_map_size) {
  ScenePipelines p;
  const VkDevice device = context.device;
  const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  const VkDescriptorSetLayoutBinding bindings[5] = {
      {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, stages, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, stages, nullptr},
      {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr},
      {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, stages, nullptr},
      {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, stages, nullptr},
  };
  auto set_info = vk_init<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  set_info.bindingCount = 5;
  set_info.pBindings = bindings;
  RENDER_VK_TRY(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &p.set_layout));
  const VkPushConstantRange push{stages, 0, sizeof(DrawConstants)};
  auto layout_info = vk_init<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &p.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  if (VkResult r = vkCreatePipelineLayout(device, &layout_info, nullptr, &p.layout); r != VK_SUCCESS) {
    destroy_scene_pipelines(device, p);
    return vk_error("vkCreatePipelineLayout", r);
  }

  struct Module {
    SpirvCode code;
    VkShaderModule module = VK_NULL_HANDLE;
  };
  Module modules[5] = {{mesh_vert_spirv()}, {mesh_frag_spirv()}, {shadow_vert_spirv()}, {line_vert_spirv()},
                       {line_frag_spirv()}};
  auto destroy_modules = [&] {
    for (Module& m : modules)
      if (m.module) vkDestroyShaderModule(device, m.module, nullptr);
  };
  for (Module& m : modules) {
    auto module = create_shader_module(device, m.code.words, m.code.word_count);
    if (!module) {
      destroy_modules();
      destroy_scene_pipelines(device, p);
      return sim::Error{module.error()};
    }
    m.module = *module;
  }

  PipelineRecipe mesh;
  mesh.vertex = modules[0].module;
  mesh.fragment = modules[1].module;
  mesh.binding = mesh_binding();
  mesh.attributes = mesh_attributes();
  mesh.samples = samples;

  PipelineRecipe shadow = mesh;
  shadow.vertex = modules[2].module;
  shadow.fragment = VK_NULL_HANDLE;  // depth only
  shadow.attributes.resize(1);       // positions only
  shadow.cull = VK_CULL_MODE_NONE;   // open and thin shapes cast from both sides
  shadow.depth_bias = true;
  shadow.samples = VK_SAMPLE_COUNT_1_BIT;
  shadow.has_color = false;
  shadow.fixed_viewport = shadow_map_size;

  PipelineRecipe line;
  line.vertex = modules[3].module;
  line.fragment = modules[4].module;
  line.binding = {0, sizeof(LineVertex), VK_VERTEX_INPUT_RATE_VERTEX};
  line.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(LineVertex, position)},
                     {1, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(LineVertex, color)}};
  line.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  line.cull = VK_CULL_MODE_NONE;
  line.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;  // lines on a surface stay visible
  line.samples = samples;

  PipelineRecipe hidden_line = line;
  hidden_line.depth_compare = VK_COMPARE_OP_GREATER;
  hidden_line.depth_write = false;
  hidden_line.alpha_blend = true;

  PipelineRecipe top_line = line;
  top_line.depth_compare = VK_COMPARE_OP_ALWAYS;
  top_line.depth_write = false;
  top_line.alpha_blend = true;
  PipelineRecipe top_fill = top_line;
  top_fill.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;

  // Display switches: the shapes' edges only (cull none: back edges too), and the shapes at 35 %
  // opacity without depth writes (what is behind stays visible; no sorting, order as drawn).
  PipelineRecipe wireframe = mesh;
  wireframe.polygon_mode = VK_POLYGON_MODE_LINE;
  wireframe.cull = VK_CULL_MODE_NONE;
  PipelineRecipe transparent = mesh;
  transparent.constant_alpha = 0.35f;
  transparent.depth_write = false;
  transparent.cull = VK_CULL_MODE_BACK_BIT;

  // Particle surfaces: cloth is seen from both sides (mesh.frag turns the normal to the viewer).
  PipelineRecipe two_sided = mesh;
  two_sided.cull = VK_CULL_MODE_NONE;

  auto built_mesh = mesh.build(device, p.layout, scene_pass);
  auto built_two_sided = two_sided.build(device, p.layout, scene_pass);
  if (context.fill_mode_non_solid) {
    auto built = wireframe.build(device, p.layout, scene_pass);
    if (built) p.mesh_wireframe = *built;
  }
  if (auto built = transparent.build(device, p.layout, scene_pass)) p.mesh_transparent = *built;
  auto built_shadow = shadow.build(device, p.layout, shadow_pass);
  auto built_line = line.build(device, p.layout, scene_pass);
  auto built_hidden = hidden_line.build(device, p.layout, scene_pass);
  auto built_top_line = top_line.build(device, p.layout, scene_pass);
  auto built_top_fill = top_fill.build(device, p.layout, scene_pass);
  destroy_modules();
  if (built_mesh) p.mesh = *built_mesh;
  if (built_two_sided) p.mesh_two_sided = *built_two_sided;
  if (built_shadow) p.shadow = *built_shadow;
  if (built_line) p.line = *built_line;
  if (built_hidden) p.hidden_line = *built_hidden;
  if (built_top_line) p.top_line = *built_top_line;
  if (built_top_fill) p.top_fill = *built_top_fill;
  for (auto* built : {&built_mesh, &built_two_sided, &built_shadow, &built_line, &built_hidden, &built_top_line, &built_top_fill})
    if (!*built) {
      const std::string message = built->error();
      destroy_scene_pipelines(device, p);
      return sim::Error{message};
    }
  return p;
}

void destroy_scene_pipelines(VkDevice device, ScenePipelines& p) {
  for (VkPipeline pipeline : {p.mesh, p.mesh_two_sided, p.mesh_wireframe, p.mesh_transparent, p.line, p.hidden_line, p.shadow, p.top_line, p.top_fill})
    if (pipeline) vkDestroyPipeline(device, pipeline, nullptr);
  if (p.layout) vkDestroyPipelineLayout(device, p.layout, nullptr);
  if (p.set_layout) vkDestroyDescriptorSetLayout(device, p.set_layout, nullptr);
  p = ScenePipelines{};
}

}  // namespace render
