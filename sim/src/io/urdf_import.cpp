// URDF -> ImportResult (links, joints, inertials, visual and collision geometry, meshes through
// package:// resolution), and append_robot().
//
// URDF conventions: a joint's <origin> is the child link frame in the parent link frame at q = 0
// and is also the joint frame; <axis> is in that frame (default x); <origin rpy> is roll, pitch,
// yaw about the fixed x, y, z axes (R = Rz(yaw) Ry(pitch) Rx(roll)); an <inertial> origin places
// the centre of mass and the axes of the inertia tensor in the link frame.
#include <tinyxml2.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/robot_import_common.hpp"
#include "sim/resource_policy.hpp"
#include "sim/robot_import.hpp"

namespace sim {

namespace {

using io::AttrSet;
using io::in_quotes;
using io::JointDesc;
using io::LinkDesc;
using io::Range;
using io::RobotDesc;
using io::Warnings;
using tinyxml2::XMLElement;
namespace fs = std::filesystem;

Quat rpy_rotation(const Vec3& rpy) {
  return Quat(Eigen::AngleAxis<Real>(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxis<Real>(rpy.y(), Vec3::UnitY()) *
              Eigen::AngleAxis<Real>(rpy.x(), Vec3::UnitX()));
}

class UrdfParser {
 public:
  UrdfParser(const std::string& file, const ImportOptions& options, ImportResult& out)
      : file_(file), options_(options), out_(out), warnings_(out.warnings) {}

  void parse(const std::string& text) {
    tinyxml2::XMLDocument doc;
    const XMLElement* root = io::parse_root(doc, text, file_, "robot");
    AttrSet robot(root, file_);
    robot.warn_unknown({"name", "version"}, warnings_);
    desc_.name = robot.text("name").value_or(fs::path(file_).stem().string());

    // Named colours first: a <visual> may use a <material> defined later.
    for (const XMLElement* c : io::child_elements(root))
      if (std::string_view(c->Name()) == "material") parse_material(c, true);
    // A named material with a colour inside a <visual> names that colour for the whole file too
    // (urdfdom's rule, which the Allegro files rely on: "black" is defined in base_link's visual).
    for (const XMLElement* link : io::child_elements(root)) {
      if (std::string_view(link->Name()) != "link") continue;
      for (const XMLElement* visual : io::child_elements(link)) {
        if (std::string_view(visual->Name()) != "visual") continue;
        for (const XMLElement* m : io::child_elements(visual)) {
          const char* name = m->Attribute("name");
          const XMLElement* color = m->FirstChildElement("color");
          if (std::string_view(m->Name()) != "material" || !name || !*name || !color || colors_.count(name)) continue;
          if (color->Attribute("rgba")) colors_[name] = parse_rgba(color);
        }
      }
    }
    for (const XMLElement* c : io::child_elements(root)) {
      const std::string_view name = c->Name();
      if (name == "link") parse_link(c);
    }
    for (const XMLElement* c : io::child_elements(root)) {
      const std::string_view name = c->Name();
      if (name == "link" || name == "material") continue;
      if (name == "joint") parse_joint(c);
      else if (name == "transmission")
        warn_element(c, "transmissions are ignored: joint drives come from the <robot> element (drive, stiffness, "
                        "damping) or the joint's own <drive> override");
      else warn_element(c, "unsupported element, skipped");
    }
    if (desc_.links.empty()) io::fail_at(file_, root->GetLineNum(), "robot", "the robot has no <link>");
    resolve_joints();
    out_.name = desc_.name;
    out_.scene.name = desc_.name;
    out_.scene.source_file = file_;
    io::build_robot(desc_, options_, warnings_, out_);
  }

 private:
  void warn_element(const XMLElement* e, std::string_view what) { warnings_.add(file_, e->GetLineNum(), e->Name(), what); }

  Pose parse_origin(const XMLElement* parent) {
    const XMLElement* o = parent->FirstChildElement("origin");
    if (!o) return Pose{};
    AttrSet a(o, file_);
    a.warn_unknown({"xyz", "rpy"}, warnings_);
    if (o->NextSiblingElement("origin")) warn_element(o->NextSiblingElement("origin"), "a second <origin>, ignored");
    Pose p;
    p.pos = a.vec3("xyz").value_or(Vec3::Zero());
    p.rot = rpy_rotation(a.vec3("rpy").value_or(Vec3::Zero()));
    return p;
  }

  std::array<float, 4> parse_rgba(const XMLElement* color) {
    AttrSet a(color, file_);
    a.warn_unknown({"rgba"}, warnings_);
    auto v = io::rgba_attribute(a, warnings_);
    if (!v) a.fail("missing required attribute 'rgba'");
    return *v;
  }

  // A <material>: top level (named colour) or inside a <visual>; returns its colour if known.
  std::optional<std::array<float, 4>> parse_material(const XMLElement* e, bool top_level) {
    AttrSet a(e, file_);
    a.warn_unknown({"name"}, warnings_);
    std::optional<std::array<float, 4>> rgba;
    for (const XMLElement* c : io::child_elements(e)) {
      const std::string_view n = c->Name();
      if (n == "color") rgba = parse_rgba(c);
      else if (n == "texture") {
        if (top_level) warn_element(c, "textures are not supported, ignored");
      } else if (top_level) warn_element(c, "unsupported element, skipped");
    }
    const std::string name = a.text("name").value_or("");
    if (top_level) {
      if (rgba && !name.empty()) colors_[name] = *rgba;
      return rgba;
    }
    if (!rgba && !name.empty()) {
      auto it = colors_.find(name);
      if (it != colors_.end()) rgba = it->second;
    }
    return rgba;
  }

  void parse_link(const XMLElement* e) {
    AttrSet a(e, file_);
    a.warn_unknown({"name", "type"}, warnings_);
    LinkDesc link;
    link.name = a.required_text("name");
    link.source = a.location();
    if (link_index_.count(link.name))
      a.fail_attribute("name", "duplicate link name " + in_quotes(link.name));
    // <inertial> first: a mesh that cannot be read falls back to a box sized from it.
    for (const XMLElement* c : io::child_elements(e))
      if (std::string_view(c->Name()) == "inertial") {
        if (link.inertial) warn_element(c, "a second <inertial>, ignored");
        else link.inertial = parse_inertial(c);
      }
    link_collisions_.clear();
    missing_visual_.reset();
    for (const XMLElement* c : io::child_elements(e)) {
      const std::string_view n = c->Name();
      if (n == "inertial") continue;
      if (n == "collision") parse_collision(c, link);
      else if (n == "visual") parse_visual(c, link);
      else warn_element(c, "unsupported element, skipped");
    }
    // A visual whose mesh cannot be used: the link is drawn as its collision geometry, in that
    // visual's colour (so a body with other links' visuals merged in is not left half drawn).
    if (missing_visual_)
      for (const CollisionGeometry& c : link_collisions_) {
        RobotVisual v = make_visual(c.geometry, c.local, *missing_visual_);
        std::string error;
        if (c.fallback_box) {  // the box standing in for an unusable collision mesh
          v.geometry = RobotVisual::Geometry::Box;
          v.half_extents = c.fallback_box->half_extents;
          v.local = c.fallback_box->local;
          v.mesh_file.clear();
        } else if (c.geometry.type == RobotVisual::Geometry::Mesh && !load_visual_mesh(v, c.geometry, error)) {
          continue;
        }
        link.visuals.push_back(std::move(v));
      }
    link.world = link.name == "world" && !link.inertial && link.shapes.empty();
    link_index_[link.name] = static_cast<int>(desc_.links.size());
    desc_.links.push_back(std::move(link));
  }

  io::InertialDesc parse_inertial(const XMLElement* e) {
    AttrSet a(e, file_);
    a.warn_unknown({}, warnings_);
    io::InertialDesc in;
    in.source = a.location();
    in.frame = parse_origin(e);
    const XMLElement* mass = e->FirstChildElement("mass");
    if (!mass) a.fail("missing <mass>");
    AttrSet m(mass, file_);
    m.warn_unknown({"value"}, warnings_);
    in.mass = m.required_real("value", Range::NonNegative);
    if (const XMLElement* inertia = e->FirstChildElement("inertia")) {
      AttrSet i(inertia, file_);
      i.warn_unknown({"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}, warnings_);
      const Real ixx = i.required_real("ixx"), iyy = i.required_real("iyy"), izz = i.required_real("izz");
      const Real ixy = i.real_or("ixy", 0), ixz = i.real_or("ixz", 0), iyz = i.real_or("iyz", 0);
      in.inertia << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
    } else {
      a.warn(warnings_, "no <inertia>: a zero tensor, corrected below");
    }
    for (const XMLElement* c : io::child_elements(e)) {
      const std::string_view n = c->Name();
      if (n != "origin" && n != "mass" && n != "inertia") warn_element(c, "unsupported element, skipped");
    }
    return in;
  }

  // Geometry of a <visual> or <collision>; false when it has none that is usable (warned).
  struct Geometry {
    RobotVisual::Geometry type = RobotVisual::Geometry::Box;
    Vec3 half_extents = Vec3::Zero();
    Real radius = 0, half_length = 0;
    std::string filename;  // mesh, as written
    std::string path;      // resolved; "" if not found
    std::vector<std::string> searched;
    Vec3 scale = Vec3::Ones();
    SourceLocation source;
    std::string element;
  };

  bool parse_geometry(const XMLElement* parent, Geometry& g) {
    const XMLElement* geo = parent->FirstChildElement("geometry");
    if (!geo) {
      warn_element(parent, "no <geometry>, skipped");
      return false;
    }
    AttrSet ga(geo, file_);
    ga.warn_unknown({}, warnings_);
    const XMLElement* shape = geo->FirstChildElement();
    if (!shape) {
      warn_element(geo, "empty <geometry>, skipped");
      return false;
    }
    if (shape->NextSiblingElement()) warn_element(shape->NextSiblingElement(), "a second shape in <geometry>, ignored");
    AttrSet a(shape, file_);
    g.source = a.location();
    g.element = shape->Name();
    const std::string_view n = shape->Name();
    if (n == "box") {
      a.warn_unknown({"size"}, warnings_);
      auto size = a.vec3("size", Range::Positive);
      if (!size) a.fail("missing required attribute 'size'");
      g.type = RobotVisual::Geometry::Box;
      g.half_extents = *size / 2;
    } else if (n == "sphere") {
      a.warn_unknown({"radius"}, warnings_);
      g.type = RobotVisual::Geometry::Sphere;
      g.radius = a.required_real("radius", Range::Positive);
    } else if (n == "cylinder" || n == "capsule") {
      a.warn_unknown({"radius", "length"}, warnings_);
      g.type = n == "cylinder" ? RobotVisual::Geometry::Cylinder : RobotVisual::Geometry::Capsule;
      g.radius = a.required_real("radius", Range::Positive);
      g.half_length = a.required_real("length", n == "cylinder" ? Range::Positive : Range::NonNegative) / 2;
    } else if (n == "mesh") {
      a.warn_unknown({"filename", "scale"}, warnings_);
      g.type = RobotVisual::Geometry::Mesh;
      g.filename = a.required_text("filename");
      if (auto s = a.reals("scale", 1, 3)) {
        if (s->size() == 2) a.fail_attribute("scale", "expected 1 or 3 numbers");
        g.scale = s->size() == 1 ? Vec3::Constant((*s)[0]) : Vec3((*s)[0], (*s)[1], (*s)[2]);
        if (g.scale.x() == 0 || g.scale.y() == 0 || g.scale.z() == 0) a.fail_attribute("scale", "must not be 0");
      }
      std::string package_dir;
      g.path = resolve_mesh(g.filename, g.searched, package_dir);
      // Contained (sim/resource_policy.hpp): a package:// mesh inside its package's folder, any
      // other inside the URDF's folder tree (or a package root).
      if (!g.path.empty()) {
        const std::string from = package_dir.empty() ? file_ : (fs::path(package_dir) / "package.xml").string();
        if (std::string why = check_resource_path(from, g.path); !why.empty()) a.fail_attribute("filename", why);
        add_resource_file(out_.scene, g.path);
      }
    } else {
      warnings_.add(file_, shape->GetLineNum(), n, "unsupported geometry, skipped");
      return false;
    }
    return true;
  }

  void parse_collision(const XMLElement* e, LinkDesc& link) {
    AttrSet a(e, file_);
    a.warn_unknown({"name", "group"}, warnings_);
    for (const XMLElement* c : io::child_elements(e)) {
      const std::string_view n = c->Name();
      if (n != "origin" && n != "geometry") warn_element(c, "unsupported element, skipped");
    }
    Geometry g;
    if (!parse_geometry(e, g)) return;
    const Pose local = parse_origin(e);
    link_collisions_.push_back(CollisionGeometry{g, local, std::nullopt});
    ShapeSpec proto;
    proto.density = options_.density;
    proto.source = g.source;
    ShapeSpec s = proto;
    s.local = local;
    switch (g.type) {
      case RobotVisual::Geometry::Box:
        s.type = ShapeType::Box;
        s.half_extents = g.half_extents;
        break;
      case RobotVisual::Geometry::Sphere:
        s.type = ShapeType::Sphere;
        s.radius = g.radius;
        break;
      case RobotVisual::Geometry::Capsule:
        s.type = ShapeType::Capsule;
        s.radius = g.radius;
        s.half_length = g.half_length;
        break;
      case RobotVisual::Geometry::Cylinder:
        s.type = ShapeType::Cylinder;
        s.radius = g.radius;
        s.half_length = g.half_length;
        break;
      case RobotVisual::Geometry::Mesh: {
        std::string error;
        const TriangleMesh* mesh = nullptr;
        if (g.path.empty()) error = "cannot find " + in_quotes(g.filename) + " (searched: " + join(g.searched) + ")";
        else mesh = meshes_.get(g.path, g.scale, error);
        if (mesh && io::mesh_shapes(*mesh, local, proto, options_, file_ + ":" + std::to_string(g.source.line) + ": <mesh>",
                                    link.shapes, error))
          return;
        const ShapeSpec box = io::fallback_box(link.inertial, local, proto);
        warnings_.add(file_, g.source.line, "mesh",
                      error + "; using a box of " + box_text(box.half_extents) + " instead");
        link_collisions_.back().fallback_box = box;
        link.shapes.push_back(box);
        return;
      }
      default: return;
    }
    link.shapes.push_back(std::move(s));
  }

  RobotVisual make_visual(const Geometry& g, const Pose& local, const std::array<float, 4>& rgba) const {
    RobotVisual v;
    v.geometry = g.type;
    v.local = local;
    v.half_extents = g.half_extents;
    v.radius = g.radius;
    v.half_length = g.half_length;
    v.mesh_scale = g.scale;
    v.mesh_file = g.path;
    v.source = g.source;
    v.rgba = rgba;
    return v;
  }

  // Reads a mesh visual's file into ImportResult::meshes (each file and scale once); false with
  // `error` set when it cannot be read.
  bool load_visual_mesh(RobotVisual& v, const Geometry& g, std::string& error) {
    const TriangleMesh* mesh = meshes_.get(g.path, g.scale, error);
    if (!mesh) return false;
    auto it = visual_mesh_index_.find(mesh);
    if (it == visual_mesh_index_.end()) {
      it = visual_mesh_index_.emplace(mesh, static_cast<int>(out_.meshes.size())).first;
      out_.meshes.push_back(*mesh);
    }
    v.mesh = it->second;
    return true;
  }

  void parse_visual(const XMLElement* e, LinkDesc& link) {
    AttrSet a(e, file_);
    a.warn_unknown({"name", "group"}, warnings_);
    std::optional<std::array<float, 4>> rgba;
    for (const XMLElement* c : io::child_elements(e)) {
      const std::string_view n = c->Name();
      if (n == "material") rgba = parse_material(c, false);
      else if (n != "origin" && n != "geometry") warn_element(c, "unsupported element, skipped");
    }
    Geometry g;
    if (!parse_geometry(e, g)) return;
    RobotVisual v = make_visual(g, parse_origin(e), rgba.value_or(RobotVisual{}.rgba));
    if (g.type == RobotVisual::Geometry::Mesh && options_.load_visual_meshes) {
      std::string error;
      if (g.path.empty()) error = "cannot find " + in_quotes(g.filename) + " (searched: " + join(g.searched) + ")";
      if (g.path.empty() || !load_visual_mesh(v, g, error)) {
        warnings_.add(file_, g.source.line, "mesh", error + "; the link is drawn as its collision geometry");
        missing_visual_ = v.rgba;
        return;
      }
    } else if (g.type == RobotVisual::Geometry::Mesh && g.path.empty()) {
      warnings_.add(file_, g.source.line, "mesh",
                    "cannot find " + in_quotes(g.filename) + " (searched: " + join(g.searched) + "); the visual is left out");
    }
    link.visuals.push_back(std::move(v));
  }

  // package://NAME/rest, file://path, absolute or relative to the URDF; "" when not found.
  // `package_dir` receives the package's folder for a package:// path.
  std::string resolve_mesh(const std::string& filename, std::vector<std::string>& searched, std::string& package_dir) {
    const std::string kPackage = "package://", kFile = "file://";
    std::error_code ec;
    auto exists = [&](const fs::path& p) {
      searched.push_back(p.lexically_normal().generic_string());
      return fs::is_regular_file(p, ec);
    };
    const fs::path base = fs::path(file_).parent_path();
    if (filename.rfind(kPackage, 0) != 0) {
      std::string p = filename.rfind(kFile, 0) == 0 ? filename.substr(kFile.size()) : filename;
      fs::path path(p);
      if (path.is_relative()) path = base / path;
      return exists(path) ? path.lexically_normal().generic_string() : std::string();
    }
    const std::string rest = filename.substr(kPackage.size());
    const auto slash = rest.find('/');
    const std::string package = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? std::string() : rest.substr(slash + 1);
    std::vector<fs::path> roots;
    for (const std::string& p : options_.package_paths) roots.emplace_back(p);
    fs::path dir = fs::absolute(base.empty() ? fs::path(".") : base, ec).lexically_normal();
    for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
      roots.push_back(dir);
      if (dir == dir.root_path() || !dir.has_parent_path() || dir.parent_path() == dir) break;
      dir = dir.parent_path();
    }
    if (const char* ros = std::getenv("ROS_PACKAGE_PATH")) {
      std::string list = ros;
      for (std::size_t start = 0; start <= list.size();) {
        const std::size_t end = std::min(list.find(':', start), list.size());
        if (end > start) roots.emplace_back(list.substr(start, end - start));
        start = end + 1;
      }
    }
    for (const fs::path& root : roots) {
      fs::path clean = root.lexically_normal();
      if (clean.has_filename() ? clean.filename() == package : clean.parent_path().filename() == package) {
        if (exists(clean / inside)) {
          package_dir = clean.generic_string();
          return (clean / inside).lexically_normal().generic_string();
        }
      }
      if (exists(clean / package / inside)) {
        package_dir = (clean / package).generic_string();
        return (clean / package / inside).lexically_normal().generic_string();
      }
    }
    return {};
  }

  static std::string join(const std::vector<std::string>& list) {
    std::string out;
    for (const std::string& s : list) out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? std::string("nowhere") : out;
  }

  static std::string box_text(const Vec3& h) {
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%.3g x %.3g x %.3g m", double(2 * h.x()), double(2 * h.y()), double(2 * h.z()));
    return buffer;
  }

  struct PendingJoint {
    JointDesc desc;
    std::string parent, child;
    SourceLocation parent_at, child_at, mimic_at;
  };

  void parse_joint(const XMLElement* e) {
    AttrSet a(e, file_);
    a.warn_unknown({"name", "type"}, warnings_);
    PendingJoint p;
    JointDesc& jd = p.desc;
    RobotJoint& info = jd.info;
    info.name = a.required_text("name");
    info.source = a.location();
    if (joint_names_.count(info.name)) a.fail_attribute("name", "duplicate joint name " + in_quotes(info.name));
    joint_names_.insert(info.name);
    const std::string type = a.required_text("type");
    if (type == "revolute") info.kind = RobotJointKind::Revolute;
    else if (type == "continuous") info.kind = RobotJointKind::Continuous;
    else if (type == "prismatic") info.kind = RobotJointKind::Prismatic;
    else if (type == "fixed") info.kind = RobotJointKind::Fixed;
    else if (type == "floating") info.kind = RobotJointKind::Floating;
    else if (type == "planar") {
      info.kind = RobotJointKind::Planar;
      a.warn_attribute(warnings_, "type", "planar joints are not supported: the child link becomes a free body");
    } else {
      a.fail_attribute("type", "unknown joint type " + in_quotes(type) +
                                   " (revolute, continuous, prismatic, fixed, floating, planar)");
    }
    jd.origin = parse_origin(e);
    jd.axis = Vec3::UnitX();
    bool has_limit_range = false;
    for (const XMLElement* c : io::child_elements(e)) {
      const std::string_view n = c->Name();
      AttrSet ca(c, file_);
      if (n == "origin") continue;
      if (n == "parent" || n == "child") {
        ca.warn_unknown({"link"}, warnings_);
        (n == "parent" ? p.parent : p.child) = ca.required_text("link");
        (n == "parent" ? p.parent_at : p.child_at) = ca.location();
      } else if (n == "axis") {
        ca.warn_unknown({"xyz"}, warnings_);
        const Vec3 axis = ca.vec3("xyz").value_or(Vec3::UnitX());
        const bool movable = info.kind == RobotJointKind::Revolute || info.kind == RobotJointKind::Continuous ||
                             info.kind == RobotJointKind::Prismatic;
        if (!(axis.norm() > 0)) {
          if (movable) ca.fail_attribute("xyz", "the axis must not be zero");
        } else {
          jd.axis = axis.normalized();
        }
      } else if (n == "limit") {
        ca.warn_unknown({"lower", "upper", "effort", "velocity"}, warnings_);
        has_limit_range = ca.has("lower") || ca.has("upper");
        info.lower = ca.real_or("lower", 0);
        info.upper = ca.real_or("upper", 0);
        info.effort = ca.real_or("effort", -1);
        info.velocity = ca.real_or("velocity", -1);
        if (ca.has("effort") && info.effort < 0) ca.fail_attribute("effort", "must be >= 0");
        if (ca.has("velocity") && info.velocity < 0) ca.fail_attribute("velocity", "must be >= 0");
        if (has_limit_range && info.lower > info.upper)
          ca.fail("lower limit " + in_quotes(*ca.text("lower")) + " above upper limit " +
                  in_quotes(ca.text("upper").value_or("0")));
      } else if (n == "dynamics") {
        ca.warn_unknown({"damping", "friction"}, warnings_);
        info.damping = ca.real_or("damping", 0, Range::NonNegative);
        info.friction = ca.real_or("friction", 0, Range::NonNegative);
        if (info.friction > 0) ca.warn_attribute(warnings_, "friction", "joint friction is not simulated, ignored");
      } else if (n == "mimic") {
        ca.warn_unknown({"joint", "multiplier", "offset"}, warnings_);
        info.mimic = true;
        p.mimic_at = ca.location();
        info.mimic_joint = ca.required_text("joint");
        info.multiplier = ca.real_or("multiplier", 1);
        info.offset = ca.real_or("offset", 0);
      } else if (n == "calibration" || n == "safety_controller") {
        continue;  // controller settings: nothing to simulate
      } else {
        warn_element(c, "unsupported element, skipped");
      }
    }
    if (p.parent.empty()) a.fail("missing <parent link=...>");
    if (p.child.empty()) a.fail("missing <child link=...>");
    if (info.kind == RobotJointKind::Revolute || info.kind == RobotJointKind::Prismatic) {
      if (has_limit_range) info.limited = true;
      else a.warn(warnings_, "no <limit lower upper>: the joint is left unlimited");
    }
    if (info.kind == RobotJointKind::Continuous) info.lower = info.upper = 0;
    jd.frame_in_child = Pose{};
    jd.drive = DriveMode::None;
    const bool movable = info.kind == RobotJointKind::Revolute || info.kind == RobotJointKind::Continuous ||
                         info.kind == RobotJointKind::Prismatic;
    if (movable && options_.urdf_drive != DriveMode::None && !info.mimic) {
      jd.drive = options_.urdf_drive;
      jd.stiffness = options_.urdf_drive_stiffness;
      jd.damping = options_.urdf_drive_damping + info.damping;
      jd.max_force = info.effort > 0 ? info.effort : -1;
      // <limit velocity> bounds a velocity drive's input, as a velocity controller does (the
      // effort is the drive's force bound above).
      if (jd.drive == DriveMode::Velocity && info.velocity > 0) {
        jd.target_limited = true;
        jd.target_lower = -info.velocity;
        jd.target_upper = info.velocity;
      }
    } else if (movable && info.damping > 0) {
      jd.drive = DriveMode::Velocity;  // passive viscous damping: a velocity drive towards 0
      jd.damping = info.damping;
    }
    pending_.push_back(std::move(p));
  }

  void resolve_joints() {
    for (PendingJoint& p : pending_) {
      auto parent = link_index_.find(p.parent);
      if (parent == link_index_.end())
        io::fail_at(p.parent_at.file, p.parent_at.line, "parent",
                    "joint " + in_quotes(p.desc.info.name) + ": unknown link " + in_quotes(p.parent));
      auto child = link_index_.find(p.child);
      if (child == link_index_.end())
        io::fail_at(p.child_at.file, p.child_at.line, "child",
                    "joint " + in_quotes(p.desc.info.name) + ": unknown link " + in_quotes(p.child));
      p.desc.parent = parent->second;
      p.desc.child = child->second;
      p.desc.info.parent_link = p.parent;
      p.desc.info.child_link = p.child;
      if (p.desc.info.mimic && !joint_names_.count(p.desc.info.mimic_joint))
        warnings_.add(p.mimic_at.file, p.mimic_at.line, "mimic",
                      "joint " + in_quotes(p.desc.info.name) + " mimics unknown joint " +
                          in_quotes(p.desc.info.mimic_joint));
      else if (p.desc.info.mimic)
        warnings_.add(p.mimic_at.file, p.mimic_at.line, "mimic",
                      "joint " + in_quotes(p.desc.info.name) + " = " + io::number_text(p.desc.info.multiplier) +
                          " x " + in_quotes(p.desc.info.mimic_joint) + " + " + io::number_text(p.desc.info.offset) +
                          " is not enforced (no coupling constraint): the joint gets no position drive and moves "
                          "with contacts and gravity within its limits");
      desc_.joints.push_back(std::move(p.desc));
    }
  }

  std::string file_;
  const ImportOptions& options_;
  ImportResult& out_;
  Warnings warnings_;
  RobotDesc desc_;
  std::map<std::string, int> link_index_;
  std::set<std::string> joint_names_;
  std::map<std::string, std::array<float, 4>> colors_;
  std::vector<PendingJoint> pending_;
  io::MeshCache meshes_;
  std::map<const TriangleMesh*, int> visual_mesh_index_;
  // The link being parsed: its collision geometry, and the colour of a visual that could not be
  // loaded (then drawn as that geometry).
  struct CollisionGeometry {
    Geometry geometry;
    Pose local;
    std::optional<ShapeSpec> fallback_box;  // what stands in for an unusable mesh
  };
  std::vector<CollisionGeometry> link_collisions_;
  std::optional<std::array<float, 4>> missing_visual_;
};

}  // namespace

Result<ImportResult> parse_urdf(const std::string& xml_text, const std::string& file_name, const ImportOptions& options) {
  return io::import_text(file_name,
                         [&](ImportResult& out) { UrdfParser(file_name, options, out).parse(xml_text); });
}

Result<ImportResult> import_urdf(const std::string& path, const ImportOptions& options) {
  return io::import_file(path, options, parse_urdf);
}

bool shown_visual(const RobotVisual& v) {
  constexpr int kFirstHiddenGroup = 3;  // MuJoCo's default visualisation flags show geom groups 0, 1, 2
  if (!(v.rgba[3] > 0.0f) || v.group >= kFirstHiddenGroup) return false;
  return !(v.body < 0 && v.collides);
}

Result<bool> append_robot(SceneSpec& scene, const ImportResult& robot, const Pose& base, bool fixed_base) {
  std::set<std::string> bodies, joints;
  for (const BodySpec& b : scene.bodies) bodies.insert(b.name);
  for (const JointSpec& j : scene.joints) joints.insert(j.name);
  for (const BodySpec& b : robot.scene.bodies)
    if (bodies.count(b.name) || b.name == "world")
      return Error{io::format_error(b.source.file, b.source.line, "",
                                    "body " + in_quotes(b.name) + " is already in the scene (set a name prefix)")};
  for (const JointSpec& j : robot.scene.joints)
    if (joints.count(j.name))
      return Error{io::format_error(j.source.file, j.source.line, "",
                                    "joint " + in_quotes(j.name) + " is already in the scene (set a name prefix)")};
  if (robot.root_body >= static_cast<int>(robot.scene.bodies.size()))
    return Error{"append_robot: root body index out of range"};
  for (const std::string& f : robot.scene.resource_files) add_resource_file(scene, f);

  // Materials: the scene's own by name, else appended.
  std::vector<int> material_map;
  for (const MaterialSpec& m : robot.scene.materials) {
    int index = -1;
    for (std::size_t i = 0; i < scene.materials.size(); ++i)
      if (scene.materials[i].name == m.name) index = static_cast<int>(i);
    if (index < 0) {
      index = static_cast<int>(scene.materials.size());
      scene.materials.push_back(m);
    }
    material_map.push_back(index);
  }
  auto remap = [&](ShapeSpec s) {
    if (s.material >= 0 && s.material < static_cast<int>(material_map.size())) s.material = material_map[s.material];
    else s.material = -1;
    return s;
  };
  for (const ShapeSpec& s : robot.scene.world_shapes) {
    ShapeSpec w = remap(s);
    w.local = base * w.local;
    scene.world_shapes.push_back(std::move(w));
  }
  const int offset = static_cast<int>(scene.bodies.size());
  for (std::size_t i = 0; i < robot.scene.bodies.size(); ++i) {
    BodySpec b = robot.scene.bodies[i];
    b.pose = base * b.pose;
    b.pose.rot.normalize();
    b.linear_velocity = base.rot * b.linear_velocity;
    b.angular_velocity = base.rot * b.angular_velocity;
    if (fixed_base && static_cast<int>(i) == robot.root_body) b.fixed = true;
    for (ShapeSpec& s : b.shapes) s = remap(s);
    scene.bodies.push_back(std::move(b));
  }
  for (const JointSpec& j : robot.scene.joints) {
    JointSpec js = j;
    if (js.body_a >= 0) js.body_a += offset;
    else js.frame_a = base * js.frame_a;
    js.body_b += offset;
    scene.joints.push_back(std::move(js));
  }
  // Visuals: on their bodies (frames move with them), or world visuals placed by `base`. Meshes
  // are shared by every visual (and every copy of the spec) that uses them.
  std::vector<std::shared_ptr<const TriangleMesh>> meshes(robot.meshes.size());
  for (const RobotVisual& v : robot.visuals) {
    if (!shown_visual(v)) continue;
    if (v.geometry == VisualGeometry::Mesh && (v.mesh < 0 || v.mesh >= static_cast<int>(meshes.size()))) continue;
    if (v.body >= static_cast<int>(robot.scene.bodies.size())) continue;
    VisualSpec visual;
    visual.geometry = v.geometry;
    visual.local = v.body < 0 ? base * v.local : v.local;
    visual.half_extents = v.half_extents;
    visual.radius = v.radius;
    visual.half_length = v.half_length;
    visual.rgba = v.rgba;
    visual.source = v.source;
    if (v.geometry == VisualGeometry::Mesh) {
      auto& shared = meshes[static_cast<std::size_t>(v.mesh)];
      if (!shared) shared = std::make_shared<const TriangleMesh>(robot.meshes[static_cast<std::size_t>(v.mesh)]);
      visual.mesh = shared;
    }
    if (v.body < 0) scene.world_visuals.push_back(std::move(visual));
    else scene.bodies[static_cast<std::size_t>(offset + v.body)].visuals.push_back(std::move(visual));
  }
  if (robot.has_timestep) scene.dt = robot.scene.dt;
  if (robot.has_gravity) scene.gravity = robot.scene.gravity;
  return true;
}

}  // namespace sim
