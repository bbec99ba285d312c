#include "debug_lines.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "render/orbit_camera.hpp"

namespace render {

namespace {

std::uint32_t rgb(float r, float g, float b) {
  auto byte = [](float v) { return std::uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return byte(r) | (byte(g) << 8) | (byte(b) << 16) | (255u << 24);
}

// Linear colours, picked to stay apart from each other and from the grey shapes after sRGB.
const std::uint32_t kContactPoint = rgb(1.0f, 0.80f, 0.0f);
const std::uint32_t kContactNormal = rgb(0.0f, 0.75f, 1.0f);
const std::uint32_t kNormalForce = rgb(1.0f, 0.08f, 0.05f);
const std::uint32_t kFrictionForce = rgb(0.05f, 0.85f, 0.1f);
const std::uint32_t kFrictionCone = rgb(1.0f, 0.45f, 0.0f);
constexpr int kEllipseSegments = 32;
constexpr float kConeScale = 4.0f;
const std::uint32_t kAxisColor[3] = {rgb(0.95f, 0.1f, 0.1f), rgb(0.1f, 0.85f, 0.1f), rgb(0.1f, 0.25f, 1.0f)};
const std::uint32_t kJointAxis = rgb(1.0f, 0.1f, 0.9f);
const std::uint32_t kJointLink = rgb(1.0f, 1.0f, 1.0f);
const std::uint32_t kBounds = rgb(0.85f, 0.85f, 0.85f);
const std::uint32_t kHighlight = rgb(1.0f, 0.0f, 1.0f);

glm::vec3 to_glm(const sim::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }
glm::quat to_glm(const sim::Quat& q) { return glm::quat(float(q.w()), float(q.x()), float(q.y()), float(q.z())); }

struct LineWriter {
  std::vector<LineVertex>& out;
  void line(const glm::vec3& a, const glm::vec3& b, std::uint32_t color) {
    out.push_back(LineVertex{{a.x, a.y, a.z}, color});
    out.push_back(LineVertex{{b.x, b.y, b.z}, color});
  }
  void cross(const glm::vec3& p, float h, std::uint32_t color) {
    for (int i = 0; i < 3; ++i) {
      glm::vec3 d(0.0f);
      d[i] = h;
      line(p - d, p + d, color);
    }
  }
  void axes(const glm::vec3& p, const glm::quat& q, float length) {
    for (int i = 0; i < 3; ++i) {
      glm::vec3 d(0.0f);
      d[i] = length;
      line(p, p + q * d, kAxisColor[i]);
    }
  }
  // An arrow from `from` along `v`, clamped to max_length, with a head facing the viewer.
  void arrow(const glm::vec3& from, glm::vec3 v, float max_length, const glm::vec3& eye, std::uint32_t color) {
    float length = glm::length(v);
    if (length < 1e-6f) return;
    const glm::vec3 dir = v / length;
    length = std::min(length, max_length);
    const glm::vec3 tip = from + dir * length;
    line(from, tip, color);
    glm::vec3 side = glm::cross(dir, eye - tip);
    if (glm::length(side) < 1e-6f) side = glm::cross(dir, glm::vec3(0.0f, 0.0f, 1.0f));
    if (glm::length(side) < 1e-6f) side = glm::vec3(1.0f, 0.0f, 0.0f);
    side = glm::normalize(side);
    const float head = 0.2f * length;
    line(tip, tip - dir * head + side * (0.5f * head), color);
    line(tip, tip - dir * head - side * (0.5f * head), color);
  }
  void box(const Bounds& b, std::uint32_t color) {
    if (b.empty()) return;
    const glm::vec3 c[2] = {b.lo, b.hi};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        line({c[0].x, c[i].y, c[j].z}, {c[1].x, c[i].y, c[j].z}, color);
        line({c[i].x, c[0].y, c[j].z}, {c[i].x, c[1].y, c[j].z}, color);
        line({c[i].x, c[j].y, c[0].z}, {c[i].x, c[j].y, c[1].z}, color);
      }
  }
};

float median(std::vector<float> v, float fallback) {
  if (v.empty()) return fallback;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace

glm::vec3 PoseView::position(int body) const {
  const float* p = data + std::size_t(kPoseFloatsPerBody) * std::size_t(body);
  return glm::vec3(p[0], p[1], p[2]);
}

glm::quat PoseView::rotation(int body) const {
  const float* p = data + std::size_t(kPoseFloatsPerBody) * std::size_t(body);
  return glm::normalize(glm::quat(p[7], p[4], p[5], p[6]));
}

OverlayScale overlay_scale(const sim::Model& model) {
  std::vector<float> radius, mass;
  for (int b = 0; b < model.body_count; ++b) {
    if (!model.body_is_dynamic(b)) continue;
    radius.push_back(float(model.body_bound_radius[std::size_t(b)]));
    mass.push_back(float(1.0 / model.body_inv_mass[std::size_t(b)]));
  }
  if (mass.empty())
    for (int p = 0; p < model.particle_count; ++p)
      if (model.particle_inv_mass[std::size_t(p)] > 0) {
        radius.push_back(4.0f * float(model.particle_radius[std::size_t(p)]));
        mass.push_back(float(1.0 / model.particle_inv_mass[std::size_t(p)]));
      }
  OverlayScale s;
  const float size = std::max(median(radius, 0.2f), 0.01f);
  const float weight = float(model.gravity.norm()) * median(mass, 0.0f);
  s.marker = 0.25f * size;
  s.axis = 0.8f * size;
  s.force_per_newton = weight > 0.0f ? size / weight : 0.01f;
  s.max_arrow = 2.5f * size;
  return s;
}

void build_overlay_lines(const sim::Model& model, const PoseView& poses, const Overlays& overlays,
                         const ContactOverlay* contacts, const OverlayScale& scale, const glm::vec3& eye,
                         std::vector<LineVertex>& out, std::span<const int> highlighted) {
  out.clear();
  LineWriter w{out};
  // A capture row's nodes and a selected particle: boxes around the bodies' shapes, and around the particles.
  for (int node : highlighted) {
    if (node >= 0 && node < model.body_count) {
      Bounds b;
      for (int s = 0; s < model.shape_count; ++s)
        if (model.shape_body[std::size_t(s)] == node)
          b.add(shape_bounds(model, s, poses.position(node), poses.rotation(node)));
      if (b.empty()) b.add(Bounds{poses.position(node) - glm::vec3(scale.marker), poses.position(node) + glm::vec3(scale.marker)});
      w.box(b, kHighlight);
    } else if (node >= model.body_count && node < model.body_count + model.particle_count) {
      const float* x = poses.data + std::size_t(kPoseFloatsPerBody) * std::size_t(model.body_count) +
                       std::size_t(kPoseFloatsPerParticle) * std::size_t(node - model.body_count);
      const glm::vec3 p(x[0], x[1], x[2]);
      // Its radius, at least a few pixels wide at any distance (1% of the distance to the eye):
      // a particle of a soft body is small beside the scene's marker size.
      const float r = std::max(x[3], 0.01f * glm::length(p - eye));
      w.box(Bounds{p - glm::vec3(r), p + glm::vec3(r)}, kHighlight);
    }
  }
  if (!overlays.any()) return;
  const float force_scale = overlays.force_scale > 0.0f ? overlays.force_scale : scale.force_per_newton;

  if (contacts) {
    for (int i = 0; i < contacts->size(); ++i) {
      const glm::vec3& p = contacts->point[std::size_t(i)];
      if (overlays.contact_points) w.cross(p, 0.5f * scale.marker, kContactPoint);
      if (overlays.contact_normals) w.line(p, p + contacts->normal[std::size_t(i)] * (2.0f * scale.marker), kContactNormal);
      if (overlays.normal_forces)
        w.arrow(p, contacts->normal_force[std::size_t(i)] * force_scale, scale.max_arrow, eye, kNormalForce);
      if (overlays.friction_forces)
        w.arrow(p, contacts->friction_force[std::size_t(i)] * force_scale, scale.max_arrow, eye, kFrictionForce);
      if (overlays.friction_cones && i < static_cast<int>(contacts->friction_axis_t.size())) {
        // At kConeScale times the force scale (a contact carries a fraction of a body's weight) and
        // not clamped, so the force line stays inside its ellipse.
        const float cone_scale = kConeScale * force_scale;
        const glm::vec3 a = contacts->friction_axis_t[std::size_t(i)] * cone_scale;
        const glm::vec3 b = contacts->friction_axis_b[std::size_t(i)] * cone_scale;
        if (glm::dot(a, a) + glm::dot(b, b) > 0.0f) {
          glm::vec3 previous = p + a;
          for (int k = 1; k <= kEllipseSegments; ++k) {
            const float phi = 6.2831853f * float(k) / float(kEllipseSegments);
            const glm::vec3 next = p + std::cos(phi) * a + std::sin(phi) * b;
            w.line(previous, next, kFrictionCone);
            previous = next;
          }
          w.line(p, p + contacts->friction_force[std::size_t(i)] * cone_scale, kFrictionCone);
        }
      }
    }
  }

  if (contacts && overlays.replay_marks) {
    // A replayed capture's contacts and joints: a cross and a diamond in the quantity's colour,
    // and a joint's constraint force as an arrow from it.
    const std::size_t n = std::min(contacts->mark_point.size(), contacts->mark_color.size());
    for (std::size_t i = 0; i < n; ++i) {
      const glm::vec3& p = contacts->mark_point[i];
      const glm::vec3& c = contacts->mark_color[i];
      const std::uint32_t color = rgb(c.x, c.y, c.z);
      const float h = 0.6f * scale.marker;
      w.cross(p, h, color);
      const glm::vec3 d[4] = {{h, 0, 0}, {0, h, 0}, {-h, 0, 0}, {0, -h, 0}};
      for (int k = 0; k < 4; ++k) w.line(p + d[k], p + d[(k + 1) % 4], color);
      if (overlays.normal_forces && i < contacts->mark_force.size())
        w.arrow(p, contacts->mark_force[i] * force_scale, scale.max_arrow, eye, kNormalForce);
    }
  }

  if (overlays.body_frames)
    for (int b = 0; b < model.body_count; ++b)
      w.axes(poses.position(b), poses.rotation(b),
             std::max(0.6f * float(model.body_bound_radius[std::size_t(b)]), 0.5f * scale.axis));

  if (overlays.joint_frames)
    for (int j = 0; j < model.joint_count; ++j) {
      auto world_frame = [&](int body, const sim::Pose& local, glm::vec3& p, glm::quat& q) {
        p = to_glm(local.pos);
        q = to_glm(local.rot);
        if (body < 0) return;
        p = poses.position(body) + poses.rotation(body) * p;
        q = poses.rotation(body) * q;
      };
      glm::vec3 pa, pb;
      glm::quat qa, qb;
      world_frame(model.joint_body_a[std::size_t(j)], model.joint_frame_a[std::size_t(j)], pa, qa);
      world_frame(model.joint_body_b[std::size_t(j)], model.joint_frame_b[std::size_t(j)], pb, qb);
      const float length = 0.5f * scale.axis;
      w.axes(pa, qa, length);
      w.axes(pb, qb, 0.7f * length);
      w.line(pa, pb, kJointLink);
      const sim::JointType type = model.joint_type[std::size_t(j)];
      if (type == sim::JointType::Revolute || type == sim::JointType::Prismatic) {
        const glm::vec3 axis = qa * to_glm(model.joint_axis[std::size_t(j)]);
        w.line(pa - axis * (1.5f * length), pa + axis * (1.5f * length), kJointAxis);
      }
    }

  if (overlays.bounding_boxes) {
    std::vector<Bounds> body_box(std::size_t(model.body_count));
    for (int s = 0; s < model.shape_count; ++s) {
      const int b = model.shape_body[std::size_t(s)];
      if (b < 0) {
        w.box(shape_bounds(model, s, glm::vec3(0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)), kBounds);
        continue;
      }
      body_box[std::size_t(b)].add(shape_bounds(model, s, poses.position(b), poses.rotation(b)));
    }
    for (const Bounds& b : body_box) w.box(b, kBounds);
  }
}

}  // namespace render
