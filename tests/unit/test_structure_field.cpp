// Structure fields (thesis ch. 3.3): the procedural grains against their defining formulas, the
// expression compiler, the scene XML <grain> element (errors, and the writer's round trip), and
// which grain a contact sees (body over material, turning with the body).
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "app/spec_equal.hpp"
#include "collision/structure_expression.hpp"
#include "collision/structure_field.hpp"
#include "sim/scene_io.hpp"
#include "support/parse_checks.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;
using K = sim::StructureFieldKind;

namespace {

sim::StructureField compiled(const sim::StructureFieldSpec& spec) {
  auto f = sim::detail::compile_structure_field(spec, "test");
  INFO((f ? std::string() : f.error()));
  REQUIRE(f.ok());
  return f.value();
}

// The flow (low-friction direction) of a grain in the z = 0 plane: the grain turned by −90°.
Vec3 flow_of(const Vec3& grain) { return Vec3(grain.y(), -grain.x(), 0); }

sim::StructureFieldSpec grain(K kind) {
  sim::StructureFieldSpec g;
  g.kind = kind;
  return g;
}

}  // namespace

TEST_CASE("procedural grains follow their flow formulas", "[unit][friction][anisotropic][grain]") {
  sim::StructureFieldSpec channel = grain(K::Channel);
  channel.width = 0.5;
  channel.center = Vec3(1, 2, 0);
  const sim::StructureField c = compiled(channel);
  for (Real y : {-1.0, -0.2, 0.0, 0.3, 2.0}) {
    const Vec3 f = flow_of(sim::detail::structure_direction(c, Vec3(1.7, 2 + y, 0)));
    INFO("channel y " << y << " flow " << f.transpose());
    CHECK(f.y() / f.x() == Approx(-y / 0.5).margin(1e-12));  // towards the centre line
    CHECK(f.x() > 0);
  }
  sim::StructureFieldSpec spread = channel;
  spread.kind = K::Spread;
  const Vec3 fs = flow_of(sim::detail::structure_direction(compiled(spread), Vec3(0, 2.25, 0)));
  CHECK(fs.y() / fs.x() == Approx(0.5));
  sim::StructureFieldSpec slalom = grain(K::Slalom);
  slalom.amplitude = 0.3;
  slalom.wavelength = 1.5;
  slalom.direction = Vec3(0, 1, 0);  // along world y: plane x = world y, plane y = world −x
  const sim::StructureField s = compiled(slalom);
  for (Real t : {0.0, 0.4, 0.75, 1.1}) {
    const Vec3 g = sim::detail::structure_direction(s, Vec3(5, t, 0));
    const Real k = 2 * std::numbers::pi / 1.5;
    // flow = (1, a k cos(k t)) in the plane frame (x = world y, y = world −x).
    const Vec3 expected_flow = Vec3(0, 1, 0) + 0.3 * k * std::cos(k * t) * Vec3(-1, 0, 0);
    CHECK(std::abs(g.dot(expected_flow)) < 1e-12);
    CHECK(g.norm() > 0);
  }
  const sim::StructureField r = compiled(grain(K::Radial));
  CHECK(sim::detail::structure_direction(r, Vec3(3, 4, 7)).normalized().isApprox(Vec3(0.6, 0.8, 0)));
  CHECK(sim::detail::structure_direction(r, Vec3(0, 0, 1)).norm() == 0);  // the centre: no grain
  sim::StructureFieldSpec constant = grain(K::Constant);
  constant.direction = Vec3(0, 0, 2);  // any direction, even the normal of some contact
  CHECK(sim::detail::structure_direction(compiled(constant), Vec3(1, 1, 1)) == Vec3(0, 0, 1));
}

TEST_CASE("the grain formula compiles, evaluates and reports errors by position", "[unit][friction][anisotropic][grain]") {
  using sim::detail::compile_expression;
  using sim::detail::evaluate_expression;
  auto value = [](const char* text, Real x, Real y, Real z) {
    auto p = compile_expression(text);
    INFO(text << ": " << (p ? std::string() : p.error()));
    REQUIRE(p.ok());
    return evaluate_expression(p.value(), x, y, z);
  };
  CHECK(value("1 + 2 * 3", 0, 0, 0) == Approx(7));
  CHECK(value("-2^2", 0, 0, 0) == Approx(-4));
  CHECK(value("2^3^2", 0, 0, 0) == Approx(512));
  CHECK(value("(1 + 2) * 3 - 4 / 8", 0, 0, 0) == Approx(8.5));
  CHECK(value("atan2(y, x) + r", 3, 4, 0) == Approx(std::atan2(4.0, 3.0) + 5));
  CHECK(value("0.5*sin(2*x) + max(z, -1) - abs(-pi)", 0.3, 0, -3) == Approx(0.5 * std::sin(0.6) - 1 - std::numbers::pi));
  CHECK(value("1.5e-1*floor(x)", 2.7, 0, 0) == Approx(0.3));
  for (const char* bad : {"", "1 +", "sin 2", "foo(x)", "atan2(x)", "(x", "x y", "2 $ 3", "min(1, 2, 3)"}) {
    auto p = compile_expression(bad);
    INFO("'" << bad << "'");
    CHECK_FALSE(p.ok());
    if (!p.ok() && std::string(bad).size() > 0) CHECK(p.error().find("at ") == 0);
  }
  CHECK(compile_expression("x + foo").error() == "at 5: unknown name 'foo' (variables x y z r pi)");
}

TEST_CASE("scene <grain> elements read back from the writer exactly", "[unit][friction][anisotropic][grain][xml]") {
  sim::SceneSpec spec;
  const K kinds[] = {K::Constant, K::Channel, K::Spread, K::Slalom, K::Radial, K::Expression};
  for (K kind : kinds) {
    sim::MaterialSpec m;
    m.name = std::string("m_") + sim::to_string(kind);
    m.friction = 0.45;
    m.friction_major = 0.9;
    m.friction_minor = 0.125;
    m.structure.kind = kind;
    m.structure.direction = Vec3(0.3, -0.7, kind == K::Constant ? 0.2 : 0);
    m.structure.normal = kind == K::Constant ? Vec3::UnitZ() : Vec3(0, 0.1, 1);
    m.structure.center = kind == K::Constant ? Vec3::Zero() : Vec3(1.25, -2, 0.5);
    if (kind == K::Channel || kind == K::Spread) m.structure.width = 0.35;
    if (kind == K::Slalom) m.structure.amplitude = -0.2, m.structure.wavelength = 1.7;
    if (kind == K::Expression) m.structure.expression = "0.5*sin(2*x) + atan2(y, x)";
    spec.materials.push_back(m);
  }
  spec.materials[0].friction_minor = -1;  // left out: = friction
  test::add_body(spec, "b", Vec3(0, 0, 1), 1, test::box_shape(Vec3(0.1, 0.1, 0.1), 1));
  spec.bodies[0].structure.kind = K::Radial;
  spec.bodies[0].structure.center = Vec3(0, 0.5, 0);
  const std::string text = sim::write_scene_xml(spec);
  auto back = sim::parse_scene_xml(text, "grains.xml");
  INFO(text << (back ? std::string() : back.error()));
  REQUIRE(back.ok());
  app_test::SpecDiff d;
  d.each("materials", spec.materials, back->materials, app_test::compare_material);
  d.each("bodies", spec.bodies, back->bodies, app_test::compare_body);
  INFO(d.first);
  CHECK(d.first.empty());
  CHECK(back->materials[0].minor() == Real(0.45));
  // And it compiles (every field valid) into the same number of fields.
  const sim::Model model = test::compile(back.value());
  CHECK(model.structure_fields.size() == 7);
  CHECK(model.body_structure_field[0] == 6);
}

TEST_CASE("bad <grain> elements are errors naming the line and attribute", "[unit][friction][anisotropic][grain][xml]") {
  auto scene = [](const std::string& grain_line) {
    return sim::parse_scene_xml(std::string("<scene>\n  <material name=\"m\" friction=\"0.5\">\n    ") + grain_line +
                                    "\n  </material>\n</scene>\n",
                                "g.xml");
  };
  test::check_error(scene("<grain type=\"zigzag\"/>"), "g.xml", 3, "grain", "unknown grain type 'zigzag'");
  test::check_error(scene("<grain/>"), "g.xml", 3, "grain", "type");
  test::check_error(scene("<grain type=\"constant\" width=\"2\"/>"), "g.xml", 3, "grain", "is not used by grain type 'constant'");
  test::check_error(scene("<grain type=\"channel\" width=\"0\"/>"), "g.xml", 3, "grain", "width");
  test::check_error(scene("<grain type=\"channel\" direction=\"0 0 1\"/>"), "g.xml", 3, "grain", "must not be parallel to normal");
  test::check_error(scene("<grain type=\"constant\" direction=\"0 0 0\"/>"), "g.xml", 3, "grain", "must not be zero");
  test::check_error(scene("<grain type=\"expression\" angle=\"sin(x\"/>"), "g.xml", 3, "grain", "at 6: expected ')' closing sin");
  test::check_error(scene("<grain type=\"constant\"/><grain type=\"radial\"/>"), "g.xml", 3, "grain", "at most one <grain>");
}

TEST_CASE("a body's grain overrides its material's and turns with the body", "[unit][friction][anisotropic][grain]") {
  for (Real yaw : {0.0, 30.0, 120.0}) {
    sim::SceneSpec spec;
    const int plain = test::add_material(spec, "plain", 0.5);
    const int grained = test::add_material(spec, "grained", 0.5);
    spec.materials[grained].friction_major = 0.9;
    spec.materials[grained].friction_minor = 0.1;
    spec.materials[grained].structure.kind = K::Constant;
    spec.materials[grained].structure.direction = Vec3::UnitY();
    spec.world_shapes.push_back(test::ground_plane(plain));
    test::add_body(spec, "box", Vec3(0, 0, 0.1), 1, test::box_shape(Vec3(0.1, 0.1, 0.1), grained));
    const Real a = yaw * std::numbers::pi / 180;
    spec.bodies[0].pose.rot = sim::Quat(Eigen::AngleAxis<Real>(a, Vec3::UnitZ()));
    for (bool body_grain : {false, true}) {
      if (body_grain) {
        spec.bodies[0].structure.kind = K::Constant;
        spec.bodies[0].structure.direction = Vec3::UnitX();
      }
      const sim::Model model = test::compile(spec);
      sim::State state = sim::make_initial_state(model);
      sim::Workspace ws;
      REQUIRE(sim::step(model, state, sim::make_initial_control(model), ws).ok());
      REQUIRE(ws.contacts.size() > 0);
      // In the body frame the grain is y (material) or x (body); in the world it is turned by yaw.
      const Vec3 expected = spec.bodies[0].pose.rot * (body_grain ? Vec3::UnitX() : Vec3::UnitY());
      for (const sim::Contact& c : ws.contacts.contacts) {
        INFO("yaw " << yaw << " body grain " << body_grain << " t " << c.tangent1.transpose());
        CHECK(c.anisotropic);
        CHECK(std::abs(c.tangent1.dot(expected)) == Approx(1).margin(1e-9));
        // Pair coefficients: geometric means with the plain material (0.5 on all axes).
        CHECK(c.friction == Approx(std::sqrt(0.9 * 0.5)));
        CHECK(c.friction_bitangent == Approx(std::sqrt(0.1 * 0.5)));
        CHECK(c.grain_alignment == Approx(1));
      }
    }
  }
}
