// The Friction panel's texture brush on mesh surfaces (issue 12), without Qt: a stroke starts
// where a viewport ray meets a mesh whose grain is the chosen material's texture, and every drag
// lays dabs (sim::paint_structure_texture) along the way at a quarter of the radius apart. The comb
// takes the stroke's direction on the surface (the drag from the last dab, in the shape frame) into
// the triangle's UV frame (MeshSurface::to_uv) as the grain; smooth, rotate and erase need no
// direction. The radius is in metres on the surface: radius_uv = radius / |dP/dv|, u stretched by
// |dP/du| / |dP/dv|. The stroke paints a private copy; image() is what the running model previews
// and what the document receives as one undo step when the stroke ends.
#pragma once

#include <memory>

#include "gui/picking.hpp"
#include "sim/model.hpp"
#include "sim/spec.hpp"
#include "sim/state.hpp"
#include "sim/structure_texture.hpp"

namespace coulomb::gui {

struct TextureBrush {
  sim::TextureBrushMode mode = sim::TextureBrushMode::Comb;
  double radius = 0.1;      // on the surface [m]
  double strength = 0.5;    // per dab, in (0, 1]
  double rotate_deg = 10;   // Rotate: turn per dab at the centre [deg]
};

// Where a ray meets a shape textured by `material`'s grain (the nearest such hit).
struct TextureHit {
  int shape = -1;
  sim::SurfacePoint point;
  sim::Vec3 local = sim::Vec3::Zero();  // shape frame
  bool hit() const { return shape >= 0; }
};
TextureHit hit_textured_surface(const sim::Model& model, const sim::State& state, int material, const Ray& ray);

class TexturePainter {
 public:
  // Starts a stroke on material `material`'s texture (spec) where the ray meets one of its
  // textured shapes (model, state); false (no stroke) when it misses or the material has no
  // texture. Smooth, rotate and erase lay their first dab at once.
  bool begin(const sim::SceneSpec& spec, const sim::Model& model, const sim::State& state, int material,
             const Ray& ray, const TextureBrush& brush);
  // Continues the stroke to where the ray meets the same shape; true when texels changed.
  bool drag(const sim::Model& model, const sim::State& state, const Ray& ray, const TextureBrush& brush);
  // Ends the stroke; the grain to hand to the document (the material's, with the painted image).
  sim::StructureFieldSpec end();

  bool active() const { return material_ >= 0; }
  int material() const { return material_; }
  std::shared_ptr<const sim::StructureTexture> image() const { return published_; }
  int dabs() const { return dabs_; }

 private:
  bool dab(const sim::MeshSurface& surface, const sim::Vec3& local, const sim::Vec3& direction, const TextureBrush& brush);

  int material_ = -1;
  int shape_ = -1;
  sim::StructureFieldSpec grain_;
  sim::StructureTexture working_;
  std::shared_ptr<const sim::StructureTexture> published_;
  sim::Vec3 last_ = sim::Vec3::Zero();  // shape frame: the last dab
  int dabs_ = 0;
};

}  // namespace coulomb::gui
