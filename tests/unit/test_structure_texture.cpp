// Structure-field textures (issue 12): the doubled-angle encoding under bilinear filtering, the
// lift of a UV direction through a triangle's tangent frame (a skewed UV map against its closed
// form), the closest-triangle BVH against brute force, PNG/EXR files, and a painted stroke that
// survives save -> load of a scene.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <memory>
#include <numbers>
#include <random>

#include "sim/compile.hpp"
#include "sim/mesh_surface.hpp"
#include "sim/scene_io.hpp"
#include "sim/structure_texture.hpp"
#include "support/scene_builders.hpp"
#include "support/scoped_resources.hpp"
#include "support/scratch_files.hpp"

using sim::Real;
using sim::Vec2;
using sim::Vec3;

namespace {

constexpr Real kPi = std::numbers::pi_v<Real>;
constexpr Real kDegree = kPi / 180;

// Angle between two axial directions (θ and θ + π equal), in [0, π/2].
Real axial_difference(Real a, Real b) {
  Real d = std::fmod(std::abs(a - b), kPi);
  return std::min(d, kPi - d);
}

// A smooth periodic grain field θ(u, v) = θ0 + a sin 2πu + b cos 2πv, changing by at most
// `max_step` per texel.
struct SmoothField {
  Real theta0, a, b;
  Real operator()(Real u, Real v) const { return theta0 + a * std::sin(2 * kPi * u) + b * std::cos(2 * kPi * v); }
};

sim::StructureTexture fill(int w, int h, const SmoothField& field) {
  sim::StructureTexture t = sim::blank_structure_texture(w, h).value();
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) {
      const Vec2 d = sim::encode_grain_angle(field((i + 0.5) / w, (j + 0.5) / h));
      float* texel = t.texel(i, j);
      texel[0] = float(d.x()), texel[1] = float(d.y()), texel[2] = 1;
    }
  return t;
}

// A flat slab mesh (closed, so its SDF is signed) spanning [-L, L]² × [-thick, 0] with planar UVs
// given by `uv_of` on every corner.
template <class UvOf>
sim::ShapeSpec textured_slab(Real half, Real thick, int material, UvOf uv_of) {
  const sim::TriangleMesh box = sim::make_box_mesh(Vec3(half, half, thick / 2));
  sim::ShapeSpec s = test::mesh_shape(box, 0, material);
  for (Vec3& v : s.vertices) v.z() -= thick / 2;
  for (const auto& t : s.triangles)
    for (int k = 0; k < 3; ++k) s.uvs.push_back(uv_of(s.vertices[t[k]]));
  return s;
}

}  // namespace

TEST_CASE("texture encode, bilinear sample and decode keep a direction within one degree",
          "[unit][friction][anisotropic][texture]") {
  std::mt19937 rng(12);
  std::uniform_real_distribution<Real> unit(0, 1);
  const int sizes[][2] = {{7, 5}, {64, 33}, {200, 3}, {1, 48}};
  for (const auto& size : sizes) {
    const int w = size[0], h = size[1];
    // Amplitudes so neighbouring texels differ by at most 8° (the field must be resolvable).
    const Real max_step = 8 * kDegree;
    const SmoothField field{(unit(rng) - 0.5) * 2 * kPi, max_step * w / (2 * kPi) * unit(rng),
                            max_step * h / (2 * kPi) * unit(rng)};
    const sim::StructureTexture t = fill(w, h, field);
    Real worst = 0;
    for (int k = 0; k < 2000; ++k) {
      // UVs anywhere, also outside [0, 1] (the lookup repeats).
      const Vec2 uv((unit(rng) - 0.5) * 6, (unit(rng) - 0.5) * 6);
      const Vec2 doubled = sim::sample_structure_texture(t, uv);
      REQUIRE(doubled.norm() > 0.9);  // neighbours nearly agree: the filtered strength stays high
      worst = std::max(worst, axial_difference(sim::decode_grain_angle(doubled), field(uv.x(), uv.y())));
    }
    INFO(w << " x " << h << ": worst " << worst / kDegree << " degrees");
    CHECK(worst < 1 * kDegree);
  }
  // Axial directions do not cancel: 89° and −89° (2° apart as grains) filter to 90°, where
  // averaging the angles would give 0° and averaging unit vectors (cos θ, sin θ) nothing.
  sim::StructureTexture pair = sim::blank_structure_texture(2, 1).value();
  for (int i = 0; i < 2; ++i) {
    const Vec2 d = sim::encode_grain_angle((i ? -89 : 89) * kDegree);
    pair.texel(i, 0)[0] = float(d.x()), pair.texel(i, 0)[1] = float(d.y()), pair.texel(i, 0)[2] = 1;
  }
  const Vec2 mid = sim::sample_structure_texture(pair, Vec2(0.5, 0.5));
  CHECK(axial_difference(sim::decode_grain_angle(mid), 90 * kDegree) < 1e-5);
  CHECK(mid.norm() == Approx(std::cos(2 * kDegree)).epsilon(1e-5));
  // Crossing grains (0° and 90°) cancel: no grain between them (strength below the threshold).
  for (int i = 0; i < 2; ++i) {
    const Vec2 d = sim::encode_grain_angle(i * 90 * kDegree);
    pair.texel(i, 0)[0] = float(d.x()), pair.texel(i, 0)[1] = float(d.y());
  }
  CHECK(sim::sample_structure_texture(pair, Vec2(0.5, 0.5)).norm() < 1e-6);
}

TEST_CASE("a triangle with a skewed UV map lifts a texture direction through dP/du and dP/dv",
          "[unit][friction][anisotropic][texture]") {
  // P = P0 + A (u, v): the UV map of the triangle is the inverse of a known affine map, so its
  // tangent frame is A's columns and a grain at θ in UV lifts to cos θ A₀ + sin θ A₁ (closed form).
  const Vec3 p0(0.3, -0.2, 0.5);
  Eigen::Matrix<Real, 3, 2> A;
  A << 2.0, 0.7,   //
      0.3, 1.5,    //
      -0.4, 0.25;  // a tilted plane, strongly skewed and stretched
  const Vec2 uv[3] = {Vec2(0.1, 0.2), Vec2(0.8, 0.35), Vec2(0.3, 0.9)};
  std::vector<Vec3> vertices;
  for (const Vec2& q : uv) vertices.push_back(p0 + A * q);
  const sim::MeshSurface surface = sim::make_mesh_surface(vertices, {{0, 1, 2}}, {uv[0], uv[1], uv[2]});
  CHECK((surface.tangent_u[0] - A.col(0)).norm() < 1e-12);
  CHECK((surface.tangent_v[0] - A.col(1)).norm() < 1e-12);
  for (Real theta_deg : {0.0, 35.0, 90.0, 127.0, -60.0}) {
    const Real theta = theta_deg * kDegree;
    sim::StructureTexture t = sim::blank_structure_texture(4, 4).value();
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        const Vec2 d = sim::encode_grain_angle(theta);
        t.texel(i, j)[0] = float(d.x()), t.texel(i, j)[1] = float(d.y()), t.texel(i, j)[2] = 1;
      }
    const sim::SurfacePoint at{0, 0.3f, 0.2f};
    const Vec3 grain = sim::surface_grain(t, surface, at).normalized();
    const Vec3 expected = (std::cos(theta) * A.col(0) + std::sin(theta) * A.col(1)).normalized();
    INFO("theta " << theta_deg);
    // Axial: ±expected; float texels limit the agreement to ~1e-7.
    CHECK(std::abs(grain.dot(expected)) == Approx(1).margin(1e-9));
    // The surface angle is not the UV angle on a skewed map (the lift is not a rotation).
    if (theta_deg == 35.0) {
      const Real surface_angle = std::acos(std::abs(expected.dot(A.col(0).normalized())));
      CHECK(std::abs(surface_angle - theta) > 5 * kDegree);
    }
    // to_uv inverts the lift on the triangle's plane (the brush's stroke direction).
    const Vec2 back = surface.to_uv(0, expected);
    CHECK(axial_difference(std::atan2(back.y(), back.x()), theta) < 1e-9);
  }
}

TEST_CASE("the closest-triangle query of a mesh surface agrees with brute force",
          "[unit][friction][texture][sdf]") {
  const sim::TriangleMesh mesh = sim::make_sphere_mesh(0.7, 3);  // 1280 triangles
  std::vector<Vec2> uvs(3 * mesh.triangles.size(), Vec2::Zero());
  const sim::MeshSurface surface = sim::make_mesh_surface(mesh.vertices, mesh.triangles, uvs);
  std::mt19937 rng(3);
  std::normal_distribution<Real> normal(0, 1);
  for (int k = 0; k < 300; ++k) {
    const Vec3 p = Vec3(normal(rng), normal(rng), normal(rng)) * 0.5;
    const sim::SurfacePoint s = surface.closest_point(p);
    REQUIRE(s.triangle >= 0);
    Real best = std::numeric_limits<Real>::infinity();
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
      // Dense sampling of the triangle is not exact; project onto its plane and clamp by the
      // query itself on a one-triangle surface instead.
      const sim::MeshSurface one = sim::make_mesh_surface(mesh.vertices, {mesh.triangles[t]}, {Vec2(), Vec2(), Vec2()});
      best = std::min(best, (one.position(one.closest_point(p)) - p).norm());
    }
    CHECK((surface.position(s) - p).norm() == Approx(best).margin(1e-12));
    CHECK(s.b1 >= 0);
    CHECK(s.b2 >= 0);
    CHECK(s.b1 + s.b2 <= 1 + 1e-6);
  }
}

TEST_CASE("structure textures read back from 8 and 16-bit PNG and from EXR",
          "[unit][friction][texture][io]") {
  test::TempDir dir("coulomb_texture_io");
  const sim::StructureTexture t = fill(37, 21, SmoothField{0.4, 0.9, 0.5});
  for (int depth : {8, 16, 32}) {
    sim::StructureTexture written = t;
    written.bit_depth = depth;
    const std::string path = (dir.path / (depth == 32 ? "grain.exr" : "grain" + std::to_string(depth) + ".png")).string();
    REQUIRE(sim::save_structure_texture(written, path).empty());
    auto back = sim::load_structure_texture(path);
    INFO(path << ": " << (back ? std::string() : back.error()));
    REQUIRE(back.ok());
    CHECK(back->width == 37);
    CHECK(back->height == 21);
    CHECK(back->bit_depth == depth);
    const float step = depth == 8 ? 1.0f / 255 : depth == 16 ? 1.0f / 65535 : 0.0f;
    float worst = 0;
    for (std::size_t k = 0; k < t.texels.size(); ++k) worst = std::max(worst, std::abs(back->texels[k] - t.texels[k]));
    CHECK(worst <= step * 1.001f);  // R, G span [-1, 1]: half a step of 2/(2^n − 1)
    // Reading and writing again reproduces the file's texels exactly.
    REQUIRE(sim::save_structure_texture(back.value(), path).empty());
    CHECK(sim::load_structure_texture(path).value() == back.value());
    // The v direction: row 0 of the texels is the image's bottom row (v = 0).
    CHECK(back->texel(3, 0)[0] == Approx(t.texel(3, 0)[0]).margin(step + 1e-7));
  }
  // Bad input names the file.
  test::write_file(dir.path / "broken.png", "not a png");
  auto bad = sim::load_structure_texture((dir.path / "broken.png").string());
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("broken.png") && Catch::Contains("not a PNG"));
  auto missing = sim::load_structure_texture((dir.path / "nothing.exr").string());
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error(), Catch::Contains("nothing.exr"));
  CHECK_THAT(sim::load_structure_texture((dir.path / "broken.jpg").string()).error(), Catch::Contains("broken.jpg"));
  CHECK_FALSE(sim::blank_structure_texture(0, 4).ok());
}

TEST_CASE("a painted stroke round-trips through save and load of a scene as the same field",
          "[unit][friction][anisotropic][texture][io]") {
  for (const char* file : {"grain.png", "grain.exr"}) {
    test::TempDir dir(std::string("coulomb_texture_stroke_") + (file[6] == 'p' ? "png" : "exr"));
    sim::SceneSpec spec;
    const int mat = test::add_material(spec, "felt", 0.5);
    spec.materials[mat].friction_major = 0.9;
    spec.materials[mat].friction_minor = 0.2;
    spec.materials[mat].structure.kind = sim::StructureFieldKind::Texture;
    spec.materials[mat].structure.texture = file;
    // UVs over the slab's top: u along y, v along −x (a rotated map, so θ in UV ≠ θ in the world).
    const Real half = 1;
    spec.world_shapes.push_back(textured_slab(half, 0.1, mat, [&](const Vec3& p) {
      return Vec2((p.y() + half) / (2 * half), (half - p.x()) / (2 * half));
    }));
    // A stroke: comb dabs along a curve, then rotate, smooth and erase dabs over part of it.
    sim::StructureTexture t = sim::blank_structure_texture(96, 64).value();
    for (int k = 0; k <= 40; ++k) {
      const Real s = k / 40.0;
      const Vec2 c(0.1 + 0.8 * s, 0.5 + 0.25 * std::sin(2 * kPi * s));
      const Vec2 tangent(0.8, 0.25 * 2 * kPi * std::cos(2 * kPi * s));
      sim::paint_structure_texture(t, sim::TextureBrushMode::Comb, c, 0.12, 1.5, std::atan2(tangent.y(), tangent.x()), 0.6);
    }
    CHECK(sim::paint_structure_texture(t, sim::TextureBrushMode::Rotate, Vec2(0.3, 0.6), 0.1, 1.5, 0.4, 0.8) > 0);
    CHECK(sim::paint_structure_texture(t, sim::TextureBrushMode::Smooth, Vec2(0.6, 0.4), 0.1, 1.5, 0, 0.7) > 0);
    CHECK(sim::paint_structure_texture(t, sim::TextureBrushMode::Erase, Vec2(0.85, 0.5), 0.08, 1.5, 0, 1) > 0);
    spec.materials[mat].structure.image = std::make_shared<const sim::StructureTexture>(t);
    const std::string scene = (dir.path / "painted.xml").string();
    auto saved = sim::save_scene_file(spec, scene);
    INFO((saved ? std::string() : saved.error()));
    REQUIRE(saved.ok());
    REQUIRE(std::filesystem::exists(dir.path / file));
    auto loaded = sim::load_scene_file(scene);
    INFO((loaded ? std::string() : loaded.error()));
    REQUIRE(loaded.ok());
    const auto& back = loaded->materials[0].structure;
    REQUIRE(back.kind == sim::StructureFieldKind::Texture);
    REQUIRE(back.image);
    REQUIRE(loaded->world_shapes[0].uvs == spec.world_shapes[0].uvs);
    // The same field: at every point of the top the grain agrees in direction (within 0.05°) and
    // in whether there is one.
    const sim::MeshSurface before = sim::make_mesh_surface(spec.world_shapes[0].vertices, spec.world_shapes[0].triangles,
                                                           spec.world_shapes[0].uvs);
    const sim::MeshSurface after = sim::make_mesh_surface(loaded->world_shapes[0].vertices,
                                                          loaded->world_shapes[0].triangles, loaded->world_shapes[0].uvs);
    int grained = 0, compared = 0;
    Real worst = 0;
    for (int j = 0; j < 60; ++j)
      for (int i = 0; i < 60; ++i) {
        const Vec3 p(-half + 2 * half * (i + 0.5) / 60, -half + 2 * half * (j + 0.5) / 60, 0);
        const Vec3 g0 = sim::surface_grain(t, before, before.closest_point(p));
        const Vec3 g1 = sim::surface_grain(*back.image, after, after.closest_point(p));
        const Vec2 d0 = sim::sample_structure_texture(t, before.uv(before.closest_point(p)));
        // Right at the strength threshold the quantised file may fall on the other side.
        if (std::abs(d0.norm() - sim::kMinGrainStrength) < 1e-3) continue;
        ++compared;
        REQUIRE((g0.norm() > 0) == (g1.norm() > 0));
        if (g0.norm() == 0) continue;
        ++grained;
        worst = std::max(worst, std::acos(std::min(Real(1), std::abs(g0.normalized().dot(g1.normalized())))));
      }
    INFO(file << ": " << grained << " of " << compared << " points grained, worst " << worst / kDegree << " degrees");
    CHECK(grained > 400);            // the stroke covers a good part of the top
    CHECK(grained < compared - 400); // and leaves the rest without grain
    CHECK(worst < 0.05 * kDegree);
    // Saving the loaded scene again leaves the texture file as it is (same texels).
    const auto stamp = std::filesystem::last_write_time(dir.path / file);
    REQUIRE(sim::save_scene_file(loaded.value(), scene).ok());
    CHECK(std::filesystem::last_write_time(dir.path / file) == stamp);
  }
}

TEST_CASE("a texture grain on a shape without UVs is refused at compile time",
          "[unit][friction][texture]") {
  sim::SceneSpec spec;
  const int mat = test::add_material(spec, "felt", 0.5);
  spec.materials[mat].friction_major = 0.9;
  spec.materials[mat].structure.kind = sim::StructureFieldKind::Texture;
  spec.materials[mat].structure.texture = "grain.png";
  spec.materials[mat].structure.image =
      std::make_shared<const sim::StructureTexture>(sim::blank_structure_texture(4, 4).value());
  spec.world_shapes.push_back(test::ground_plane(mat));
  auto m = sim::compile_model(spec);
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error(), Catch::Contains("texture grain but no UVs"));
}

TEST_CASE("mesh files keep their UVs per triangle corner across seams", "[unit][texture][io]") {
  // A quad of two triangles whose shared edge is a UV seam: the corners there have different UVs
  // in each triangle although the positions are the same (and are welded).
  test::TempDir dir("coulomb_texture_obj");
  test::write_file(dir.path / "quad.obj",
                   "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                   "vt 0 0\nvt 0.5 0\nvt 0.5 1\nvt 0.5 0\nvt 1 1\nvt 0.5 1\n"
                   "f 1/1 2/2 3/3\nf 2/4 4/5 3/6\n");
  test::write_file(dir.path / "scene.xml",
                   "<scene><world><mesh file=\"quad.obj\"/></world></scene>\n");
  auto spec = sim::load_scene_file((dir.path / "scene.xml").string());
  INFO((spec ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  const sim::ShapeSpec& s = spec->world_shapes[0];
  REQUIRE(s.triangles.size() == 2);
  REQUIRE(s.uvs.size() == 6);
  // Each corner's UV is the one the file gives that corner of that face.
  const Vec2 expected[6] = {Vec2(0, 0), Vec2(0.5, 0), Vec2(0.5, 1), Vec2(0.5, 0), Vec2(1, 1), Vec2(0.5, 1)};
  const Vec3 positions[6] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)};
  for (int t = 0; t < 2; ++t)
    for (int k = 0; k < 3; ++k) {
      const int c = 3 * t + k;
      // Match by position (the importer may rotate a face's corners).
      int found = -1;
      for (int j = 0; j < 3; ++j)
        if ((s.vertices[s.triangles[t][j]] - positions[c]).norm() < 1e-12) found = j;
      REQUIRE(found >= 0);
      CHECK((s.uvs[3 * t + found] - expected[c]).norm() < 1e-6);
    }
  // Inline uvs with the wrong count name the element and the count.
  auto bad = sim::parse_scene_xml("<scene><world><mesh vertices=\"0 0 0 1 0 0 0 1 0\" triangles=\"0 1 2\" uvs=\"0 0 1 0\"/></world></scene>",
                                  (dir.path / "bad.xml").string());
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("bad.xml:1") && Catch::Contains("uvs") && Catch::Contains("got 4"));
}
