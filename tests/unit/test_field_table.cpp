// The field table (sim/spec_fields.hpp): every entry's default is the Spec's, compile copies every
// field into its Model array, the scene writer and reader round-trip every field exactly, and the
// reader refuses a value outside an entry's range at the attribute's file and line, for every
// entry (the loops run over the table, so a new field is covered by adding it).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "app/spec_equal.hpp"
#include "sim/compile.hpp"
#include "sim/field_table.hpp"
#include "sim/scene_io.hpp"
#include "support/parse_checks.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

template <class Spec>
void check_table(const char* owner) {
  std::set<std::string_view> names;
  const Spec defaults{};
  for (const sim::Field<Spec>& f : sim::fields_of<Spec>()) {
    INFO(owner << "." << f.name);
    CHECK(names.insert(f.name).second);            // unique
    CHECK(defaults.*f.spec == f.default_value);    // the Spec's default is the table's
    CHECK(f.accepts(f.default_value));
    CHECK_FALSE(f.doc.empty());
    CHECK(f.step > 0);
    if (f.has_unset()) {                           // the unset value is outside the range proper
      sim::Field<Spec> without = f;
      without.unset = sim::kNoUnset;
      CHECK_FALSE(without.accepts(f.unset));
    }
    CHECK_FALSE(f.accepts(std::numeric_limits<Real>::quiet_NaN()));
    CHECK_FALSE(f.accepts(std::numeric_limits<Real>::infinity()));
  }
}

// A value of field `f` other than its default, in range: distinct per field (`k`).
template <class Spec>
Real test_value(const sim::Field<Spec>& f, int k) {
  return f.default_value > 0 ? f.default_value + Real(0.125) * (k + 1) : Real(0.375) + Real(0.25) * k;
}

// A hinge pendulum, a material and a particle with every table field set to a test value.
sim::SceneSpec every_field_scene() {
  sim::SceneSpec spec;
  spec.name = "fields";
  const int rubber = test::add_material(spec, "rubber", 0.5);
  const int bob = test::add_body(spec, "bob", Vec3(0, 0, 1), 1.0, test::box_shape(Vec3(0.1, 0.1, 0.1), rubber));
  sim::JointSpec j;
  j.name = "hinge";
  j.type = sim::JointType::Revolute;
  j.body_b = bob;
  j.frame_a.pos = Vec3(0, 0, 1.5);
  j.frame_b.pos = Vec3(0, 0, 0.5);
  j.axis = Vec3::UnitY();
  j.drive = sim::DriveMode::Position;
  spec.joints.push_back(j);
  sim::ParticleSpec p;
  p.position = Vec3(2, 0, 1);
  p.material = rubber;
  spec.particles.push_back(p);
  int k = 0;
  for (const auto& f : sim::kJointFields) spec.joints[0].*f.spec = test_value(f, k++);
  for (const auto& f : sim::kBodyFields) spec.bodies[0].*f.spec = test_value(f, k++);
  for (const auto& f : sim::kMaterialFields) spec.materials[0].*f.spec = test_value(f, k++);
  for (const auto& f : sim::kParticleFields) spec.particles[0].*f.spec = test_value(f, k++);
  return spec;
}

// The scene of one element line `line` (line 3 of the document) for the range test.
std::string range_document(const std::string& line) {
  return test::xml_lines({"<scene>", "  <material name=\"m\"/>", line.c_str(), "</scene>"});
}

}  // namespace

TEST_CASE("the field table's entries agree with the Spec types", "[unit][fields]") {
  check_table<sim::JointSpec>("joint");
  check_table<sim::BodySpec>("body");
  check_table<sim::MaterialSpec>("material");
  check_table<sim::ParticleSpec>("particle");
  CHECK(sim::find_field<sim::JointSpec>("armature") != nullptr);
  CHECK(sim::find_field<sim::JointSpec>("armature")->model == &sim::Model::joint_armature);
  CHECK(sim::find_field<sim::JointSpec>("no_such_field") == nullptr);
}

TEST_CASE("compile copies every table field into its Model array", "[unit][fields]") {
  const sim::SceneSpec spec = every_field_scene();
  const sim::Model m = test::compile(spec);
  auto check_copied = [](const auto& table, const auto& owner, const sim::Model& model) {
    for (const auto& f : table) {
      if (!f.model) continue;
      INFO(f.name);
      REQUIRE((model.*f.model).size() >= 1);
      CHECK((model.*f.model)[0] == owner.*f.spec);
    }
  };
  check_copied(sim::kJointFields, spec.joints[0], m);
  check_copied(sim::kMaterialFields, spec.materials[0], m);
  check_copied(sim::kParticleFields, spec.particles[0], m);
  // The derived ones: 1/m of the body and the particle.
  CHECK(m.body_inv_mass[0] == Approx(1 / spec.bodies[0].mass).epsilon(1e-15));
  CHECK(m.particle_inv_mass[0] == Approx(1 / spec.particles[0].mass).epsilon(1e-15));
}

TEST_CASE("the scene writer and reader round-trip every table field", "[unit][fields]") {
  const sim::SceneSpec spec = every_field_scene();
  const std::string xml = sim::write_scene_xml(spec);
  const sim::SceneSpec back = test::parse_scene_ok(xml, "fields.xml");
  CHECK(app_test::spec_difference(spec, back) == "");
  for (const auto& f : sim::kJointFields) {
    INFO(f.name);
    CHECK(xml.find(" " + std::string(f.name) + "=\"") != std::string::npos);  // written, not defaulted
    CHECK(back.joints[0].*f.spec == spec.joints[0].*f.spec);
  }
  // The unset values read back too: max_force -1 is written as "unlimited" in a drive override.
  sim::SceneSpec unlimited = spec;
  unlimited.joints[0].max_force = -1;
  CHECK(app_test::spec_difference(unlimited, test::parse_scene_ok(sim::write_scene_xml(unlimited), "u.xml")) == "");
}

TEST_CASE("a table field outside its range is refused at its file and line", "[unit][fields]") {
  const std::string bad = "=\"-1.5\"";
  auto check_owner = [&](const auto& table, auto line_for) {
    for (const auto& f : table) {
      if (f.range == sim::FieldRange::Any) continue;
      INFO(f.name);
      const std::string doc = range_document(line_for(f));
      auto parsed = sim::parse_scene_xml(doc, "range.xml");
      const std::string element = f.element == "drive" ? "drive" : std::string(f.element);
      test::check_error(parsed, "range.xml", 3, element, {std::string(f.name), "must be"});
    }
  };
  check_owner(sim::kJointFields, [&](const sim::Field<sim::JointSpec>& f) {
    const std::string attr = " " + std::string(f.name) + bad;
    if (f.element == "drive")
      return "<body name=\"b\" mass=\"1\"/><joint type=\"revolute\" child=\"b\"><drive mode=\"none\"" + attr + "/></joint>";
    return "<body name=\"b\" mass=\"1\"/><joint type=\"revolute\" child=\"b\"" + attr + "/>";
  });
  check_owner(sim::kBodyFields, [&](const sim::Field<sim::BodySpec>& f) {
    return "<body name=\"b\" " + std::string(f.name) + bad + "><sphere radius=\"0.1\"/></body>";
  });
  check_owner(sim::kMaterialFields, [&](const sim::Field<sim::MaterialSpec>& f) {
    return "<material name=\"n\" " + std::string(f.name) + bad + "/>";
  });
  check_owner(sim::kParticleFields, [&](const sim::Field<sim::ParticleSpec>& f) {
    return "<particle pos=\"0 0 1\" " + std::string(f.name) + bad + "/>";
  });
}

TEST_CASE("compile refuses a table field outside its range set in code", "[unit][fields]") {
  for (const auto& f : sim::kJointFields) {
    if (f.range == sim::FieldRange::Any) continue;
    INFO(f.name);
    sim::SceneSpec spec = every_field_scene();
    spec.joints[0].source = {"code.xml", 7};
    spec.joints[0].*f.spec = Real(-2.5);
    auto compiled = sim::compile_model(spec);
    test::check_error(compiled, "code.xml", 7, "", {"<joint> 'hinge'", std::string(f.name), "must be"});
  }
}
