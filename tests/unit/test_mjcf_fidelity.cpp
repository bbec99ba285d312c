// MJCF import fidelity (sim/src/io/mjcf_import.cpp, robot_scene.cpp) on small models written
// here: degrees of freedom equal to MuJoCo's nv (several joints in one body become a chain of
// joints, free joints free bodies, ball joints 3 dofs), free fall of a free body against
// g t²/2, <option timestep gravity> taken when the model is opened, <include> (nested, relative
// to the model's folder, missing file, cycles, FIFOs, files outside the folder), default classes
// from an included file, contype/conaffinity and <exclude> filtering contacts, and the import
// simplifications listed with file:line (URDF mimic and transmissions among them).
#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>

#include "sim/compile.hpp"
#include "sim/robot_import.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/parse_checks.hpp"
#include "support/scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using sim::Real;
using sim::Vec3;
using test::xml_lines;

// The velocity degrees of freedom left by the joints (what MuJoCo reports as nv): 6 per moving
// body less the rows each joint removes (hinge and slide 5, ball 3, weld 6). The import makes a
// tree, so the rows are independent.
int dof_count(const sim::Model& m) {
  int dofs = 0;
  for (int b = 0; b < m.body_count; ++b) dofs += m.body_is_dynamic(b) ? 6 : 0;
  for (int j = 0; j < m.joint_count; ++j) {
    const sim::JointType t = m.joint_type[static_cast<std::size_t>(j)];
    dofs -= t == sim::JointType::Fixed ? 6 : t == sim::JointType::Ball ? 3 : 5;
  }
  return dofs;
}

// Writes `xml` as <scratch>/model.xml and opens it the way `coulomb run model.xml` does.
struct Opened {
  fs::path dir;
  sim::SceneSpec spec;
  sim::Model model;
};
Opened open_model(const std::string& name, const std::string& xml) {
  Opened o;
  o.dir = test::scratch_dir("mjcf_" + name);
  test::write_file(o.dir / "model.xml", xml);
  auto spec = sim::load_description((o.dir / "model.xml").string());
  INFO((spec.ok() ? std::string("ok") : spec.error()));
  REQUIRE(spec.ok());
  o.spec = std::move(spec.value());
  auto model = sim::compile_model(o.spec);
  INFO((model.ok() ? std::string("ok") : model.error()));
  REQUIRE(model.ok());
  o.model = std::move(model.value());
  return o;
}

int body_index(const sim::Model& m, const std::string& name) {
  const auto it = std::find(m.body_name.begin(), m.body_name.end(), name);
  REQUIRE(it != m.body_name.end());
  return static_cast<int>(it - m.body_name.begin());
}

bool has_warning(const std::vector<std::string>& warnings, const std::string& prefix, const std::string& fragment) {
  for (const std::string& w : warnings)
    if (w.rfind(prefix, 0) == 0 && w.find(fragment) != std::string::npos) return true;
  return false;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

}  // namespace

TEST_CASE("MJCF: dof counts equal MuJoCo's for joint chains in one body, slide and hinge, free and ball", "[unit][import][mjcf]") {
  struct Case {
    const char* name;
    std::string body;   // the bodies inside <worldbody>
    int mujoco_nv;      // MuJoCo: hinge/slide 1, ball 3, free 6
    int joints;         // <joint>/<freejoint> elements
  };
  const std::vector<Case> cases = {
      {"three_hinges",  // a hip: three hinges about one point, then a knee
       "<body name='thigh' pos='0 0 1'><joint name='hx' axis='1 0 0'/><joint name='hz' axis='0 0 1'/>"
       "<joint name='hy' axis='0 1 0' range='-90 20'/><geom type='capsule' fromto='0 0 0 0 0 -0.4' size='0.05'/>"
       "<body name='shin' pos='0 0 -0.4'><joint name='knee' axis='0 1 0' range='-150 0'/>"
       "<geom type='capsule' fromto='0 0 0 0 0 -0.4' size='0.04'/></body></body>",
       4, 4},
      {"slide_hinge",  // a cart-pole in one body: slide along x, then a hinge about y
       "<body name='pole' pos='0 0 1'><joint name='cart' type='slide' axis='1 0 0'/>"
       "<joint name='swing' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 0.6' size='0.03'/></body>",
       2, 2},
      {"free", "<body name='ball' pos='0 0 1'><freejoint/><geom size='0.1'/></body>", 6, 1},
      {"ball", "<body name='bob' pos='0 0 1'><joint type='ball'/><geom size='0.1' pos='0 0 -0.5'/></body>", 3, 1},
      {"free_tree",  // a free torso, a ball shoulder, an elbow with two hinges in one body
       "<body name='torso' pos='0 0 1'><freejoint name='root'/><geom type='box' size='0.1 0.1 0.2'/>"
       "<body name='arm' pos='0.15 0 0.1'><joint name='shoulder' type='ball'/>"
       "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/>"
       "<body name='forearm' pos='0.3 0 0'><joint name='e1' axis='0 1 0'/><joint name='e2' axis='1 0 0'/>"
       "<geom type='capsule' fromto='0 0 0 0.25 0 0' size='0.03'/></body></body></body>",
       11, 4},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const std::string xml = "<mujoco><worldbody><geom type='plane' size='5 5 0.1'/>" + c.body + "</worldbody></mujoco>";
    const Opened o = open_model(c.name, xml);
    CHECK(dof_count(o.model) == c.mujoco_nv);
    REQUIRE(o.spec.robots.size() == 1);
    INFO(joined(o.spec.robots[0].warnings));
    CHECK(o.spec.robots[0].warnings.empty());  // nothing was dropped
    auto imported = sim::import_mjcf((o.dir / "model.xml").string());
    REQUIRE(imported.ok());
    CHECK(static_cast<int>(imported->joints.size()) == c.joints);
    for (const sim::RobotJoint& j : imported->joints)
      if (j.kind != sim::RobotJointKind::Floating) CHECK(j.joint >= 0);  // every joint simulated
  }
}

TEST_CASE("MJCF: joints of one body act in sequence, and each is driven by its actuator", "[unit][import][mjcf]") {
  // Slide along x then hinge about z at the body origin: turning the hinge must not move the
  // slide's axis (the slide is nearer the parent), and both position actuators become drives.
  const Opened o = open_model("sequence", xml_lines({
      "<mujoco>",
      "  <option gravity='0 0 0' timestep='0.005'/>",
      "  <worldbody>",
      "    <body name='carriage' pos='0 0 1'>",
      "      <joint name='rail' type='slide' axis='1 0 0'/>",
      "      <joint name='turn' axis='0 0 1'/>",
      "      <geom type='box' size='0.2 0.05 0.05' mass='1'/>",
      "    </body>",
      "  </worldbody>",
      "  <actuator>",
      "    <position joint='rail' kp='400' kv='40'/>",
      "    <position joint='turn' kp='20' kv='2' gear='2'/>",
      "  </actuator>",
      "</mujoco>",
  }));
  const sim::Model& m = o.model;
  REQUIRE(m.joint_count == 2);
  CHECK(m.joint_stiffness[0] == Approx(400));
  CHECK(m.joint_stiffness[1] == Approx(80));  // gear² kp
  sim::State state = sim::make_initial_state(m);
  sim::Control control = sim::make_initial_control(m);
  control.joint_target[0] = Real(0.3);
  control.joint_target[1] = Real(std::numbers::pi / 2);
  sim::Workspace ws;
  for (int i = 0; i < 600; ++i) REQUIRE(sim::step(m, state, control, ws).ok());
  const int body = body_index(m, "carriage");
  const sim::Pose frame = state.body_pose(body) * m.body_frame_in_com[static_cast<std::size_t>(body)];
  const Vec3 p = frame.pos;
  const Vec3 long_axis = frame.rot * Vec3::UnitX();
  INFO("position " << p.transpose() << ", long axis " << long_axis.transpose());
  CHECK(p.x() == Approx(0.3).margin(0.005));   // slid 0.3 m along the world x axis...
  CHECK(std::abs(p.y()) < 0.005);
  CHECK(std::abs(long_axis.x()) < 0.02);       // ...and turned a quarter turn about z
  CHECK(std::abs(std::abs(long_axis.y()) - 1) < 0.02);
}

TEST_CASE("MJCF: a free body falls freely with the file's timestep and gravity", "[unit][import][mjcf]") {
  // Its own floor far below, so opening the model keeps its placement.
  const Opened o = open_model("free_fall", xml_lines({
      "<mujoco>",
      "  <option timestep='0.002' gravity='0 0 -5'/>",
      "  <worldbody>",
      "    <geom type='plane' pos='0 0 -100' size='10 10 0.1'/>",
      "    <body name='ball' pos='0 0 2'>",
      "      <freejoint/>",
      "      <geom size='0.1'/>",
      "    </body>",
      "  </worldbody>",
      "</mujoco>",
  }));
  const sim::Model& m = o.model;
  CHECK(m.dt == Approx(0.002));
  CHECK(m.gravity.z() == Approx(-5));
  const int ball = body_index(m, "ball");
  CHECK(m.body_is_dynamic(ball));  // not pinned in the air
  sim::State state = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  const int steps = 250;
  for (int i = 0; i < steps; ++i) REQUIRE(sim::step(m, state, control, ws).ok());
  const Real t = steps * m.dt, g = 5;
  // Implicit Euler: z_n = z_0 - g dt² n (n + 1) / 2 = z_0 - g (t² + t dt) / 2, within g t dt / 2
  // of the exact g t² / 2; the damped Newton iterations (a fixed count, SolverOptions::damping)
  // leave a relative velocity residual below 1e-3 that adds at most as much again.
  const Real exact = 2 - g * t * t / 2;
  const Vec3 p = state.body_position(ball);
  INFO("z " << p.z() << " exact " << exact << " velocity " << state.body_velocity(ball).z());
  CHECK(std::abs(p.z() - exact) <= g * t * m.dt / 2 + Real(1e-3) * g * t * t / 2);
  CHECK(p.z() < exact);  // implicit Euler falls ahead of the exact curve
  CHECK(std::abs(p.x()) < 1e-12);
  CHECK(state.body_velocity(ball).z() == Approx(-g * t).epsilon(1e-3));

  // The same model in a scene: the scene's dt and gravity win; fixed_base="true" pins the free body.
  test::write_file(o.dir / "scene.xml",
                   "<scene dt='0.01'>\n  <robot file='model.xml' fixed_base='true'/>\n</scene>\n");
  auto pinned = sim::load_scene_file((o.dir / "scene.xml").string());
  REQUIRE(pinned.ok());
  CHECK(pinned->dt == Approx(0.01));
  CHECK(pinned->gravity.z() == Approx(-9.81));
  CHECK(pinned->bodies[static_cast<std::size_t>(pinned->robots[0].first_body)].fixed);
}

TEST_CASE("MJCF: <include> nests, resolves from the model's folder and refuses bad files", "[unit][import][mjcf]") {
  const fs::path dir = test::scratch_dir("mjcf_include");
  // Default classes and assets from one file, bodies from another that includes a third.
  test::write_file(dir / "parts" / "defaults.xml", xml_lines({
      "<mujoco>",
      "  <default>",
      "    <default class='heavy'>",
      "      <geom density='5000' friction='0.3'/>",
      "      <default class='heavier'><geom density='8000'/></default>",
      "    </default>",
      "  </default>",
      "</mujoco>",
  }));
  test::write_file(dir / "parts" / "arm.xml", xml_lines({
      "<mujoco>",
      "  <body name='link' pos='0 0 1'>",
      "    <joint name='hinge' axis='0 1 0'/>",
      "    <geom class='heavier' size='0.1'/>",
      "    <include file='parts/tip.xml'/>",  // relative to the main model's folder, as MuJoCo
      "  </body>",
      "</mujoco>",
  }));
  test::write_file(dir / "parts" / "tip.xml", "<mujoco>\n  <geom class='heavy' size='0.05' pos='0.2 0 0'/>\n</mujoco>\n");
  test::write_file(dir / "main.xml", xml_lines({
      "<mujoco model='included'>",
      "  <include file='parts/defaults.xml'/>",
      "  <worldbody>",
      "    <include file='parts/arm.xml'/>",
      "  </worldbody>",
      "</mujoco>",
  }));
  auto r = sim::import_mjcf((dir / "main.xml").string());
  INFO((r.ok() ? joined(r->warnings) : r.error()));
  REQUIRE(r.ok());
  CHECK(r->warnings.empty());
  REQUIRE(r->scene.bodies.size() == 1);
  REQUIRE(r->scene.joints.size() == 1);
  const sim::BodySpec& link = r->scene.bodies[0];
  REQUIRE(link.shapes.size() == 2);
  // Inheritance: 'heavier' takes density from itself and friction from its parent 'heavy'.
  const Real v1 = Real(4.0 / 3 * std::numbers::pi * 0.001), v2 = Real(4.0 / 3 * std::numbers::pi * 0.000125);
  CHECK(link.mass == Approx(8000 * v1 + 5000 * v2).epsilon(1e-9));
  for (const sim::ShapeSpec& s : link.shapes) CHECK(r->scene.materials[static_cast<std::size_t>(s.material)].friction == Approx(0.3));

  // A missing file: the error names the including file, its line and the element.
  test::write_file(dir / "missing.xml", "<mujoco>\n  <worldbody>\n    <include file='nope.xml'/>\n  </worldbody>\n</mujoco>\n");
  test::check_error(sim::import_mjcf((dir / "missing.xml").string()), (dir / "missing.xml").string(), 3, "include",
                    {"nope.xml", "no such file"});
  // A cycle: a.xml -> b.xml -> a.xml, refused where it closes.
  test::write_file(dir / "a.xml", "<mujoco>\n  <include file='b.xml'/>\n</mujoco>\n");
  test::write_file(dir / "b.xml", "<mujoco>\n\n  <include file='a.xml'/>\n</mujoco>\n");
  test::check_error(sim::import_mjcf((dir / "a.xml").string()), (dir / "b.xml").string(), 3, "include",
                    {"include cycle", "a.xml -> b.xml -> a.xml"});
  // Outside the model's folder (and a device): refused before anything is read.
  test::write_file(dir / "outside.xml", "<mujoco>\n  <include file='../x.xml'/>\n</mujoco>\n");
  test::check_error(sim::import_mjcf((dir / "outside.xml").string()), (dir / "outside.xml").string(), 2, "include",
                    {"outside the model's folder"});
  test::write_file(dir / "zero.xml", "<mujoco>\n  <include file='/dev/zero'/>\n</mujoco>\n");
  test::check_error(sim::import_mjcf((dir / "zero.xml").string()), (dir / "zero.xml").string(), 2, "include",
                    {"refused"});
  // A FIFO inside the folder: refused without opening it (open() would block).
  REQUIRE(::mkfifo((dir / "fifo.xml").c_str(), 0600) == 0);
  test::write_file(dir / "fifo_main.xml", "<mujoco>\n  <include file='fifo.xml'/>\n</mujoco>\n");
  test::check_error(sim::import_mjcf((dir / "fifo_main.xml").string()), (dir / "fifo_main.xml").string(), 2,
                    "include", {"not a regular file"});
}

TEST_CASE("scene <include> of a FIFO or /dev/zero is refused at once (shared bad inputs)", "[unit][import][mjcf]") {
  const fs::path bad = fs::path(COULOMB_SHARED_DIR) / "bad-inputs";
  if (!fs::exists(bad / "include_fifo.xml")) {
    WARN("skipped: " << bad.string() << " is absent");
    return;
  }
  auto zero = sim::load_scene_file((bad / "include_dev_zero.xml").string());
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error().find("not a regular file") != std::string::npos);
  const fs::path dir = test::scratch_dir("scene_include_fifo");
  fs::copy_file(bad / "include_fifo.xml", dir / "include_fifo.xml");
  REQUIRE(::mkfifo((dir / "fifo.xml").c_str(), 0600) == 0);
  auto fifo = sim::load_scene_file((dir / "include_fifo.xml").string());
  REQUIRE_FALSE(fifo.ok());
  CHECK(fifo.error().find("include_fifo.xml:2: <include>") != std::string::npos);
  CHECK(fifo.error().find("not a regular file") != std::string::npos);
}

TEST_CASE("MJCF: contype/conaffinity and <exclude> filter contacts as in MuJoCo", "[unit][import][mjcf]") {
  // Sphere 'upper' dropped onto sphere 'lower' resting on the floor. MuJoCo's rule: a pair
  // collides when (contype1 & conaffinity2) | (contype2 & conaffinity1) != 0.
  const auto drop = [](const std::string& name, const std::string& floor_bits, const std::string& upper_bits,
                       const std::string& contact) {
    const Opened o = open_model(name, "<mujoco><option timestep='0.005'/><worldbody>"
                                      "<geom type='plane' size='5 5 0.1' " + floor_bits + "/>"
                                      "<body name='lower' pos='0 0 0.1'><freejoint/><geom size='0.1' mass='1'/></body>"
                                      "<body name='upper' pos='0 0 0.35'><freejoint/><geom size='0.1' mass='1' " +
                                          upper_bits + "/></body></worldbody>" + contact + "</mujoco>");
    sim::State state = sim::make_initial_state(o.model);
    const sim::Control control = sim::make_initial_control(o.model);
    sim::Workspace ws;
    for (int i = 0; i < 300; ++i) REQUIRE(sim::step(o.model, state, control, ws).ok());
    return state.body_position(body_index(o.model, "upper")).z();
  };
  // Default bits: it rests on the lower sphere (centre at 3 radii).
  CHECK(drop("bits_default", "", "", "") == Approx(0.3).margin(0.01));
  // Bits 2/2 against 1/1: passes through the lower sphere, still stopped by a 3/3 floor.
  CHECK(drop("bits_filtered", "contype='3' conaffinity='3'", "contype='2' conaffinity='2'", "") ==
        Approx(0.1).margin(0.01));
  // <exclude>: the same with default bits.
  CHECK(drop("exclude", "", "", "<contact><exclude body1='upper' body2='lower'/></contact>") ==
        Approx(0.1).margin(0.01));
}

TEST_CASE("MJCF: parent and child bodies do not collide, as MuJoCo's default", "[unit][import][mjcf]") {
  const Opened o = open_model("parent_filter", xml_lines({
      "<mujoco><worldbody>",
      "  <body name='base' pos='0 0 1'><geom type='box' size='0.1 0.1 0.1'/>",
      "    <body name='a'><freejoint/><geom size='0.1'/>",
      "      <body name='b'><joint axis='1 0 0'/><joint axis='0 1 0'/><geom size='0.1'/></body>",
      "    </body>",
      "  </body>",
      "</worldbody></mujoco>",
  }));
  const sim::RobotIncludeSpec& r = o.spec.robots.at(0);
  const int base = body_index(o.model, "base") - r.first_body, a = body_index(o.model, "a") - r.first_body,
            b = body_index(o.model, "b") - r.first_body;
  const auto listed = [&](int x, int y) {
    const std::array<int, 2> p{std::min(x, y), std::max(x, y)};
    return std::find(r.no_collision_pairs.begin(), r.no_collision_pairs.end(), p) != r.no_collision_pairs.end();
  };
  CHECK(listed(a, b));         // through the chain frame of b's two hinges
  CHECK_FALSE(listed(base, a));  // the base is welded to the world: MuJoCo does not filter that pair
}

TEST_CASE("MJCF and URDF: each simplification is listed with file and line", "[unit][import][mjcf]") {
  auto mjcf = sim::parse_mjcf(xml_lines({
      "<mujoco>",                                                                        // 1
      "  <worldbody>",                                                                   // 2
      "    <body name='a'><joint name='j' range='-30 30'/><geom size='0.1'/></body>",     // 3
      "  </worldbody>",                                                                  // 4
      "  <contact><pair geom1='x' geom2='y'/></contact>",                                 // 5
      "  <actuator>",                                                                    // 6
      "    <position name='p' joint='j' kp='10' ctrlrange='-0.1 0.1'/>",                  // 7
      "  </actuator>",                                                                   // 8
      "</mujoco>",                                                                       // 9
  }), "m.xml");
  REQUIRE(mjcf.ok());
  INFO(joined(mjcf->warnings));
  CHECK(has_warning(mjcf->warnings, "m.xml:5: <pair>: ", "explicit contact pairs are not supported"));
  // ctrlrange is enforced now (tests/unit/test_control_range.cpp), no longer a simplification.
  CHECK_FALSE(has_warning(mjcf->warnings, "m.xml:7: <position>: ", "ctrlrange"));
  REQUIRE(mjcf->scene.joints.size() == 1);
  CHECK(mjcf->scene.joints[0].target_limited);
  CHECK(mjcf->scene.joints[0].target_lower == Approx(-0.1));
  CHECK(mjcf->scene.joints[0].target_upper == Approx(0.1));

  auto urdf = sim::parse_urdf(xml_lines({
      "<robot name='r'>",                                                                        // 1
      "  <link name='base'/><link name='f1'/><link name='f2'/>",                                 // 2
      "  <joint name='j1' type='prismatic'><parent link='base'/><child link='f1'/>",             // 3
      "    <limit lower='0' upper='0.04' effort='10' velocity='1'/></joint>",                    // 4
      "  <joint name='j2' type='prismatic'><parent link='base'/><child link='f2'/>",             // 5
      "    <limit lower='0' upper='0.04' effort='10' velocity='1'/>",                            // 6
      "    <mimic joint='j1' multiplier='-1' offset='0.01'/></joint>",                           // 7
      "  <transmission name='t'><type>SimpleTransmission</type></transmission>",                 // 8
      "</robot>",                                                                                // 9
  }), "r.urdf");
  REQUIRE(urdf.ok());
  INFO(joined(urdf->warnings));
  CHECK(has_warning(urdf->warnings, "r.urdf:7: <mimic>: ", "joint 'j2' = -1 x 'j1' + 0.01 is not enforced"));
  CHECK(has_warning(urdf->warnings, "r.urdf:8: <transmission>: ", "transmissions are ignored"));
}

TEST_CASE("URDF opened with a free base: the root link is a free body", "[unit][import][mjcf]") {
  const fs::path dir = test::scratch_dir("urdf_free_base");
  test::write_file(dir / "r.urdf", xml_lines({
      "<robot name='r'>",
      "  <link name='base'><inertial><mass value='2'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>",
      "    <collision><geometry><box size='0.2 0.2 0.2'/></geometry></collision></link>",
      "</robot>",
  }));
  auto fixed = sim::load_description((dir / "r.urdf").string());
  REQUIRE(fixed.ok());
  CHECK(fixed->bodies.at(0).fixed);
  sim::DescriptionOptions options;
  options.urdf_free_base = true;
  auto free = sim::load_description((dir / "r.urdf").string(), options);
  REQUIRE(free.ok());
  CHECK_FALSE(free->bodies.at(0).fixed);
}

TEST_CASE("MJCF: a pendulum on two hinges of one body swings with the closed-form period about each", "[unit][import][mjcf]") {
  // Bob of radius r at L below the pivot, hinges x then y at the pivot (a universal joint).
  // Small oscillations: T = 2 pi sqrt((L² + 2 r² / 5) / (g L)) about either axis; the chain's frame
  // body carries 1% of the mass and inertia at the same centre, which leaves T unchanged.
  const fs::path dir = test::scratch_dir("mjcf_pendulum");
  test::write_file(dir / "pendulum.xml", xml_lines({
      "<mujoco>",
      "  <option timestep='0.001'/>",
      "  <worldbody>",
      "    <body name='bob' pos='0 0 2'>",
      "      <joint name='hx' axis='1 0 0'/>",
      "      <joint name='hy' axis='0 1 0'/>",
      "      <geom size='0.02' pos='0 0 -0.5'/>",
      "    </body>",
      "  </worldbody>",
      "</mujoco>",
  }));
  const Real L = Real(0.5), r = Real(0.02), g = Real(9.81);
  const Real expected = Real(2 * std::numbers::pi) * std::sqrt((L * L + Real(0.4) * r * r) / (g * L));
  for (const char* joint : {"hx", "hy"}) {
    INFO("displaced about " << joint);
    test::write_file(dir / "scene.xml", std::string("<scene dt='0.001'>\n  <robot file='pendulum.xml'>\n    <joint name='") +
                                            joint + "' position='0.05'/>\n  </robot>\n</scene>\n");
    auto spec = sim::load_scene_file((dir / "scene.xml").string());
    INFO((spec.ok() ? std::string("ok") : spec.error()));
    REQUIRE(spec.ok());
    auto model = sim::compile_model(*spec);
    REQUIRE(model.ok());
    const sim::Model& m = model.value();
    const int bob = body_index(m, "bob");
    sim::State state = sim::make_initial_state(m);
    const sim::Control control = sim::make_initial_control(m);
    sim::Workspace ws;
    // The swinging coordinate: y for a turn about x, x for a turn about y.
    const int axis = std::string(joint) == "hx" ? 1 : 0;
    const auto offset = [&] { return state.body_position(bob)[axis]; };
    std::vector<Real> crossings;
    Real before = offset(), off_axis = 0;
    while (state.time < 4 * expected && crossings.size() < 5) {
      REQUIRE(sim::step(m, state, control, ws).ok());
      const Real now = offset();
      if ((before < 0) != (now < 0)) crossings.push_back(state.time - m.dt * now / (now - before));
      off_axis = std::max(off_axis, std::abs(state.body_position(bob)[1 - axis]));
      before = now;
    }
    REQUIRE(crossings.size() >= 5);
    const Real period = (crossings[4] - crossings[0]) / 2;
    INFO("period " << period << " s, closed form " << expected << " s");
    CHECK(period == Approx(expected).epsilon(0.002));  // measured: 1.41935 s against 1.41896 s
    CHECK(off_axis < 1e-6);  // the other hinge stays at rest
  }
}

TEST_CASE("scene XML: contype and conaffinity read, filter and write back", "[unit][import][mjcf]") {
  const std::string xml = xml_lines({
      "<scene>",
      "  <world><plane contype='3' conaffinity='3'/></world>",
      "  <body name='a' pos='0 0 0.1'><sphere radius='0.1' contype='2' conaffinity='2'/></body>",
      "  <body name='b' pos='0 0 0.1'><sphere radius='0.1'/></body>",
      "</scene>",
  });
  const sim::SceneSpec spec = test::parse_scene_ok(xml, "bits.xml");
  CHECK(spec.world_shapes[0].contype == 3);
  CHECK(spec.bodies[0].shapes[0].conaffinity == 2);
  CHECK(spec.bodies[1].shapes[0].contype == 1);
  const std::string written = sim::write_scene_xml(spec);
  CHECK(written.find("contype=\"2\" conaffinity=\"2\"") != std::string::npos);
  const sim::SceneSpec reread = test::parse_scene_ok(written, "bits2.xml");
  CHECK(reread.world_shapes[0].contype == 3);
  CHECK(reread.world_shapes[0].conaffinity == 3);
  CHECK(reread.bodies[0].shapes[0].contype == 2);
  CHECK(reread.bodies[0].shapes[0].conaffinity == 2);
  CHECK(reread.bodies[1].shapes[0].contype == 1);
  CHECK(sim::write_scene_xml(reread) == written);
  // The overlapping spheres a and b never touch (2 & 1 = 0 both ways); both stand on the plane.
  auto model = sim::compile_model(reread);
  REQUIRE(model.ok());
  sim::State state = sim::make_initial_state(*model);
  const sim::Control control = sim::make_initial_control(*model);
  sim::Workspace ws;
  for (int i = 0; i < 60; ++i) REQUIRE(sim::step(*model, state, control, ws).ok());
  CHECK(std::abs(state.body_position(0).x()) < 1e-6);  // no push apart
  CHECK(state.body_position(0).z() == Approx(0.1).margin(0.005));
  CHECK(state.body_position(1).z() == Approx(0.1).margin(0.005));
  // Malformed bits are errors naming the attribute.
  test::check_error(sim::parse_scene_xml("<scene>\n  <world><plane contype='-1'/></world>\n</scene>\n", "bad.xml"),
                    "bad.xml", 2, "plane", {"contype"});
}
