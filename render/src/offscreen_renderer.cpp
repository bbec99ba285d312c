#include "render/offscreen_renderer.hpp"

#include <algorithm>
#include <cstring>

#include "render/shape_mesh.hpp"
#include "shaders/line.frag.spv.h"
#include "shaders/line.vert.spv.h"
#include "shaders/mesh.frag.spv.h"
#include "shaders/mesh.vert.spv.h"

namespace render {

namespace {

constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

struct LineVertex {
  float position[3];
  float color[3];
};

struct MeshPush {  // matches mesh.vert / mesh.frag
  glm::mat4 mvp;
  glm::vec4 rot0, rot1, rot2;
  glm::vec4 color;
};

// A buffer in host-visible, coherent memory, mapped for its lifetime.
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  VkDeviceSize size = 0;
};

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

}  // namespace

struct OffscreenRenderer::Gpu {
  VkDevice device = VK_NULL_HANDLE;
  Image color, depth;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkPipelineLayout mesh_layout = VK_NULL_HANDLE, line_layout = VK_NULL_HANDLE;
  VkPipeline mesh_pipeline = VK_NULL_HANDLE, line_pipeline = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  HostBuffer vertices, lines, readback;
  std::vector<std::uint32_t> shape_first, shape_count;  // per shape, in `vertices`
  std::uint32_t particle_first = 0, particle_count = 0;
  std::vector<LineVertex> line_data;

  ~Gpu() {
    if (device == VK_NULL_HANDLE) return;
    vkDeviceWaitIdle(device);
    for (HostBuffer* b : {&vertices, &lines, &readback}) destroy(*b);
    for (Image* i : {&color, &depth}) {
      if (i->view) vkDestroyImageView(device, i->view, nullptr);
      if (i->image) vkDestroyImage(device, i->image, nullptr);
      if (i->memory) vkFreeMemory(device, i->memory, nullptr);
    }
    if (fence) vkDestroyFence(device, fence, nullptr);
    if (pool) vkDestroyCommandPool(device, pool, nullptr);
    for (VkPipeline p : {mesh_pipeline, line_pipeline})
      if (p) vkDestroyPipeline(device, p, nullptr);
    for (VkPipelineLayout l : {mesh_layout, line_layout})
      if (l) vkDestroyPipelineLayout(device, l, nullptr);
    if (framebuffer) vkDestroyFramebuffer(device, framebuffer, nullptr);
    if (render_pass) vkDestroyRenderPass(device, render_pass, nullptr);
  }

  void destroy(HostBuffer& b) {
    if (b.buffer) vkDestroyBuffer(device, b.buffer, nullptr);
    if (b.memory) vkFreeMemory(device, b.memory, nullptr);
    b = HostBuffer{};
  }

  bool create_buffer(const VulkanContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage, HostBuffer& out) {
    destroy(out);
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = std::max<VkDeviceSize>(size, 64);
    info.usage = usage;
    if (vkCreateBuffer(device, &info, nullptr, &out.buffer) != VK_SUCCESS) return false;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, out.buffer, &req);
    const int type = ctx.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (type < 0) return false;
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = static_cast<std::uint32_t>(type);
    if (vkAllocateMemory(device, &alloc, nullptr, &out.memory) != VK_SUCCESS) return false;
    vkBindBufferMemory(device, out.buffer, out.memory, 0);
    vkMapMemory(device, out.memory, 0, VK_WHOLE_SIZE, 0, &out.mapped);
    out.size = info.size;
    return true;
  }

  bool create_image(const VulkanContext& ctx, int w, int h, VkFormat format, VkImageUsageFlags usage,
                    VkImageAspectFlags aspect, Image& out) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h), 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (vkCreateImage(device, &info, nullptr, &out.image) != VK_SUCCESS) return false;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device, out.image, &req);
    const int type = ctx.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0) return false;
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = static_cast<std::uint32_t>(type);
    if (vkAllocateMemory(device, &alloc, nullptr, &out.memory) != VK_SUCCESS) return false;
    vkBindImageMemory(device, out.image, out.memory, 0);
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = out.image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format;
    view.subresourceRange = {aspect, 0, 1, 0, 1};
    return vkCreateImageView(device, &view, nullptr, &out.view) == VK_SUCCESS;
  }

  VkShaderModule shader(const std::uint32_t* code, std::size_t bytes) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = bytes;
    info.pCode = code;
    VkShaderModule module = VK_NULL_HANDLE;
    vkCreateShaderModule(device, &info, nullptr, &module);
    return module;
  }

  // A graphics pipeline: triangles (lit meshes) or lines (overlays), depth tested.
  bool create_pipeline(bool line_list, VkPipelineLayout& layout, VkPipeline& pipeline) {
    VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                             line_list ? static_cast<std::uint32_t>(sizeof(glm::mat4)) : static_cast<std::uint32_t>(sizeof(MeshPush))};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &push;
    if (vkCreatePipelineLayout(device, &layout_info, nullptr, &layout) != VK_SUCCESS) return false;
    VkShaderModule vert = line_list ? shader(k_line_vert_spv, sizeof k_line_vert_spv) : shader(k_mesh_vert_spv, sizeof k_mesh_vert_spv);
    VkShaderModule frag = line_list ? shader(k_line_frag_spv, sizeof k_line_frag_spv) : shader(k_mesh_frag_spv, sizeof k_mesh_frag_spv);
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vert;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = frag;
    stages[1].pName = "main";
    VkVertexInputBindingDescription binding{0, line_list ? static_cast<std::uint32_t>(sizeof(LineVertex)) : static_cast<std::uint32_t>(sizeof(Vertex)),
                                            VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                       {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12}};
    VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    input.vertexBindingDescriptionCount = 1;
    input.pVertexBindingDescriptions = &binding;
    input.vertexAttributeDescriptionCount = 2;
    input.pVertexAttributeDescriptions = attributes;
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = line_list ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth_state.depthTestEnable = VK_TRUE;
    depth_state.depthWriteEnable = VK_TRUE;
    depth_state.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    VkPipelineColorBlendAttachmentState blend_attachment{};
    blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = 1;
    blend.pAttachments = &blend_attachment;
    const VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamic_states;
    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth_state;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = layout;
    info.renderPass = render_pass;
    const bool ok = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS;
    vkDestroyShaderModule(device, vert, nullptr);
    vkDestroyShaderModule(device, frag, nullptr);
    return ok;
  }
};

OffscreenRenderer::~OffscreenRenderer() = default;

sim::Result<std::unique_ptr<OffscreenRenderer>> OffscreenRenderer::create(std::shared_ptr<VulkanContext> context,
                                                                          int width, int height) {
  if (width < 1 || height < 1 || width > 8192 || height > 8192)
    return sim::Error{"render size " + std::to_string(width) + "x" + std::to_string(height) + " out of range"};
  std::unique_ptr<OffscreenRenderer> r(new OffscreenRenderer());
  r->context_ = std::move(context);
  r->width_ = width;
  r->height_ = height;
  r->gpu_ = std::make_unique<Gpu>();
  Gpu& g = *r->gpu_;
  const VulkanContext& ctx = *r->context_;
  g.device = ctx.device;
  auto fail = [](const char* what) { return sim::Error{std::string("Vulkan: cannot create ") + what}; };
  if (!g.create_image(ctx, width, height, kColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                      VK_IMAGE_ASPECT_COLOR_BIT, g.color))
    return fail("the color image");
  if (!g.create_image(ctx, width, height, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                      VK_IMAGE_ASPECT_DEPTH_BIT, g.depth))
    return fail("the depth image");

  VkAttachmentDescription attachments[2] = {};
  attachments[0].format = kColorFormat;
  attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  attachments[1] = attachments[0];
  attachments[1].format = kDepthFormat;
  attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pDepthStencilAttachment = &depth_ref;
  // The copy to the readback buffer waits for the color writes.
  VkSubpassDependency dependency{};
  dependency.srcSubpass = 0;
  dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
  dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  pass.attachmentCount = 2;
  pass.pAttachments = attachments;
  pass.subpassCount = 1;
  pass.pSubpasses = &subpass;
  pass.dependencyCount = 1;
  pass.pDependencies = &dependency;
  if (vkCreateRenderPass(g.device, &pass, nullptr, &g.render_pass) != VK_SUCCESS) return fail("the render pass");
  VkImageView views[2] = {g.color.view, g.depth.view};
  VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb.renderPass = g.render_pass;
  fb.attachmentCount = 2;
  fb.pAttachments = views;
  fb.width = static_cast<std::uint32_t>(width);
  fb.height = static_cast<std::uint32_t>(height);
  fb.layers = 1;
  if (vkCreateFramebuffer(g.device, &fb, nullptr, &g.framebuffer) != VK_SUCCESS) return fail("the framebuffer");
  if (!g.create_pipeline(false, g.mesh_layout, g.mesh_pipeline)) return fail("the mesh pipeline");
  if (!g.create_pipeline(true, g.line_layout, g.line_pipeline)) return fail("the line pipeline");
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = ctx.queue_family;
  if (vkCreateCommandPool(g.device, &pool, nullptr, &g.pool) != VK_SUCCESS) return fail("the command pool");
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = g.pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  if (vkAllocateCommandBuffers(g.device, &alloc, &g.commands) != VK_SUCCESS) return fail("the command buffer");
  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (vkCreateFence(g.device, &fence, nullptr, &g.fence) != VK_SUCCESS) return fail("the fence");
  if (!g.create_buffer(ctx, static_cast<VkDeviceSize>(width) * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, g.readback))
    return fail("the readback buffer");
  r->pixels_.resize(static_cast<std::size_t>(width) * height * 4);
  return r;
}

void OffscreenRenderer::set_model(const sim::Model& model) {
  Gpu& g = *gpu_;
  std::vector<Vertex> vertices;
  g.shape_first.assign(model.shape_count, 0);
  g.shape_count.assign(model.shape_count, 0);
  for (int s = 0; s < model.shape_count; ++s) {
    g.shape_first[s] = static_cast<std::uint32_t>(vertices.size());
    tessellate_shape(model, s, vertices);
    g.shape_count[s] = static_cast<std::uint32_t>(vertices.size()) - g.shape_first[s];
  }
  g.particle_first = static_cast<std::uint32_t>(vertices.size());
  tessellate_sphere(1.0f, vertices, 6, 10);
  g.particle_count = static_cast<std::uint32_t>(vertices.size()) - g.particle_first;
  vkDeviceWaitIdle(g.device);
  g.create_buffer(*context_, vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, g.vertices);
  std::memcpy(g.vertices.mapped, vertices.data(), vertices.size() * sizeof(Vertex));
}

namespace {

glm::vec3 to_glm(const sim::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }

void add_line(std::vector<LineVertex>& out, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  out.push_back(LineVertex{{a.x, a.y, a.z}, {c.x, c.y, c.z}});
  out.push_back(LineVertex{{b.x, b.y, b.z}, {c.x, c.y, c.z}});
}

// Overlay lines in world space.
void build_overlay(const sim::Model& m, const sim::State& s, const sim::Workspace* ws, const Overlays& o,
                   std::vector<LineVertex>& out) {
  out.clear();
  if (ws != nullptr && (o.contacts || o.normals || o.forces)) {
    const int n = std::min<int>(ws->contacts.size(), static_cast<int>(ws->contact_normal_force.size()));
    for (int c = 0; c < n; ++c) {
      const sim::Contact& k = ws->contacts.contacts[c];
      sim::Vec3 p = k.b.local_point;  // world point on side b, or body-fixed point
      if (k.b.kind == sim::ContactSide::Body) p = s.body_pose(k.b.index).apply(k.b.local_point);
      if (k.b.kind == sim::ContactSide::Particle)
        p = sim::Vec3(s.q[m.particle_coord(k.b.index)], s.q[m.particle_coord(k.b.index) + 1], s.q[m.particle_coord(k.b.index) + 2]);
      const glm::vec3 point = to_glm(p), normal = to_glm(k.normal);
      const float size = 0.01f;
      if (o.contacts) {
        add_line(out, point - glm::vec3(size, 0, 0), point + glm::vec3(size, 0, 0), {1, 0.9f, 0.1f});
        add_line(out, point - glm::vec3(0, size, 0), point + glm::vec3(0, size, 0), {1, 0.9f, 0.1f});
      }
      if (o.normals) add_line(out, point, point + 0.05f * normal, {0.1f, 0.9f, 1});
      if (o.forces) {
        add_line(out, point, point + o.force_scale * float(ws->contact_normal_force[c]) * normal, {1, 0.2f, 0.2f});
        const sim::Vec3 f = ws->contact_friction_force[c].x() * k.tangent1 + ws->contact_friction_force[c].y() * k.tangent2;
        add_line(out, point, point + o.force_scale * to_glm(f), {0.2f, 1, 0.2f});
      }
    }
  }
  for (int b = 0; b < m.body_count; ++b) {
    const sim::Pose pose = s.body_pose(b);
    const glm::vec3 origin = to_glm(pose.pos);
    if (o.frames) {
      const float len = std::max(0.05f, 0.5f * float(m.body_bound_radius[b]));
      for (int k = 0; k < 3; ++k) {
        glm::vec3 color(0);
        color[k] = 1;
        add_line(out, origin, origin + len * to_glm(pose.rot * sim::Vec3::Unit(k)), color);
      }
    }
    if (o.bounds) {
      const float r = float(m.body_bound_radius[b]);
      const glm::vec3 lo = origin - r, hi = origin + r, grey(0.6f);
      for (int k = 0; k < 4; ++k) {
        const float x0 = (k & 1) ? hi.x : lo.x, y0 = (k & 2) ? hi.y : lo.y;
        add_line(out, {x0, y0, lo.z}, {x0, y0, hi.z}, grey);
        const float y1 = (k & 1) ? hi.y : lo.y, z1 = (k & 2) ? hi.z : lo.z;
        add_line(out, {lo.x, y1, z1}, {hi.x, y1, z1}, grey);
        const float x2 = (k & 1) ? hi.x : lo.x, z2 = (k & 2) ? hi.z : lo.z;
        add_line(out, {x2, lo.y, z2}, {x2, hi.y, z2}, grey);
      }
    }
  }
}

// A colour per body, stable under reordering of nothing but the index.
glm::vec3 body_color(int b) {
  static const glm::vec3 palette[] = {{0.85f, 0.45f, 0.30f}, {0.35f, 0.55f, 0.85f}, {0.55f, 0.75f, 0.35f},
                                      {0.85f, 0.75f, 0.35f}, {0.65f, 0.45f, 0.75f}, {0.40f, 0.75f, 0.75f}};
  return palette[b % 6];
}

}  // namespace

const std::vector<std::uint8_t>& OffscreenRenderer::render(const sim::Model& m, const sim::State& s,
                                                           const sim::Workspace* ws, const Camera& camera,
                                                           const Overlays& overlays, int selected_body) {
  Gpu& g = *gpu_;
  if (static_cast<int>(g.shape_first.size()) != m.shape_count) set_model(m);
  build_overlay(m, s, ws, overlays, g.line_data);
  const VkDeviceSize line_bytes = g.line_data.size() * sizeof(LineVertex);
  if (line_bytes > g.lines.size)
    g.create_buffer(*context_, std::max<VkDeviceSize>(line_bytes * 2, 4096), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, g.lines);
  if (line_bytes > 0) std::memcpy(g.lines.mapped, g.line_data.data(), line_bytes);

  const float aspect = float(width_) / float(height_);
  const glm::mat4 vp = camera.view_projection(aspect);
  VkCommandBuffer cb = g.commands;
  vkResetCommandBuffer(cb, 0);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(cb, &begin);
  VkClearValue clear[2];
  clear[0].color = {{0.16f, 0.18f, 0.22f, 1.0f}};
  clear[1].depthStencil = {1.0f, 0};
  VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  pass.renderPass = g.render_pass;
  pass.framebuffer = g.framebuffer;
  pass.renderArea.extent = {static_cast<std::uint32_t>(width_), static_cast<std::uint32_t>(height_)};
  pass.clearValueCount = 2;
  pass.pClearValues = clear;
  vkCmdBeginRenderPass(cb, &pass, VK_SUBPASS_CONTENTS_INLINE);
  const VkViewport viewport{0, 0, float(width_), float(height_), 0, 1};
  const VkRect2D scissor{{0, 0}, {static_cast<std::uint32_t>(width_), static_cast<std::uint32_t>(height_)}};
  vkCmdSetViewport(cb, 0, 1, &viewport);
  vkCmdSetScissor(cb, 0, 1, &scissor);

  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, g.mesh_pipeline);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &g.vertices.buffer, &offset);
  auto draw = [&](const glm::mat4& model_matrix, const glm::vec4& color, std::uint32_t first, std::uint32_t count) {
    MeshPush push;
    push.mvp = vp * model_matrix;
    push.rot0 = glm::vec4(glm::vec3(model_matrix[0]), model_matrix[3][0]);
    push.rot1 = glm::vec4(glm::vec3(model_matrix[1]), model_matrix[3][1]);
    push.rot2 = glm::vec4(glm::vec3(model_matrix[2]), model_matrix[3][2]);
    push.color = color;
    vkCmdPushConstants(cb, g.mesh_layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push, &push);
    vkCmdDraw(cb, count, 1, first, 0);
  };
  auto matrix = [](const sim::Pose& p) {
    const sim::Mat3 r = p.rot.toRotationMatrix();
    glm::mat4 out(1.0f);
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) out[c][k] = float(r(k, c));
    out[3] = glm::vec4(to_glm(p.pos), 1.0f);
    return out;
  };
  for (int sh = 0; sh < m.shape_count; ++sh) {
    const int b = m.shape_body[sh];
    const sim::Pose pose = b >= 0 ? s.body_pose(b) * m.shape_local[sh] : m.shape_local[sh];
    glm::vec4 color;
    if (m.shape_type[sh] == sim::ShapeType::Plane) color = glm::vec4(0.55f, 0.56f, 0.58f, 0.0f);  // grid
    else if (b < 0) color = glm::vec4(0.62f, 0.58f, 0.52f, 1.0f);
    else if (b == selected_body) color = glm::vec4(1.0f, 0.85f, 0.2f, 1.0f);
    else color = glm::vec4(body_color(b), 1.0f);
    draw(matrix(pose), color, g.shape_first[sh], g.shape_count[sh]);
  }
  for (int p = 0; p < m.particle_count; ++p) {
    const int c = m.particle_coord(p);
    glm::mat4 mm = glm::mat4(float(m.particle_radius[p]));
    mm[3] = glm::vec4(float(s.q[c]), float(s.q[c + 1]), float(s.q[c + 2]), 1.0f);
    draw(mm, glm::vec4(0.9f, 0.9f, 0.95f, 1.0f), g.particle_first, g.particle_count);
  }
  if (!g.line_data.empty()) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, g.line_pipeline);
    vkCmdBindVertexBuffers(cb, 0, 1, &g.lines.buffer, &offset);
    vkCmdPushConstants(cb, g.line_layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof vp, &vp);
    vkCmdDraw(cb, static_cast<std::uint32_t>(g.line_data.size()), 1, 0, 0);
  }
  vkCmdEndRenderPass(cb);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {static_cast<std::uint32_t>(width_), static_cast<std::uint32_t>(height_), 1};
  vkCmdCopyImageToBuffer(cb, g.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, g.readback.buffer, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cb);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  vkResetFences(g.device, 1, &g.fence);
  vkQueueSubmit(context_->queue, 1, &submit, g.fence);
  vkWaitForFences(g.device, 1, &g.fence, VK_TRUE, UINT64_MAX);
  std::memcpy(pixels_.data(), g.readback.mapped, pixels_.size());
  return pixels_;
}

}  // namespace render
