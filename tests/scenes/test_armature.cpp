// Joint armature (JointSpec::armature, compile/body_inertia.hpp) against the closed form of a
// compound pendulum: small-amplitude period T = 2π √((I_pivot + armature) / (m g l)), measured
// from the simulated zero crossings. Bodies of our own: a box bob on an arm, its hinge axis along
// a principal axis and, second, turned 30° off them (so the armature turns the principal frame);
// the same pendulum written in MJCF, its armature (and a default class's) imported.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "sim/compile.hpp"
#include "sim/robot_import.hpp"
#include "support/parse_checks.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kG = 9.81;

struct Pendulum {
  Real mass = 2.0;                              // [kg]
  Vec3 half = Vec3(0.15, 0.05, 0.1);            // box half extents [m]
  Real length = 0.6;                            // pivot to centre of mass [m]
  Real yaw = 0;                                 // box turned about the vertical [rad]
  Real armature = 0;                            // [kg m^2]
  Real theta0 = 0.05;                           // initial swing [rad]
};

// The hinge is the world x axis through (0, 0, 2); the bob hangs below it, swung by θ0 about x.
sim::SceneSpec pendulum_scene(const Pendulum& p) {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 240;
  spec.gravity = Vec3(0, 0, -kG);
  const Vec3 pivot(0, 0, 2);
  const sim::Quat swing(Eigen::AngleAxis<Real>(p.theta0, Vec3::UnitX()));
  const sim::Quat yaw(Eigen::AngleAxis<Real>(p.yaw, Vec3::UnitZ()));
  const int bob = test::add_body(spec, "bob", pivot + swing * Vec3(0, 0, -p.length), p.mass, test::box_shape(p.half));
  spec.bodies[bob].pose.rot = swing * yaw;
  sim::JointSpec j;
  j.name = "hinge";
  j.type = sim::JointType::Revolute;
  j.body_a = -1;
  j.body_b = bob;
  j.frame_a.pos = pivot;
  j.frame_b.pos = yaw.inverse() * Vec3(0, 0, p.length);  // the pivot in the bob's frame
  j.frame_b.rot = yaw.inverse();                          // the joint frame's x is the world x at rest
  j.axis = Vec3::UnitX();
  j.armature = p.armature;
  spec.joints.push_back(j);
  return spec;
}

// Period from successive upward zero crossings of the swing angle (linear interpolation).
Real simulated_period(const sim::SceneSpec& spec) {
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  const sim::Control control = sim::make_initial_control(model);
  const Vec3 pivot(0, 0, 2);
  auto angle = [&] {
    const Vec3 x = state.body_position(0) - pivot;
    return std::atan2(x.y(), -x.z());
  };
  std::vector<Real> crossings;
  Real prev = angle();
  for (int i = 0; i < 4800 && crossings.size() < 5; ++i) {
    test::run_steps(model, state, control, ws, 1);
    const Real a = angle();
    if (prev < 0 && a >= 0) crossings.push_back(state.time - spec.dt * a / (a - prev));
    prev = a;
  }
  REQUIRE(crossings.size() >= 3);
  return (crossings.back() - crossings.front()) / static_cast<Real>(crossings.size() - 1);
}

// The closed form, with the finite-amplitude correction (1 + θ0²/16).
Real expected_period(const Pendulum& p) {
  const Vec3 e = 2 * p.half;
  // Box moments about its own axes; the hinge (world x) is at angle `yaw` from the box's x.
  const Real ix = p.mass * (e.y() * e.y() + e.z() * e.z()) / 12;
  const Real iy = p.mass * (e.x() * e.x() + e.z() * e.z()) / 12;
  const Real c = std::cos(p.yaw), s = std::sin(p.yaw);
  const Real i_axis = c * c * ix + s * s * iy;
  const Real i_pivot = i_axis + p.mass * p.length * p.length;
  return 2 * std::numbers::pi * std::sqrt((i_pivot + p.armature) / (p.mass * kG * p.length)) *
         (1 + p.theta0 * p.theta0 / 16);
}

}  // namespace

TEST_CASE("armature lengthens a pendulum's period as the closed form says", "[scene][joint][armature]") {
  for (const Real yaw : {Real(0), Real(std::numbers::pi / 6)}) {
    for (const Real armature : {Real(0), Real(0.25), Real(1.5)}) {
      Pendulum p;
      p.yaw = yaw;
      p.armature = armature;
      const Real period = simulated_period(pendulum_scene(p));
      const Real expected = expected_period(p);
      INFO("yaw " << yaw << " armature " << armature << ": period " << period << " s, closed form " << expected << " s");
      CHECK(period == Approx(expected).epsilon(0.01));
    }
  }
  // The effect is not lost in the tolerance: 1.5 kg m² nearly doubles this period.
  Pendulum plain, heavy;
  heavy.armature = 1.5;
  CHECK(expected_period(heavy) > 1.5 * expected_period(plain));
}

TEST_CASE("armature adds a a^T to the child's inertia, turning its principal frame when off-axis", "[unit][armature]") {
  Pendulum p;
  p.yaw = std::numbers::pi / 6;
  const sim::Model without = test::compile(pendulum_scene(p));
  p.armature = 0.4;
  const sim::Model with = test::compile(pendulum_scene(p));
  // The world inertia about the hinge axis (x) grows by the armature exactly (up to round-off).
  auto world_inertia = [](const sim::Model& m) {
    const sim::Mat3 r = m.body_initial_pose[0].rot.toRotationMatrix();
    return sim::Mat3(r * m.body_inertia[0].asDiagonal() * r.transpose());
  };
  const sim::Mat3 added = world_inertia(with) - world_inertia(without);
  const sim::Quat swing(Eigen::AngleAxis<Real>(p.theta0, Vec3::UnitX()));
  const Vec3 a = swing * Vec3::UnitX();
  CHECK((added - Real(0.4) * a * a.transpose()).norm() < 1e-12);
  // The principal frame turned (the axis is 30° off the box's axes), the authored frame did not.
  CHECK_FALSE(with.body_frame_in_com[0].rot.isApprox(without.body_frame_in_com[0].rot, 1e-6));
  const sim::Pose frame_with = with.body_initial_pose[0] * with.body_frame_in_com[0];
  const sim::Pose frame_without = without.body_initial_pose[0] * without.body_frame_in_com[0];
  CHECK((frame_with.pos - frame_without.pos).norm() < 1e-12);
  CHECK(frame_with.rot.angularDistance(frame_without.rot) < 1e-12);
}

TEST_CASE("armature on prismatic and fixed joints is refused with file and line", "[unit][armature]") {
  const std::string xml = test::xml_lines({
      "<scene>",                                                              // 1
      "  <body name=\"slider\" pos=\"0 0 1\"><box half_extents=\"0.1 0.1 0.1\"/></body>",  // 2
      "  <joint name=\"rail\" type=\"prismatic\" child=\"slider\" axis=\"1 0 0\" armature=\"0.2\"/>",  // 3
      "</scene>",
  });
  const sim::SceneSpec spec = test::parse_scene_ok(xml, "slider.xml");
  CHECK(spec.joints[0].armature == Real(0.2));
  test::check_error(sim::compile_model(spec), "slider.xml", 3, "",
                    {"<joint> 'rail'", "armature is supported on revolute and ball"});
  // A negative armature is refused by the reader, at the attribute's line, from the table's range.
  const std::string negative = test::xml_lines({
      "<scene>",
      "  <body name=\"bob\" pos=\"0 0 1\"><box half_extents=\"0.1 0.1 0.1\"/></body>",
      "  <joint name=\"hinge\" type=\"revolute\" child=\"bob\"",
      "         armature=\"-0.5\"/>",
      "</scene>",
  });
  test::check_error(sim::parse_scene_xml(negative, "neg.xml"), "neg.xml", 4, "joint", "armature");
}

namespace {

// The pendulum in MJCF: a body at the pivot (0, 0, 2) turned by θ0 about x, its hinge there along
// x, its centre of mass `length` below with the box's moments. `joint_armature` is written on the
// joint, `class_armature` in a default class the joint uses ("" leaves either out).
std::string pendulum_mjcf(const Pendulum& p, const std::string& joint_armature, const std::string& class_armature) {
  const Vec3 e = 2 * p.half;
  const Real ix = p.mass * (e.y() * e.y() + e.z() * e.z()) / 12, iy = p.mass * (e.x() * e.x() + e.z() * e.z()) / 12,
             iz = p.mass * (e.x() * e.x() + e.y() * e.y()) / 12;
  auto num = [](Real x) {
    std::ostringstream s;
    s.precision(17);
    s << x;
    return s.str();
  };
  std::string xml;
  for (const std::string& line : {
           std::string("<mujoco>"),
           std::string("  <compiler angle='radian'/>"),
           "  <option timestep='" + num(Real(1) / 240) + "' gravity='0 0 " + num(-kG) + "'/>",
           "  <default><default class='rotor'><joint " +
               (class_armature.empty() ? "" : "armature='" + class_armature + "'") + "/></default></default>",
           std::string("  <worldbody>"),
           "    <body name='bob' pos='0 0 2' axisangle='1 0 0 " + num(p.theta0) + "'>",
           "      <joint name='hinge' class='rotor' type='hinge' axis='1 0 0'" +
               (joint_armature.empty() ? "" : " armature='" + joint_armature + "'") + "/>",
           "      <inertial pos='0 0 " + num(-p.length) + "' mass='" + num(p.mass) + "' diaginertia='" + num(ix) +
               " " + num(iy) + " " + num(iz) + "'/>",
           std::string("    </body>"),
           std::string("  </worldbody>"),
           std::string("</mujoco>"),
       })
    xml += line + "\n";
  return xml;
}

}  // namespace

TEST_CASE("MJCF armature (on the joint or from its default class) matches the pendulum's closed form",
          "[scene][joint][armature][import]") {
  struct Case {
    std::string on_joint, in_class;
    Real armature;
  };
  for (const Case& c : {Case{"", "", 0}, Case{"0.25", "", 0.25}, Case{"", "1.5", 1.5}, Case{"0.4", "1.5", 0.4}}) {
    Pendulum p;
    p.armature = c.armature;
    auto imported = sim::parse_mjcf(pendulum_mjcf(p, c.on_joint, c.in_class), "pendulum.xml");
    INFO((imported.ok() ? std::string("ok") : imported.error()));
    REQUIRE(imported.ok());
    CHECK(imported->warnings.empty());  // nothing ignored
    REQUIRE(imported->scene.joints.size() == 1);
    CHECK(imported->scene.joints[0].armature == Real(c.armature));
    const Real period = simulated_period(imported->scene);
    const Real expected = expected_period(p);
    INFO("armature " << c.armature << ": period " << period << " s, closed form " << expected << " s");
    CHECK(period == Approx(expected).epsilon(0.005));
  }
}

TEST_CASE("MJCF armature on a slide joint is reported with file and line, not dropped silently",
          "[unit][armature][import]") {
  auto imported = sim::parse_mjcf(test::xml_lines({
                                      "<mujoco><worldbody>",
                                      "  <body name='slider' pos='0 0 1'>",
                                      "    <joint type='slide' axis='1 0 0' armature='0.2'/>",
                                      "    <geom type='box' size='0.1 0.1 0.1'/>",
                                      "  </body>",
                                      "</worldbody></mujoco>",
                                  }),
                                  "slide.xml");
  REQUIRE(imported.ok());
  REQUIRE(imported->warnings.size() == 1);
  CHECK(imported->warnings[0].find("slide.xml:3") != std::string::npos);
  CHECK(imported->warnings[0].find("armature on a slide joint is not simulated") != std::string::npos);
  REQUIRE(imported->scene.joints.size() == 1);
  CHECK(imported->scene.joints[0].armature == 0);
  CHECK(sim::compile_model(imported->scene).ok());  // the refused value did not reach the spec
}
