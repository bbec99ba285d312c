#include "render/scene_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>

#include "debug_lines.hpp"
#include "grain_glyphs.hpp"
#include "gpu_layout.hpp"
#include "gpu_resources.hpp"
#include "particle_surfaces.hpp"
#include "scene_pipelines.hpp"
#include "sdf_overlay_geometry.hpp"
#include "shadow_map.hpp"
#include "shape_tessellation.hpp"
#include "vulkan_check.hpp"

namespace render {

namespace {

// Light travels down and across the default view, so shadows fall to the side of the bodies.
const glm::vec3 kLightDirection = glm::normalize(glm::vec3(0.3f, -0.5f, -1.0f));
constexpr float kAmbient = 0.32f;

float srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }
float linear_to_srgb(float c) { return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f; }
glm::vec3 from_srgb(float r, float g, float b) { return {srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b)}; }

// Body colours (sRGB), muted so that overlays and the selection stand out against them.
const glm::vec3 kBodyPalette[] = {
    from_srgb(0.85f, 0.45f, 0.30f), from_srgb(0.35f, 0.58f, 0.85f), from_srgb(0.90f, 0.75f, 0.35f),
    from_srgb(0.45f, 0.75f, 0.48f), from_srgb(0.70f, 0.50f, 0.80f), from_srgb(0.40f, 0.76f, 0.78f),
    from_srgb(0.88f, 0.58f, 0.62f), from_srgb(0.68f, 0.62f, 0.50f),
};
const glm::vec3 kFixedBodyColor = from_srgb(0.55f, 0.55f, 0.58f);
const glm::vec3 kWorldShapeColor = from_srgb(0.50f, 0.54f, 0.60f);
const glm::vec3 kGroundColor = from_srgb(0.80f, 0.80f, 0.78f);
const glm::vec3 kParticleColor = from_srgb(0.92f, 0.93f, 0.97f);
const glm::vec3 kSoftSurfaceColor = from_srgb(0.86f, 0.44f, 0.36f);
const glm::vec3 kClothColor = from_srgb(0.38f, 0.55f, 0.80f);
// Rope links (particle_surfaces.hpp append_link_lines), RGBA8 of a linear colour: a dark grey,
// apart from the near-white particles, the sky and the ground.
const std::uint32_t kLinkColor = [] {
  const glm::vec3 c = from_srgb(0.30f, 0.30f, 0.34f);
  auto byte = [](float v) { return std::uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return byte(c.r) | (byte(c.g) << 8) | (byte(c.b) << 16) | (255u << 24);
}();

struct MeshRange {
  std::uint32_t first_index = 0, index_count = 0;
  std::int32_t vertex_offset = 0;
};

// What an instance is, for choosing per frame what is drawn and how (FrameInput::geometry).
enum class InstanceKind : std::uint8_t {
  Plane,      // the ground: always drawn, solid, casts no shadow
  Shape,      // a collision shape of the world or of a body without visuals: always drawn
  Covered,    // a collision shape of a body with visuals: drawn when visuals are off or overlaid
  Visual,     // a visual shape (render only)
};
constexpr std::uint32_t bit(InstanceKind k) { return 1u << unsigned(k); }

// Consecutive shape instances that share a mesh and kind: one instanced draw.
struct DrawBatch {
  int mesh = 0;
  InstanceKind kind = InstanceKind::Shape;
  std::uint32_t first_instance = 0, instance_count = 0;
};

// A visual's bounding sphere in its owner's frame (body com frame, or the world), for the
// shadow caster bounds.
struct VisualBound {
  int body = -1;
  glm::vec3 center{0.0f};
  float radius = 0.0f;
};

glm::vec3 to_glm(const sim::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }

// Shapes with equal geometry share a mesh (a heap of identical boxes is one draw).
using MeshKey = std::tuple<int, float, float, float, float, float, int>;
MeshKey mesh_key(const sim::Model& m, int s) {
  const sim::Vec3& h = m.shape_half_extents[std::size_t(s)];
  switch (m.shape_type[std::size_t(s)]) {
    case sim::ShapeType::Plane: return {0, 0, 0, 0, 0, 0, -1};
    case sim::ShapeType::Sphere: return {1, float(m.shape_radius[std::size_t(s)]), 0, 0, 0, 0, -1};
    case sim::ShapeType::Capsule:
      return {2, float(m.shape_radius[std::size_t(s)]), float(m.shape_half_length[std::size_t(s)]), 0, 0, 0, -1};
    case sim::ShapeType::Box: return {3, 0, 0, float(h.x()), float(h.y()), float(h.z()), -1};
    case sim::ShapeType::Cylinder:
      return {6, float(m.shape_radius[std::size_t(s)]), float(m.shape_half_length[std::size_t(s)]), 0, 0, 0, -1};
    case sim::ShapeType::Ellipsoid: return {7, 0, 0, float(h.x()), float(h.y()), float(h.z()), -1};
    case sim::ShapeType::ConvexMesh: {
      const int mesh = s < int(m.shape_mesh.size()) ? m.shape_mesh[std::size_t(s)] : -1;
      return mesh >= 0 ? MeshKey{5, 0, 0, 0, 0, 0, mesh} : MeshKey{4, 0, 0, 0, 0, 0, m.shape_hull[std::size_t(s)]};
    }
  }
  return {-1, 0, 0, 0, 0, 0, -1};
}

// Visuals with equal geometry share a mesh: primitives by their sizes (after the shapes' keys),
// meshes by identity.
using VisualKey = std::tuple<int, float, float, float, float, float, const void*>;
VisualKey visual_key(const sim::Model& m, int v) {
  const std::size_t i = std::size_t(v);
  const sim::Vec3& h = m.visual_half_extents[i];
  const int type = 100 + int(m.visual_geometry[i]);
  if (m.visual_geometry[i] == sim::VisualGeometry::Mesh) return {type, 0, 0, 0, 0, 0, m.visual_mesh[i].get()};
  return {type, float(m.visual_radius[i]), float(m.visual_half_length[i]), float(h.x()), float(h.y()), float(h.z()),
          nullptr};
}

bool has_visuals(const sim::Model& m, int body) {
  return body >= 0 && std::size_t(body) < m.body_has_visuals.size() && m.body_has_visuals[std::size_t(body)] != 0;
}

}  // namespace

bool is_srgb_format(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32:
    case VK_FORMAT_R8G8B8_SRGB:
    case VK_FORMAT_B8G8R8_SRGB:
      return true;
    default:
      return false;
  }
}

VkClearColorValue SceneRenderer::clear_color(VkFormat color_format, const glm::vec3& background) {
  VkClearColorValue c{};
  const bool encode = !is_srgb_format(color_format);
  for (int i = 0; i < 3; ++i) c.float32[i] = encode ? linear_to_srgb(background[i]) : background[i];
  c.float32[3] = 1.0f;
  return c;
}

struct SceneRenderer::Impl {
  RenderContext ctx;
  bool initialized = false;
  SceneRendererOptions options;
  bool encode_srgb = true;
  ScenePipelines pipelines;
  ShadowMap shadow;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  GpuBuffer uniforms;             // frames_in_flight slots of FrameUniforms
  VkDeviceSize uniform_stride = 0;
  std::vector<GpuBuffer> line_buffers;  // per frame slot, grown on demand
  std::vector<std::uint32_t> line_counts;
  // On-top SDF overlays per frame slot: slice triangles, then iso-lines and contact markers.
  std::vector<GpuBuffer> top_buffers;
  std::vector<std::uint32_t> top_fill_counts, top_line_counts;

  // ---- the model (set_model) ----
  std::optional<sim::Model> model;
  GpuBuffer vertices, indices, instances;
  std::vector<MeshRange> meshes;
  std::vector<DrawBatch> batches;
  std::vector<VisualBound> visual_bounds;
  MeshRange particle_mesh;
  ParticleSurfaces surfaces;         // soft bodies' and cloth's triangles over the particles
  GpuBuffer surface_indices;         // static: particle indices
  GpuBuffer surface_vertices;        // frames_in_flight slots of particle_count MeshVertex (world)
  VkDeviceSize surface_stride = 0;
  std::vector<float> embedded_values;  // the embedded render vertices' field values (scratch)
  std::unique_ptr<SharedPoseBuffer> poses;
  GpuBuffer element_colors;            // frames_in_flight slots of one vec4 per body and particle
  VkDeviceSize element_stride = 0, element_range = 0;
  OverlayScale overlay_scale;
  glm::vec4 grid{0.1f, 1.0f, 10.0f, 18.0f};
  SceneStats stats;

  // ---- the frame being prepared (update -> record) ----
  std::uint64_t frame_counter = 0;
  int slot = 0;
  int pose_slot = 0;
  bool frame_ready = false;
  bool frame_shadows = false;
  bool frame_wireframe = false;
  bool frame_transparent = false;
  bool frame_surface_particles = false;
  GeometryView frame_geometry;
  OrbitCamera camera;
  std::vector<LineVertex> line_scratch;
  std::vector<LineVertex> top_scratch, top_line_scratch;
  SdfSliceCache sdf_slice_cache;
  std::vector<float> pose_scratch;

  FrameUniforms* uniform_slot(int s) {
    return reinterpret_cast<FrameUniforms*>(static_cast<std::uint8_t*>(uniforms.mapped) + uniform_stride * VkDeviceSize(s));
  }
  void release_model();
  void release_all();
  void write_descriptors();
  void bind_common(VkCommandBuffer cmd, VkPipeline pipeline);
  // The instance kinds drawn solid this frame (planes included), and whether the visuals are
  // drawn see-through over the collision shapes (the collision overlay).
  std::uint32_t solid_kinds() const;
  bool ghost_visuals() const;
  // Draws the batches whose kind is in `kinds` (a mask of bit(InstanceKind)), and the particles
  // when `particles`: their spheres (those on a particle surface only with
  // FrameInput::surface_particles) and, with `surface_pipeline` bound, the particle surfaces.
  void draw_shapes(VkCommandBuffer cmd, std::uint32_t kinds, bool particles, VkPipeline surface_pipeline = VK_NULL_HANDLE);
  // Copies `data` into this slot's buffer of `buffers` (grown when too small); false when empty or
  // the buffer could not grow.
  bool upload_slot(std::vector<GpuBuffer>& buffers, std::size_t index, const std::vector<LineVertex>& data);
};

bool SceneRenderer::Impl::upload_slot(std::vector<GpuBuffer>& buffers, std::size_t index,
                                      const std::vector<LineVertex>& data) {
  const VkDeviceSize bytes = data.size() * sizeof(LineVertex);
  if (bytes == 0) return false;
  if (buffers[index].size < bytes) {
    // This slot's previous frame has completed (the caller's contract), so its buffer is free.
    destroy_buffer(ctx.device, buffers[index]);
    auto grown = create_buffer(ctx, std::max<VkDeviceSize>(2 * bytes, 64 * 1024), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                               MemoryUse::HostWrite);
    if (grown) buffers[index] = *grown;
  }
  if (buffers[index].size < bytes) return false;
  std::memcpy(buffers[index].mapped, data.data(), std::size_t(bytes));
  return true;
}

void SceneRenderer::Impl::release_model() {
  if (!ctx.device) return;
  destroy_buffer(ctx.device, vertices);
  destroy_buffer(ctx.device, indices);
  destroy_buffer(ctx.device, instances);
  destroy_buffer(ctx.device, element_colors);
  destroy_buffer(ctx.device, surface_indices);
  destroy_buffer(ctx.device, surface_vertices);
  surfaces = ParticleSurfaces{};
  poses.reset();
  model.reset();
  meshes.clear();
  batches.clear();
  visual_bounds.clear();
  stats = SceneStats{};
  frame_ready = false;
}

void SceneRenderer::Impl::release_all() {
  if (!ctx.device) return;
  vkDeviceWaitIdle(ctx.device);
  release_model();
  for (GpuBuffer& b : line_buffers) destroy_buffer(ctx.device, b);
  line_buffers.clear();
  line_counts.clear();
  for (GpuBuffer& b : top_buffers) destroy_buffer(ctx.device, b);
  top_buffers.clear();
  top_fill_counts.clear();
  top_line_counts.clear();
  sdf_slice_cache = SdfSliceCache{};
  destroy_buffer(ctx.device, uniforms);
  if (pool) vkDestroyDescriptorPool(ctx.device, pool, nullptr);
  pool = VK_NULL_HANDLE;
  set = VK_NULL_HANDLE;
  destroy_scene_pipelines(ctx.device, pipelines);
  destroy_shadow_map(ctx.device, shadow);
  initialized = false;
}

SceneRenderer::SceneRenderer() : impl_(std::make_unique<Impl>()) {}
SceneRenderer::~SceneRenderer() { impl_->release_all(); }
void SceneRenderer::release() { impl_->release_all(); }

SharedPoseBuffer* SceneRenderer::pose_buffer() { return impl_->poses.get(); }
int SceneRenderer::frames_in_flight() const { return impl_->options.frames_in_flight; }
const SceneStats& SceneRenderer::stats() const { return impl_->stats; }
bool SceneRenderer::has_model() const { return impl_->model.has_value(); }

sim::Result<bool> SceneRenderer::init(const RenderContext& context, VkRenderPass render_pass,
                                      VkSampleCountFlagBits samples, VkFormat color_format,
                                      const SceneRendererOptions& options) {
  Impl& m = *impl_;
  m.release_all();
  m.ctx = context;
  m.options = options;
  m.options.frames_in_flight = std::max(options.frames_in_flight, 1);
  m.options.shadow_map_size = std::clamp(options.shadow_map_size, 64, 8192);
  m.encode_srgb = !is_srgb_format(color_format);
  const int frames = m.options.frames_in_flight;

  auto shadow = create_shadow_map(context, m.options.shadow_map_size);
  if (!shadow) return sim::Error{shadow.error()};
  m.shadow = *shadow;
  auto pipelines = create_scene_pipelines(context, render_pass, samples, m.shadow.render_pass, m.shadow.size);
  if (!pipelines) {
    m.release_all();
    return sim::Error{pipelines.error()};
  }
  m.pipelines = *pipelines;

  const VkDeviceSize align = std::max<VkDeviceSize>(context.properties.limits.minUniformBufferOffsetAlignment, 16);
  m.uniform_stride = (sizeof(FrameUniforms) + align - 1) / align * align;
  auto uniforms = create_buffer(context, m.uniform_stride * VkDeviceSize(frames), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                MemoryUse::HostWrite);
  if (!uniforms) {
    m.release_all();
    return sim::Error{"frame uniforms: " + uniforms.error()};
  }
  m.uniforms = *uniforms;
  std::memset(m.uniforms.mapped, 0, m.uniforms.size);
  m.line_buffers.resize(std::size_t(frames));
  m.line_counts.assign(std::size_t(frames), 0);
  m.top_buffers.resize(std::size_t(frames));
  m.top_fill_counts.assign(std::size_t(frames), 0);
  m.top_line_counts.assign(std::size_t(frames), 0);

  const VkDescriptorPoolSize sizes[4] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
                                         {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}};
  auto pool_info = vk_init<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 4;
  pool_info.pPoolSizes = sizes;
  if (VkResult r = vkCreateDescriptorPool(context.device, &pool_info, nullptr, &m.pool); r != VK_SUCCESS) {
    m.release_all();
    return vk_error("vkCreateDescriptorPool", r);
  }
  auto alloc = vk_init<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  alloc.descriptorPool = m.pool;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &m.pipelines.set_layout;
  if (VkResult r = vkAllocateDescriptorSets(context.device, &alloc, &m.set); r != VK_SUCCESS) {
    m.release_all();
    return vk_error("vkAllocateDescriptorSets", r);
  }
  m.initialized = true;
  return true;
}

void SceneRenderer::Impl::write_descriptors() {
  const VkDescriptorBufferInfo frame_info{uniforms.buffer, 0, sizeof(FrameUniforms)};
  const VkDescriptorBufferInfo pose_info{poses->buffer(), 0, poses->slot_range()};
  const VkDescriptorBufferInfo instance_info{instances.buffer, 0, VK_WHOLE_SIZE};
  const VkDescriptorImageInfo shadow_info{shadow.sampler, shadow.depth.view,
                                          VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  const VkDescriptorBufferInfo element_info{element_colors.buffer, 0, element_range};
  VkWriteDescriptorSet writes[5] = {};
  const VkDescriptorType types[5] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
                                     VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                     VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC};
  for (std::uint32_t i = 0; i < 5; ++i) {
    writes[i] = vk_init<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = types[i];
  }
  writes[0].pBufferInfo = &frame_info;
  writes[1].pBufferInfo = &pose_info;
  writes[2].pBufferInfo = &instance_info;
  writes[3].pImageInfo = &shadow_info;
  writes[4].pBufferInfo = &element_info;
  vkUpdateDescriptorSets(ctx.device, 5, writes, 0, nullptr);
}

sim::Result<bool> SceneRenderer::set_model(const sim::Model& model) {
  Impl& m = *impl_;
  if (!m.initialized) return sim::Error{"SceneRenderer::set_model before init"};
  vkDeviceWaitIdle(m.ctx.device);  // the old model's buffers may still be read by frames in flight
  m.release_model();
  m.model = model;
  const sim::Model& md = *m.model;

  const sim::State initial = sim::make_initial_state(md);
  const Bounds bounds = scene_bounds(md, initial.q);
  const float radius = std::max(0.5f * glm::length(bounds.size()), 0.1f);
  const float ground_half = std::max(20.0f, 12.0f * radius);
  const float major = std::pow(10.0f, std::floor(std::log10(std::max(2.0f * radius, 0.2f))));
  m.grid = glm::vec4(0.1f * major, major, 0.5f * ground_half, 0.9f * ground_half);
  m.overlay_scale = overlay_scale(md);

  // Meshes: one per distinct geometry, instances grouped by mesh.
  std::vector<MeshVertex> vertices;
  std::vector<std::uint32_t> indices;
  auto add_mesh = [&](const MeshData& data) {
    MeshRange r;
    r.first_index = std::uint32_t(indices.size());
    r.index_count = std::uint32_t(data.indices.size());
    r.vertex_offset = std::int32_t(vertices.size());
    vertices.insert(vertices.end(), data.vertices.begin(), data.vertices.end());
    indices.insert(indices.end(), data.indices.begin(), data.indices.end());
    m.meshes.push_back(r);
    return int(m.meshes.size()) - 1;
  };
  std::map<MeshKey, int> mesh_of_key;
  std::map<VisualKey, int> mesh_of_visual;
  struct Pending {
    InstanceKind kind;
    int mesh;
    ShapeInstance instance;
  };
  std::vector<Pending> pending;
  for (int s = 0; s < md.shape_count; ++s) {
    const MeshKey key = mesh_key(md, s);
    auto it = mesh_of_key.find(key);
    if (it == mesh_of_key.end()) it = mesh_of_key.emplace(key, add_mesh(tessellate_shape(md, s, ground_half))).first;
    const int body = md.shape_body[std::size_t(s)];
    const bool plane = md.shape_type[std::size_t(s)] == sim::ShapeType::Plane;
    ShapeInstance inst;
    const sim::Pose& local = md.shape_local[std::size_t(s)];
    inst.local_pos = glm::vec4(to_glm(local.pos), 0.0f);
    inst.local_rot = glm::vec4(float(local.rot.x()), float(local.rot.y()), float(local.rot.z()), float(local.rot.w()));
    glm::vec3 color = plane ? kGroundColor
                      : body < 0 ? kWorldShapeColor
                      : md.body_is_dynamic(body) ? kBodyPalette[std::size_t(body) % std::size(kBodyPalette)]
                                                 : kFixedBodyColor;
    inst.color = glm::vec4(color, 1.0f);
    inst.ids = glm::ivec4(body, s, plane ? kInstanceFlagGrid : 0, 0);
    const InstanceKind kind = plane ? InstanceKind::Plane : has_visuals(md, body) ? InstanceKind::Covered : InstanceKind::Shape;
    pending.push_back(Pending{kind, it->second, inst});
  }
  std::map<int, VisualBound> bound_of_mesh;  // a visual mesh's bounding sphere in its own frame
  for (int v = 0; v < md.visual_count; ++v) {
    const std::size_t i = std::size_t(v);
    auto it = mesh_of_visual.find(visual_key(md, v));
    if (it == mesh_of_visual.end()) {
      const MeshData data = tessellate_visual(md, v, ground_half);
      it = mesh_of_visual.emplace(visual_key(md, v), add_mesh(data)).first;
      VisualBound& bound = bound_of_mesh[it->second];
      if (!data.vertices.empty()) {
        auto point = [](const MeshVertex& x) { return glm::vec3(x.position[0], x.position[1], x.position[2]); };
        glm::vec3 lo = point(data.vertices[0]), hi = lo;
        for (const MeshVertex& x : data.vertices) lo = glm::min(lo, point(x)), hi = glm::max(hi, point(x));
        bound.center = 0.5f * (lo + hi);
        bound.radius = 0.5f * glm::length(hi - lo);
      }
    }
    const sim::Pose& local = md.visual_local[i];
    VisualBound placed = bound_of_mesh[it->second];
    placed.center = to_glm(local.pos + local.rot * sim::Vec3(placed.center.x, placed.center.y, placed.center.z));
    placed.body = md.visual_body[i];
    const bool plane = md.visual_geometry[i] == sim::VisualGeometry::Plane;
    if (!plane) m.visual_bounds.push_back(placed);
    const auto& rgba = md.visual_rgba[i];
    ShapeInstance inst;
    inst.local_pos = glm::vec4(to_glm(local.pos), 0.0f);
    inst.local_rot = glm::vec4(float(local.rot.x()), float(local.rot.y()), float(local.rot.z()), float(local.rot.w()));
    inst.color = glm::vec4(from_srgb(rgba[0], rgba[1], rgba[2]), 1.0f);
    inst.ids = glm::ivec4(md.visual_body[i], -1 - v, plane ? kInstanceFlagGrid : 0, 0);
    pending.push_back(Pending{plane ? InstanceKind::Plane : InstanceKind::Visual, it->second, inst});
  }
  const int particle_mesh = add_mesh(tessellate_sphere(1.0f, 8, 12));
  m.particle_mesh = m.meshes[std::size_t(particle_mesh)];

  std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    return std::tie(a.kind, a.mesh) < std::tie(b.kind, b.mesh);
  });
  std::vector<ShapeInstance> instances;
  for (const Pending& p : pending) {
    if (m.batches.empty() || m.batches.back().mesh != p.mesh || m.batches.back().kind != p.kind)
      m.batches.push_back(DrawBatch{p.mesh, p.kind, std::uint32_t(instances.size()), 0});
    ++m.batches.back().instance_count;
    instances.push_back(p.instance);
  }
  m.stats.meshes = int(m.meshes.size()) - 1;
  m.stats.shape_instances = int(instances.size()) - md.visual_count;
  m.stats.visual_instances = md.visual_count;
  m.surfaces = build_particle_surfaces(md);
  m.stats.surface_vertices = m.surfaces.empty() ? 0 : m.surfaces.vertex_count;
  m.stats.surface_triangles = int(m.surfaces.indices.size() / 3);
  m.stats.triangles = int(m.particle_mesh.index_count / 3) * md.particle_count + int(m.surfaces.indices.size() / 3);
  for (const DrawBatch& b : m.batches)
    if (b.kind != InstanceKind::Covered)
      m.stats.triangles += int(m.meshes[std::size_t(b.mesh)].index_count / 3 * b.instance_count);
  if (instances.empty()) instances.emplace_back();  // a storage buffer may not be empty

  auto fail = [&](const std::string& what) {
    m.release_model();
    return sim::Error{"set_model: " + what};
  };
  const VkDeviceSize vertex_bytes = vertices.size() * sizeof(MeshVertex);
  const VkDeviceSize index_bytes = indices.size() * sizeof(std::uint32_t);
  const VkDeviceSize instance_bytes = instances.size() * sizeof(ShapeInstance);
  auto vb = create_buffer(m.ctx, vertex_bytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, MemoryUse::DeviceLocal);
  if (!vb) return fail(vb.error());
  m.vertices = *vb;
  auto ib = create_buffer(m.ctx, index_bytes, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, MemoryUse::DeviceLocal);
  if (!ib) return fail(ib.error());
  m.indices = *ib;
  auto sb = create_buffer(m.ctx, instance_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::DeviceLocal);
  if (!sb) return fail(sb.error());
  m.instances = *sb;
  for (auto [buffer, data, bytes] : {std::tuple{&m.vertices, static_cast<const void*>(vertices.data()), vertex_bytes},
                                     std::tuple{&m.indices, static_cast<const void*>(indices.data()), index_bytes},
                                     std::tuple{&m.instances, static_cast<const void*>(instances.data()), instance_bytes}})
    if (auto up = upload_to_buffer(m.ctx, *buffer, data, std::size_t(bytes)); !up) return fail(up.error());

  auto poses = SharedPoseBuffer::create(m.ctx, md.body_count, md.particle_count, m.options.frames_in_flight);
  if (!poses) return fail(poses.error());
  m.poses = std::move(*poses);
  write_state_poses(md, initial, *m.poses);
  m.poses->publish();

  // The colour field: one vec4 per body and particle in each frame slot (at least one entry).
  // The embedded render meshes' vertices follow (their values interpolated, particle_surfaces.hpp).
  const int embedded_vertices = m.surfaces.vertex_count - md.particle_count;
  m.embedded_values.assign(std::size_t(std::max(embedded_vertices, 0)), 0.0f);
  const VkDeviceSize entries = VkDeviceSize(std::max(md.body_count + md.particle_count + embedded_vertices, 1));
  const VkDeviceSize storage_align = std::max<VkDeviceSize>(m.ctx.properties.limits.minStorageBufferOffsetAlignment, 16);
  m.element_range = entries * sizeof(glm::vec4);
  m.element_stride = (m.element_range + storage_align - 1) / storage_align * storage_align;
  auto colors = create_buffer(m.ctx, m.element_stride * VkDeviceSize(m.options.frames_in_flight),
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::HostWrite);
  if (!colors) return fail("element colours: " + colors.error());
  m.element_colors = *colors;
  std::memset(m.element_colors.mapped, 0, std::size_t(m.element_colors.size));

  // Particle surfaces: static indices, per-slot vertices written by update().
  if (!m.surfaces.empty()) {
    const VkDeviceSize surface_index_bytes = m.surfaces.indices.size() * sizeof(std::uint32_t);
    auto si = create_buffer(m.ctx, surface_index_bytes, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, MemoryUse::DeviceLocal);
    if (!si) return fail("surface indices: " + si.error());
    m.surface_indices = *si;
    if (auto up = upload_to_buffer(m.ctx, m.surface_indices, m.surfaces.indices.data(), std::size_t(surface_index_bytes)); !up)
      return fail(up.error());
    m.surface_stride = VkDeviceSize(m.surfaces.vertex_count) * sizeof(MeshVertex);
    auto sv = create_buffer(m.ctx, m.surface_stride * VkDeviceSize(m.options.frames_in_flight),
                            VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, MemoryUse::HostWrite);
    if (!sv) return fail("surface vertices: " + sv.error());
    m.surface_vertices = *sv;
  }
  m.write_descriptors();
  return true;
}

void SceneRenderer::update(const FrameInput& input) {
  Impl& m = *impl_;
  m.frame_ready = false;
  if (!m.initialized || !m.model) return;
  const sim::Model& md = *m.model;
  const int frames = m.options.frames_in_flight;
  m.slot = input.frame_slot >= 0 ? input.frame_slot % frames : int(m.frame_counter % std::uint64_t(frames));
  ++m.frame_counter;

  const bool have_q = input.q.size() >= std::size_t(md.coord_count());
  if (have_q && input.write_poses) {
    write_poses(md, input.q, m.poses->data());
    m.poses->publish();
  }
  m.pose_slot = m.poses->acquire(m.slot);
  const float* pose_floats = m.poses->slot_data(m.pose_slot);
  if (have_q && !input.write_poses) {
    m.pose_scratch.resize(pose_float_count(md.body_count, md.particle_count));
    write_poses(md, input.q, m.pose_scratch.data());
    pose_floats = m.pose_scratch.data();
  }
  const PoseView poses{pose_floats};

  // What casts shadows: every shape but planes, and the particles.
  Bounds casters;
  for (int s = 0; s < md.shape_count; ++s) {
    const int b = md.shape_body[std::size_t(s)];
    casters.add(b >= 0 ? shape_bounds(md, s, poses.position(b), poses.rotation(b))
                       : shape_bounds(md, s, glm::vec3(0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)));
  }
  const float* particles = pose_floats + std::size_t(kPoseFloatsPerBody) * std::size_t(md.body_count);
  for (int p = 0; p < md.particle_count; ++p) {
    const float* x = particles + std::size_t(kPoseFloatsPerParticle) * std::size_t(p);
    casters.add(glm::vec3(x[0], x[1], x[2]) - glm::vec3(x[3]));
    casters.add(glm::vec3(x[0], x[1], x[2]) + glm::vec3(x[3]));
  }
  for (const VisualBound& v : m.visual_bounds) {
    const glm::vec3 c = v.body >= 0 ? poses.position(v.body) + poses.rotation(v.body) * v.center : v.center;
    casters.add(c - glm::vec3(v.radius));
    casters.add(c + glm::vec3(v.radius));
  }
  if (casters.empty()) casters.add(glm::vec3(-1.0f)), casters.add(glm::vec3(1.0f));

  m.camera = input.camera;
  m.frame_shadows = input.shadows;
  m.frame_wireframe = input.wireframe;
  m.frame_transparent = input.transparent;
  m.frame_surface_particles = input.surface_particles;
  m.frame_geometry = input.geometry;
  if (!m.surfaces.empty())  // this slot's previous frame has completed: its vertices are free
    write_surface_vertices(m.surfaces, particles,
                           reinterpret_cast<MeshVertex*>(static_cast<std::uint8_t*>(m.surface_vertices.mapped) +
                                                         m.surface_stride * VkDeviceSize(m.slot)));
  FrameUniforms& u = *m.uniform_slot(m.slot);
  u.view_proj = m.camera.view_projection(1.0f);  // replaced in record() with the pass's aspect
  u.light_view_proj = light_view_projection(casters, kLightDirection, m.shadow.size);
  u.eye = glm::vec4(m.camera.eye(), 1.0f);
  u.light_dir = glm::vec4(kLightDirection, kAmbient);
  u.background = glm::vec4(input.background, 1.0f);
  u.grid = m.grid;
  u.info = glm::ivec4(input.selected_body, m.encode_srgb ? 1 : 0, input.shadows ? m.shadow.size : 0,
                      2 * md.body_count);
  // The per-element colour field: this slot's colours, written while no frame in flight reads it.
  const std::size_t elements = std::size_t(md.body_count + md.particle_count);
  const bool field = input.overlays.element_field != ElementField::None && elements > 0 &&
                     input.element_values.size() >= elements;
  u.field = glm::ivec4(field ? 1 : 0, md.body_count, 0, 0);
  if (field) {
    const std::span<const float> values = input.element_values.first(elements);
    const FieldRange range = input.element_range.lo < input.element_range.hi
                                 ? input.element_range
                                 : display_range(input.overlays.element_field, values);
    auto* colors = reinterpret_cast<glm::vec4*>(static_cast<std::uint8_t*>(m.element_colors.mapped) +
                                                m.element_stride * VkDeviceSize(m.slot));
    for (std::size_t e = 0; e < elements; ++e) colors[e] = glm::vec4(field_color(values[e], range), 1.0f);
    if (!m.embedded_values.empty()) {
      interpolate_embedded_values(m.surfaces, values.subspan(std::size_t(md.body_count)), m.embedded_values);
      for (std::size_t i = 0; i < m.embedded_values.size(); ++i)
        colors[elements + i] = glm::vec4(field_color(m.embedded_values[i], range), 1.0f);
    }
  }

  build_overlay_lines(md, poses, input.overlays, input.contacts, m.overlay_scale, m.camera.eye(), m.line_scratch,
                      input.highlighted_nodes);
  append_link_lines(m.surfaces, particles, kLinkColor, m.line_scratch);  // ropes: part of the scene, not an overlay
  if (input.overlays.grain_glyphs)
    append_grain_glyphs(input.parameters ? *input.parameters : md, poses, kGrainGlyphs, m.line_scratch);
  const std::size_t slot = std::size_t(m.slot);
  m.line_counts[slot] = m.upload_slot(m.line_buffers, slot, m.line_scratch) ? std::uint32_t(m.line_scratch.size()) : 0;
  m.stats.line_vertices = int(m.line_counts[slot]);
  build_sdf_overlay(md, poses, input.overlays, input.selected_body, input.contacts, m.overlay_scale, m.sdf_slice_cache,
                    m.top_scratch, m.top_line_scratch);
  const std::size_t fill_count = m.top_scratch.size();
  m.top_scratch.insert(m.top_scratch.end(), m.top_line_scratch.begin(), m.top_line_scratch.end());
  const bool top = m.upload_slot(m.top_buffers, slot, m.top_scratch);
  m.top_fill_counts[slot] = top ? std::uint32_t(fill_count) : 0;
  m.top_line_counts[slot] = top ? std::uint32_t(m.top_line_scratch.size()) : 0;
  m.stats.top_vertices = int(m.top_scratch.size());
  m.frame_ready = true;
}

void SceneRenderer::Impl::bind_common(VkCommandBuffer cmd, VkPipeline pipeline) {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  // Dynamic offsets in binding order: frame uniforms (0), poses (1), element colours (4).
  const std::uint32_t offsets[3] = {std::uint32_t(uniform_stride * VkDeviceSize(slot)),
                                    std::uint32_t(poses->slot_offset(pose_slot)),
                                    std::uint32_t(element_stride * VkDeviceSize(slot))};
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout, 0, 1, &set, 3, offsets);
}

std::uint32_t SceneRenderer::Impl::solid_kinds() const {
  const bool visuals = frame_geometry.visuals;
  const bool collision = !visuals || frame_geometry.collision;
  return bit(InstanceKind::Plane) | bit(InstanceKind::Shape) | (collision ? bit(InstanceKind::Covered) : 0u) |
         (visuals && !collision ? bit(InstanceKind::Visual) : 0u);
}

bool SceneRenderer::Impl::ghost_visuals() const { return frame_geometry.visuals && frame_geometry.collision; }

void SceneRenderer::Impl::draw_shapes(VkCommandBuffer cmd, std::uint32_t kinds, bool particles,
                                      VkPipeline surface_pipeline) {
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices.buffer, &zero);
  vkCmdBindIndexBuffer(cmd, indices.buffer, 0, VK_INDEX_TYPE_UINT32);
  const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  DrawConstants constants;
  vkCmdPushConstants(cmd, pipelines.layout, stages, 0, sizeof(constants), &constants);
  for (const DrawBatch& b : batches) {
    if ((kinds & bit(b.kind)) == 0) continue;
    const MeshRange& r = meshes[std::size_t(b.mesh)];
    vkCmdDrawIndexed(cmd, r.index_count, b.instance_count, r.first_index, r.vertex_offset, b.first_instance);
  }
  if (model->particle_count > 0 && particles) {
    constants.mode = 1;
    constants.particle_color = glm::vec4(kParticleColor, 1.0f);
    vkCmdPushConstants(cmd, pipelines.layout, stages, 0, sizeof(constants), &constants);
    if (frame_surface_particles || surfaces.empty()) {
      vkCmdDrawIndexed(cmd, particle_mesh.index_count, std::uint32_t(model->particle_count), particle_mesh.first_index,
                       particle_mesh.vertex_offset, 0);
    } else {  // the particles on no surface only (gl_InstanceIndex counts from firstInstance)
      for (const ParticleSurfaces::Run& run : surfaces.free_runs)
        vkCmdDrawIndexed(cmd, particle_mesh.index_count, run.count, particle_mesh.first_index, particle_mesh.vertex_offset,
                         run.first);
    }
  }
  if (particles && surface_pipeline && !surfaces.empty()) {
    bind_common(cmd, surface_pipeline);
    const VkDeviceSize offset = surface_stride * VkDeviceSize(slot);
    vkCmdBindVertexBuffers(cmd, 0, 1, &surface_vertices.buffer, &offset);
    vkCmdBindIndexBuffer(cmd, surface_indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    constants.mode = 3;
    for (const auto& [first, count, color] : {std::tuple{0u, surfaces.soft_index_count, kSoftSurfaceColor},
                                              std::tuple{surfaces.soft_index_count, surfaces.cloth_index_count, kClothColor}}) {
      if (count == 0) continue;
      constants.particle_color = glm::vec4(color, 1.0f);
      vkCmdPushConstants(cmd, pipelines.layout, stages, 0, sizeof(constants), &constants);
      vkCmdDrawIndexed(cmd, count, 1, first, 0, 0);
    }
  }
}

void SceneRenderer::record_shadow_pass(VkCommandBuffer cmd) {
  Impl& m = *impl_;
  if (!m.frame_ready || !m.frame_shadows) return;
  begin_shadow_pass(cmd, m.shadow);
  m.bind_common(cmd, m.pipelines.shadow);
  m.draw_shapes(cmd, m.solid_kinds() & ~bit(InstanceKind::Plane), true, m.pipelines.shadow);  // planes cast none
  vkCmdEndRenderPass(cmd);
}

void SceneRenderer::record(VkCommandBuffer cmd, VkExtent2D extent) {
  Impl& m = *impl_;
  if (!m.frame_ready || extent.width == 0 || extent.height == 0) return;
  // The uniforms are host-coherent and the frame is not submitted yet: patching the projection
  // for the pass's aspect here is still before the GPU reads it.
  m.uniform_slot(m.slot)->view_proj = m.camera.view_projection(float(extent.width) / float(extent.height));
  const VkViewport viewport{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  // Wireframe and transparency apply to the bodies; the ground stays solid (and is drawn first,
  // so see-through bodies blend over it). With the collision overlay the visuals are drawn
  // see-through over the solid collision shapes.
  VkPipeline shapes = m.pipelines.mesh;
  if (m.frame_wireframe && m.pipelines.mesh_wireframe) shapes = m.pipelines.mesh_wireframe;
  else if (m.frame_transparent && m.pipelines.mesh_transparent) shapes = m.pipelines.mesh_transparent;
  const std::uint32_t solid = m.solid_kinds();
  m.bind_common(cmd, m.pipelines.mesh);
  if (shapes == m.pipelines.mesh) {
    m.draw_shapes(cmd, solid, true, m.pipelines.mesh_two_sided);
  } else {
    m.draw_shapes(cmd, bit(InstanceKind::Plane), false);
    m.bind_common(cmd, shapes);
    m.draw_shapes(cmd, solid & ~bit(InstanceKind::Plane), true, shapes);
  }
  if (m.ghost_visuals() && m.pipelines.mesh_transparent) {
    m.bind_common(cmd, m.pipelines.mesh_transparent);
    m.draw_shapes(cmd, bit(InstanceKind::Visual), false);
  }
  const VkShaderStageFlags line_stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  const std::uint32_t top_fill = m.top_fill_counts[std::size_t(m.slot)];
  const std::uint32_t top_lines = m.top_line_counts[std::size_t(m.slot)];
  if (top_fill > 0) {  // the SDF slice, over the shapes and under every overlay line
    const VkDeviceSize zero = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &m.top_buffers[std::size_t(m.slot)].buffer, &zero);
    m.bind_common(cmd, m.pipelines.top_fill);
    const DrawConstants constants;
    vkCmdPushConstants(cmd, m.pipelines.layout, line_stages, 0, sizeof(constants), &constants);
    vkCmdDraw(cmd, top_fill, 1, 0, 0);
  }
  const std::uint32_t lines = m.line_counts[std::size_t(m.slot)];
  if (lines > 0) {
    // The hidden parts first (faded, no depth write), then the visible parts over them.
    const VkDeviceSize zero = 0;
    const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    vkCmdBindVertexBuffers(cmd, 0, 1, &m.line_buffers[std::size_t(m.slot)].buffer, &zero);
    for (const int mode : {2, 0}) {
      m.bind_common(cmd, mode == 2 ? m.pipelines.hidden_line : m.pipelines.line);
      DrawConstants constants;
      constants.mode = mode;
      vkCmdPushConstants(cmd, m.pipelines.layout, stages, 0, sizeof(constants), &constants);
      vkCmdDraw(cmd, lines, 1, 0, 0);
    }
  }
  if (top_lines > 0) {  // slice iso-lines and SDF contact markers, over everything
    const VkDeviceSize zero = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &m.top_buffers[std::size_t(m.slot)].buffer, &zero);
    m.bind_common(cmd, m.pipelines.top_line);
    const DrawConstants constants;
    vkCmdPushConstants(cmd, m.pipelines.layout, line_stages, 0, sizeof(constants), &constants);
    vkCmdDraw(cmd, top_lines, 1, top_fill, 0);
  }
}

}  // namespace render
