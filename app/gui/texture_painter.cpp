#include "gui/texture_painter.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace coulomb::gui {

namespace {

// The grain field index covering shape s (its body's, else its material's), -1 none.
int shape_field(const sim::Model& m, int s) {
  const int body = m.shape_body[static_cast<std::size_t>(s)];
  int field = body >= 0 && body < static_cast<int>(m.body_structure_field.size())
                  ? m.body_structure_field[static_cast<std::size_t>(body)] : -1;
  const int material = m.shape_material[static_cast<std::size_t>(s)];
  if (field < 0 && material >= 0 && material < static_cast<int>(m.material_structure_field.size()))
    field = m.material_structure_field[static_cast<std::size_t>(material)];
  return field;
}

sim::Pose shape_pose(const sim::Model& m, const sim::State& state, int s) {
  const int body = m.shape_body[static_cast<std::size_t>(s)];
  const sim::Pose& local = m.shape_local[static_cast<std::size_t>(s)];
  return body >= 0 ? state.body_pose(body) * local : local;
}

}  // namespace

TextureHit hit_textured_surface(const sim::Model& model, const sim::State& state, int material, const Ray& ray) {
  TextureHit best;
  sim::Real best_t = std::numeric_limits<sim::Real>::infinity();
  if (material < 0 || material >= static_cast<int>(model.material_structure_field.size())) return best;
  const int field = model.material_structure_field[static_cast<std::size_t>(material)];
  if (field < 0) return best;
  for (int s = 0; s < model.shape_count && s < static_cast<int>(model.shape_surface.size()); ++s) {
    const int k = model.shape_surface[static_cast<std::size_t>(s)];
    if (k < 0 || shape_field(model, s) != field) continue;
    const sim::Pose pose = shape_pose(model, state, s);
    const sim::Vec3 origin = pose.rot.conjugate() * (ray.origin - pose.pos);
    const sim::Vec3 direction = pose.rot.conjugate() * ray.direction;
    sim::Real t = -1;
    const sim::SurfacePoint p = model.surfaces[static_cast<std::size_t>(k)]->intersect_ray(origin, direction, best_t, t);
    if (p.triangle < 0 || !(t >= 0) || t >= best_t) continue;
    best_t = t;
    best.shape = s;
    best.point = p;
    best.local = origin + t * direction;
  }
  return best;
}

bool TexturePainter::begin(const sim::SceneSpec& spec, const sim::Model& model, const sim::State& state, int material,
                           const Ray& ray, const TextureBrush& brush) {
  material_ = -1;
  dabs_ = 0;
  if (material < 0 || material >= static_cast<int>(spec.materials.size())) return false;
  const sim::StructureFieldSpec& grain = spec.materials[static_cast<std::size_t>(material)].structure;
  if (grain.kind != sim::StructureFieldKind::Texture || !grain.image || grain.image->empty()) return false;
  const TextureHit hit = hit_textured_surface(model, state, material, ray);
  if (!hit.hit()) return false;
  material_ = material;
  shape_ = hit.shape;
  grain_ = grain;
  working_ = *grain.image;
  published_ = grain.image;
  last_ = hit.local;
  if (brush.mode != sim::TextureBrushMode::Comb) {
    const sim::MeshSurface& surface = *model.surfaces[static_cast<std::size_t>(model.shape_surface[static_cast<std::size_t>(shape_)])];
    if (dab(surface, hit.local, sim::Vec3::Zero(), brush)) published_ = std::make_shared<const sim::StructureTexture>(working_);
  }
  return true;
}

bool TexturePainter::drag(const sim::Model& model, const sim::State& state, const Ray& ray, const TextureBrush& brush) {
  if (!active() || shape_ >= model.shape_count || shape_ >= static_cast<int>(model.shape_surface.size())) return false;
  const int k = model.shape_surface[static_cast<std::size_t>(shape_)];
  if (k < 0) return false;
  const sim::MeshSurface& surface = *model.surfaces[static_cast<std::size_t>(k)];
  const sim::Pose pose = shape_pose(model, state, shape_);
  sim::Real t = -1;
  const sim::Vec3 origin = pose.rot.conjugate() * (ray.origin - pose.pos);
  const sim::Vec3 direction = pose.rot.conjugate() * ray.direction;
  if (surface.intersect_ray(origin, direction, std::numeric_limits<sim::Real>::infinity(), t).triangle < 0) return false;
  const sim::Vec3 to = origin + t * direction;
  const sim::Real spacing = std::max(sim::Real(0.25) * sim::Real(brush.radius), sim::Real(1e-6));
  const sim::Vec3 step = to - last_;
  const int n = static_cast<int>(std::floor(step.norm() / spacing));
  if (n < 1) return false;
  bool changed = false;
  const sim::Vec3 along = step.normalized();
  for (int i = 1; i <= n && i <= 256; ++i) {
    const sim::Vec3 p = last_ + along * (spacing * i);
    changed = dab(surface, p, along, brush) || changed;
  }
  last_ = last_ + along * (spacing * n);
  if (changed) published_ = std::make_shared<const sim::StructureTexture>(working_);
  return changed;
}

bool TexturePainter::dab(const sim::MeshSurface& surface, const sim::Vec3& local, const sim::Vec3& direction,
                         const TextureBrush& brush) {
  const sim::SurfacePoint at = surface.closest_point(local);
  if (at.triangle < 0) return false;
  const sim::Vec3& tu = surface.tangent_u[static_cast<std::size_t>(at.triangle)];
  const sim::Vec3& tv = surface.tangent_v[static_cast<std::size_t>(at.triangle)];
  if (!(tu.norm() > 0) || !(tv.norm() > 0)) return false;  // degenerate UVs: nothing to paint
  sim::Real theta = 0;
  if (brush.mode == sim::TextureBrushMode::Comb) {
    const sim::Vec2 d = surface.to_uv(at.triangle, direction);
    if (!(d.norm() > 0)) return false;
    theta = std::atan2(d.y(), d.x());
  } else if (brush.mode == sim::TextureBrushMode::Rotate) {
    theta = brush.rotate_deg * std::numbers::pi / 180;
  }
  const int changed = sim::paint_structure_texture(working_, brush.mode, surface.uv(at), brush.radius / tv.norm(),
                                                   tu.norm() / tv.norm(), theta, brush.strength);
  if (changed == 0) return false;
  ++dabs_;
  return true;
}

sim::StructureFieldSpec TexturePainter::end() {
  sim::StructureFieldSpec out = grain_;
  out.image = published_;
  material_ = -1;
  shape_ = -1;
  return out;
}

}  // namespace coulomb::gui
