// SDF slice sampling, its colour map and iso-lines, and the overlay geometry (slice quads, iso-lines,
// contact markers) placed with the frame's poses.
#include <algorithm>
#include <cmath>

#include "sdf_overlay_geometry.hpp"

namespace render {

namespace {

const glm::vec3 kInside{0.05f, 0.25f, 0.85f};
const glm::vec3 kSurface{1.0f, 1.0f, 1.0f};
const glm::vec3 kOutside{0.85f, 0.08f, 0.05f};
constexpr float kSliceAlpha = 0.85f;

glm::vec3 to_glm(const sim::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }
glm::quat to_glm(const sim::Quat& q) { return glm::quat(float(q.w()), float(q.x()), float(q.y()), float(q.z())); }

// In-plane axes of a slice (as SdfGrid::sample_slice orders them).
void plane_axes(int axis, int& u, int& v) {
  u = axis == 0 ? 1 : 0;
  v = axis == 2 ? 1 : 2;
}

// Where φ crosses `level` between samples a (value fa) and b (fb), which straddle it.
glm::vec3 crossing(const glm::vec3& a, const glm::vec3& b, float fa, float fb, float level) {
  const float t = (level - fa) / (fb - fa);
  return a + (b - a) * std::clamp(t, 0.0f, 1.0f);
}

struct Writer {
  std::vector<LineVertex>& out;
  void vertex(const glm::vec3& p, std::uint32_t color) { out.push_back(LineVertex{{p.x, p.y, p.z}, color}); }
  void line(const glm::vec3& a, const glm::vec3& b, std::uint32_t color) { vertex(a, color), vertex(b, color); }
};

// A marker per SDF feature kind, in the contact's tangent plane (t1, t2) or along the axes.
void marker(Writer& w, sim::SdfFeature kind, const glm::vec3& p, const glm::vec3& n, float h, std::uint32_t color) {
  glm::vec3 t1 = std::abs(n.x) < 0.9f ? glm::cross(n, glm::vec3(1, 0, 0)) : glm::cross(n, glm::vec3(0, 1, 0));
  t1 = glm::normalize(t1);
  const glm::vec3 t2 = glm::cross(n, t1);
  switch (kind) {
    case sim::SdfFeature::Vertex:
    case sim::SdfFeature::Core:  // a point: an axis cross
      for (int i = 0; i < 3; ++i) {
        glm::vec3 d(0.0f);
        d[i] = h;
        w.line(p - d, p + d, color);
      }
      break;
    case sim::SdfFeature::Edge:  // an X in the tangent plane, and the normal
      w.line(p - h * (t1 + t2), p + h * (t1 + t2), color);
      w.line(p - h * (t1 - t2), p + h * (t1 - t2), color);
      w.line(p, p + h * n, color);
      break;
    case sim::SdfFeature::Face:
    case sim::SdfFeature::ClothFace: {  // a hexagon in the tangent plane, and the normal
      glm::vec3 last = p + h * t1;
      for (int k = 1; k <= 6; ++k) {
        const float a = float(k) * 1.04719755f;
        const glm::vec3 next = p + h * (std::cos(a) * t1 + std::sin(a) * t2);
        w.line(last, next, color);
        last = next;
      }
      w.line(p, p + h * n, color);
      break;
    }
    case sim::SdfFeature::None: break;
  }
}

}  // namespace

glm::vec3 sdf_colour(float phi, float inside, float outside) {
  const float range = phi < 0.0f ? inside : outside;
  const float t = range > 0.0f ? std::clamp(phi / range, -1.0f, 1.0f) : (phi < 0.0f ? -1.0f : phi > 0.0f ? 1.0f : 0.0f);
  return t < 0.0f ? kSurface + (kInside - kSurface) * (-t) : kSurface + (kOutside - kSurface) * t;
}

glm::vec3 iteration_colour(int evaluations, int most) {
  const glm::vec3 few{0.0f, 0.85f, 1.0f}, middle{1.0f, 0.85f, 0.0f}, many{1.0f, 0.0f, 0.85f};
  const float t = most > 1 ? std::clamp(float(evaluations - 1) / float(most - 1), 0.0f, 1.0f) : 0.0f;
  return t < 0.5f ? few + (middle - few) * (2.0f * t) : middle + (many - middle) * (2.0f * t - 1.0f);
}

glm::vec3 SdfSlice::point(int i, int j) const {
  int u, v;
  plane_axes(axis, u, v);
  glm::vec3 p = lo;
  p[u] = nx > 1 ? lo[u] + (hi[u] - lo[u]) * float(i) / float(nx - 1) : 0.5f * (lo[u] + hi[u]);
  p[v] = ny > 1 ? lo[v] + (hi[v] - lo[v]) * float(j) / float(ny - 1) : 0.5f * (lo[v] + hi[v]);
  return p;
}

SdfSlice sample_sdf_slice(const sim::SdfGrid& grid, int axis, float position, int resolution) {
  SdfSlice s;
  s.axis = std::clamp(axis, 0, 2);
  int u, v;
  plane_axes(s.axis, u, v);
  const glm::vec3 lo = to_glm(grid.bounds_min()), hi = to_glm(grid.bounds_max());
  s.offset = lo[s.axis] + (hi[s.axis] - lo[s.axis]) * std::clamp(position, 0.0f, 1.0f);
  const float su = std::max(hi[u] - lo[u], 1e-9f), sv = std::max(hi[v] - lo[v], 1e-9f);
  const int n = std::max(resolution, 2);
  s.nx = su >= sv ? n : std::max(2, int(std::lround(float(n) * su / sv)));
  s.ny = su >= sv ? std::max(2, int(std::lround(float(n) * sv / su))) : n;
  sim::Vec3 corner_lo, corner_hi;
  grid.sample_slice(s.axis, sim::Real(s.offset), s.nx, s.ny, s.phi, corner_lo, corner_hi);
  s.lo = to_glm(corner_lo);
  s.hi = to_glm(corner_hi);
  s.voxel = float(grid.voxel_size());
  const float band = float(grid.background());
  for (float f : s.phi) {
    if (f < 0.0f) s.range_inside = std::max(s.range_inside, -f);
    else s.range_outside = std::max(s.range_outside, std::min(f, band));
  }
  if (!(s.range_inside > 0.0f)) s.range_inside = s.voxel;
  if (!(s.range_outside > 0.0f)) s.range_outside = s.voxel;
  return s;
}

void slice_iso_lines(const SdfSlice& s, std::vector<IsoSegment>& out) {
  out.clear();
  if (s.nx < 2 || s.ny < 2) return;
  for (int k = -s.iso_levels; k <= s.iso_levels; ++k) {
    const float level = s.iso_level(k);
    for (int j = 0; j + 1 < s.ny; ++j)
      for (int i = 0; i + 1 < s.nx; ++i) {
        // Corners counter-clockwise: (i,j) (i+1,j) (i+1,j+1) (i,j+1).
        const glm::vec3 p[4] = {s.point(i, j), s.point(i + 1, j), s.point(i + 1, j + 1), s.point(i, j + 1)};
        const float f[4] = {s.at(i, j), s.at(i + 1, j), s.at(i + 1, j + 1), s.at(i, j + 1)};
        glm::vec3 cross[4];  // on edges in order (edge e joins corners e, e+1)
        int count = 0;
        for (int e = 0; e < 4; ++e) {
          const int a = e, b = (e + 1) % 4;
          if ((f[a] < level) != (f[b] < level)) cross[count++] = crossing(p[a], p[b], f[a], f[b], level);
        }
        if (count == 2) {
          out.push_back(IsoSegment{cross[0], cross[1], k});
        } else if (count == 4) {
          // Saddle (corners 0, 2 on one side, 1, 3 on the other): the cell's mean decides which
          // pair the level set connects.
          const bool mean_below = 0.25f * (f[0] + f[1] + f[2] + f[3]) < level;
          const bool c0_below = f[0] < level;
          if (mean_below == c0_below) {  // corners 0 and 2 are connected: cut off corners 1 and 3
            out.push_back(IsoSegment{cross[0], cross[1], k});  // edges 0, 1 around corner 1
            out.push_back(IsoSegment{cross[2], cross[3], k});  // edges 2, 3 around corner 3
          } else {                       // cut off corners 0 and 2
            out.push_back(IsoSegment{cross[3], cross[0], k});  // edges 3, 0 around corner 0
            out.push_back(IsoSegment{cross[1], cross[2], k});  // edges 1, 2 around corner 2
          }
        }
      }
  }
}

int sdf_slice_shape(const sim::Model& model, int selected_body) {
  for (int s = 0; s < model.shape_count; ++s) {
    const int mesh = s < int(model.shape_mesh.size()) ? model.shape_mesh[std::size_t(s)] : -1;
    if (mesh < 0 || mesh >= int(model.meshes.size()) || !model.meshes[std::size_t(mesh)] ||
        !model.meshes[std::size_t(mesh)]->grid)
      continue;
    if (selected_body < 0 || model.shape_body[std::size_t(s)] == selected_body) return s;
  }
  return -1;
}

void build_sdf_overlay(const sim::Model& model, const PoseView& poses, const Overlays& overlays, int selected_body,
                       const ContactOverlay* contacts, const OverlayScale& scale, SdfSliceCache& cache,
                       std::vector<LineVertex>& triangles, std::vector<LineVertex>& lines) {
  triangles.clear();
  lines.clear();
  Writer fill{triangles}, w{lines};
  if (overlays.sdf_slice) {
    const int s = sdf_slice_shape(model, selected_body);
    if (s >= 0) {
      const auto& mesh = model.meshes[std::size_t(model.shape_mesh[std::size_t(s)])];
      const int axis = std::clamp(overlays.sdf_slice_axis, 0, 2);
      const float position = std::clamp(overlays.sdf_slice_position, 0.0f, 1.0f);
      if (cache.mesh != mesh || cache.axis != axis || cache.position != position) {
        cache.mesh = mesh;
        cache.axis = axis;
        cache.position = position;
        cache.slice = sample_sdf_slice(*mesh->grid, axis, position, kSdfSliceResolution);
        slice_iso_lines(cache.slice, cache.iso);
      }
      // Shape frame -> world: the body's pose (com frame) after the shape's local pose.
      const sim::Pose& local = model.shape_local[std::size_t(s)];
      const int body = model.shape_body[std::size_t(s)];
      glm::vec3 position_w = to_glm(local.pos);
      glm::quat rotation_w = to_glm(local.rot);
      if (body >= 0) {
        position_w = poses.position(body) + poses.rotation(body) * position_w;
        rotation_w = poses.rotation(body) * rotation_w;
      }
      auto place = [&](const glm::vec3& p) { return position_w + rotation_w * p; };
      const SdfSlice& sl = cache.slice;
      for (int j = 0; j + 1 < sl.ny; ++j)
        for (int i = 0; i + 1 < sl.nx; ++i) {
          const int ci[4] = {i, i + 1, i + 1, i}, cj[4] = {j, j, j + 1, j + 1};
          glm::vec3 p[4];
          std::uint32_t c[4];
          for (int k = 0; k < 4; ++k) {
            p[k] = place(sl.point(ci[k], cj[k]));
            c[k] = pack_rgba(sl.colour(ci[k], cj[k]), kSliceAlpha);
          }
          fill.vertex(p[0], c[0]), fill.vertex(p[1], c[1]), fill.vertex(p[2], c[2]);
          fill.vertex(p[0], c[0]), fill.vertex(p[2], c[2]), fill.vertex(p[3], c[3]);
        }
      const std::uint32_t zero = pack_rgba(glm::vec3(0.02f), 1.0f), other = pack_rgba(glm::vec3(0.12f), 0.55f);
      for (const IsoSegment& seg : cache.iso) w.line(place(seg.a), place(seg.b), seg.level == 0 ? zero : other);
    }
  } else {
    cache = SdfSliceCache{};
  }
  if (overlays.sdf_samples && contacts && contacts->sdf_feature.size() == std::size_t(contacts->size())) {
    const int most = std::max(model.sdf.iterations, 2);
    const float h = 0.35f * scale.marker;
    for (int i = 0; i < contacts->size(); ++i) {
      const sim::SdfFeature kind = contacts->sdf_feature[std::size_t(i)];
      if (kind == sim::SdfFeature::None) continue;
      const std::uint32_t color = pack_rgba(iteration_colour(contacts->sdf_iterations[std::size_t(i)], most));
      marker(w, kind, contacts->point[std::size_t(i)], contacts->normal[std::size_t(i)], h, color);
    }
  }
}

}  // namespace render
