// Texture grains end to end (issue 12): a box sliding on a textured mesh slab whose grain was
// painted along world x follows the trajectory of the same slab with the constant grain along x,
// through UVs whose frame is rotated and stretched against the world (so only a correct lift
// through dP/du, dP/dv gives x), and each contact records the triangle and barycentrics it found.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "sim/mesh_surface.hpp"
#include "sim/structure_texture.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec2;
using sim::Vec3;

namespace {

enum class Grain { Isotropic, ConstantX, PaintedX };

// A 4 × 4 × 0.2 m slab (closed box mesh, top at z = 0) with UVs u = (y + 2)/4 · 0.5,
// v = (2 − x)/4: u along +y at half scale, v along −x. World x is −v in UV: θ = ±90°.
sim::ShapeSpec slab(int material) {
  sim::ShapeSpec s = test::mesh_shape(sim::make_box_mesh(Vec3(2, 2, 0.1)), 0, material);
  for (Vec3& v : s.vertices) v.z() -= 0.1;
  for (const auto& t : s.triangles)
    for (int k = 0; k < 3; ++k) {
      const Vec3& p = s.vertices[t[k]];
      s.uvs.emplace_back(0.5 * (p.y() + 2) / 4, (2 - p.x()) / 4);
    }
  return s;
}

// The texture painted with the comb brush: dabs over the whole top, each with the stroke direction
// world +x taken into UV through the slab's triangle under the dab (to_uv).
std::shared_ptr<const sim::StructureTexture> painted_along_x(const sim::ShapeSpec& s) {
  const sim::MeshSurface surface = sim::make_mesh_surface(s.vertices, s.triangles, s.uvs);
  sim::StructureTexture t = sim::blank_structure_texture(48, 48).value();
  for (Real y = -1.95; y <= 2; y += 0.1)
    for (Real x = -1.95; x <= 2; x += 0.1) {
      const sim::SurfacePoint at = surface.closest_point(Vec3(x, y, 0));
      REQUIRE(at.triangle >= 0);
      const Vec2 stroke = surface.to_uv(at.triangle, Vec3::UnitX());
      const Real aspect = surface.tangent_u[at.triangle].norm() / surface.tangent_v[at.triangle].norm();
      sim::paint_structure_texture(t, sim::TextureBrushMode::Comb, surface.uv(at), 0.06, aspect,
                                   std::atan2(stroke.y(), stroke.x()), 1);
    }
  return std::make_shared<const sim::StructureTexture>(std::move(t));
}

struct Run {
  std::vector<Vec3> positions;
  int textured_contacts = 0;
  bool surface_points_on_top = true;
};

Run slide(Grain grain) {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 120;
  spec.solver.linear_iterations = 40;
  const int slab_material = test::add_material(spec, "slab", 0.4);
  const int box_material = test::add_material(spec, "box", 0.4);  // isotropic: the slab's grain decides
  sim::MaterialSpec& m = spec.materials[slab_material];
  spec.world_shapes.push_back(slab(slab_material));
  if (grain != Grain::Isotropic) {
    m.friction_major = 0.8;
    m.friction_minor = 0.15;
    if (grain == Grain::ConstantX) {
      m.structure.kind = sim::StructureFieldKind::Constant;
      m.structure.direction = Vec3::UnitX();
    } else {
      m.structure.kind = sim::StructureFieldKind::Texture;
      m.structure.texture = "painted.png";
      m.structure.image = painted_along_x(spec.world_shapes[0]);
    }
  }
  test::add_body(spec, "box", Vec3(-0.8, -0.8, 0.05), 1.0, test::box_shape(Vec3(0.1, 0.08, 0.05), box_material));
  const Real a = 30 * std::numbers::pi / 180;
  spec.bodies[0].linear_velocity = Vec3(std::cos(a), std::sin(a), 0) * 2.5;
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  Run run;
  for (int i = 0; i < 120; ++i) {
    const sim::StepReport r = sim::step(model, state, sim::make_initial_control(model), ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());
    run.positions.push_back(state.body_pose(0).pos);
    for (const sim::Contact& c : ws.contacts.contacts) {
      const sim::SurfacePoint& s = c.shape_a == 0 ? c.surface_a : c.surface_b;
      if (s.triangle < 0) continue;
      ++run.textured_contacts;
      // Triangle and barycentrics: the slab's top (z = 0), under the box.
      const Vec3 p = model.surfaces[0]->position(s);
      run.surface_points_on_top = run.surface_points_on_top && std::abs(p.z()) < 1e-9 && s.b1 >= 0 && s.b2 >= 0 &&
                                  s.b1 + s.b2 <= 1 + 1e-6 && (p.head<2>() - state.body_pose(0).pos.head<2>()).norm() < 0.5;
    }
  }
  return run;
}

}  // namespace

TEST_CASE("a box slides on a slab with a painted texture grain as on the constant grain",
          "[scene][friction][anisotropic][texture]") {
  const Run constant = slide(Grain::ConstantX);
  const Run painted = slide(Grain::PaintedX);
  const Run isotropic = slide(Grain::Isotropic);
  REQUIRE(painted.textured_contacts > 0);
  CHECK(constant.textured_contacts == 0);
  CHECK(painted.surface_points_on_top);
  Real worst = 0, from_isotropic = 0;
  for (std::size_t i = 0; i < constant.positions.size(); ++i) {
    worst = std::max(worst, (painted.positions[i] - constant.positions[i]).norm());
    from_isotropic = std::max(from_isotropic, (isotropic.positions[i] - constant.positions[i]).norm());
  }
  INFO("painted vs constant: " << worst << " m, isotropic vs constant: " << from_isotropic << " m");
  // Float texels: the painted grain is x to ~1e-7 rad.
  CHECK(worst < 1e-5);
  // The grain matters: the anisotropic slide is far from the isotropic one.
  CHECK(from_isotropic > 0.05);
  // It curves: launched at 30° to x, the grain along x brakes x harder (μ_t = 0.8 vs 0.15 across),
  // so the final heading turns towards y.
  const Vec3 d = constant.positions.back() - constant.positions.front();
  CHECK(std::atan2(d.y(), d.x()) > 40 * std::numbers::pi / 180);
}
