// MJCF (MuJoCo XML) -> ImportResult: the common subset.
//
// Read: <compiler angle eulerseq meshdir assetdir autolimits inertiafromgeom boundmass
// boundinertia>, <option timestep gravity>, <default> classes (nested, inherited; geom, joint,
// site, mesh, motor, position, velocity), <asset><mesh> (file or inline vertex/face) and
// <material rgba>, <worldbody> with nested <body> (pos, quat/axisangle/euler/xyaxes/zaxis,
// childclass), <frame>, <inertial>, <joint> (hinge, slide, ball, free), <freejoint>, <geom>
// (plane, sphere, capsule, cylinder, box, ellipsoid, mesh; fromto; friction; mass/density;
// contype/conaffinity 0 = visual only), <site>, and <actuator> motor/position/velocity on joints.
// Everything else is skipped with a warning.
//
// Mapping: a body is a link; a body without joints is welded to its parent (merged into it, or
// fixed in the world at the top level); its first joint connects it to its parent (joint frame at
// the joint's pos in the body, axis in the body frame); further joints of one body are warned and
// ignored. Geom friction (sliding, MuJoCo's default 1) becomes a material per distinct value.
// Without <inertial> (or with inertiafromgeom="true") a body's mass comes from all its geoms,
// visual-only ones included, as in MuJoCo. Hinge limits, euler and axisangle follow
// compiler/angle (degrees by default). A joint spring (stiffness, springref) becomes a position
// drive, joint damping a velocity drive to 0, unless an actuator drives the joint.
#include <tinyxml2.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <filesystem>
#include <algorithm>
#include <map>
#include <memory>
#include <numbers>
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
using io::number_text;
using io::Range;
using io::RobotDesc;
using io::Warnings;
using tinyxml2::XMLElement;
namespace fs = std::filesystem;

// Attributes that change nothing here (solver, rendering and bookkeeping settings).
constexpr std::string_view kGeomQuiet[] = {"name", "class", "contype", "conaffinity", "group", "rgba", "material",
                                           "condim", "margin", "gap", "solref", "solimp", "solmix", "priority",
                                           "user", "friction", "mass", "density", "type", "size", "fromto", "pos",
                                           "quat", "axisangle", "euler", "xyaxes", "zaxis", "mesh"};
constexpr std::string_view kJointKnown[] = {"name", "class", "type", "pos", "axis", "range", "limited", "damping",
                                            "stiffness", "springref", "armature", "frictionloss", "ref", "margin",
                                            "solreflimit", "solimplimit", "solreffriction", "solimpfriction",
                                            "user", "group", "actuatorfrclimited", "actuatorfrcrange"};
constexpr std::string_view kSiteKnown[] = {"name", "class", "type", "size", "pos", "quat", "axisangle", "euler",
                                           "xyaxes", "zaxis", "fromto", "rgba", "group", "material", "user"};
constexpr std::string_view kActuatorKnown[] = {"name", "class", "joint", "gear", "ctrlrange", "ctrllimited",
                                               "forcerange", "forcelimited", "kp", "kv", "group", "user"};
constexpr std::string_view kMeshKnown[] = {"name", "class", "file", "scale", "vertex", "face", "content_type",
                                           "smoothnormal", "maxhullvert", "inertia"};

template <std::size_t N>
void warn_unknown_list(const AttrSet& a, const std::string_view (&known)[N], const Warnings& w) {
  for (const auto& [name, attr] : a.all()) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || k == name;
    if (!ok) w.add(attr.file, attr.line, attr.element, "unsupported attribute " + in_quotes(name) + ", ignored");
  }
}

struct DefaultClass {
  std::string name;
  int parent = -1;
  std::map<std::string, AttrSet> by_tag;  // "geom", "joint", ...
};

struct MeshAsset {
  std::string name;
  std::string path;               // resolved file ("" for inline vertices)
  std::string file;               // as written
  Vec3 scale = Vec3::Ones();
  std::optional<TriangleMesh> inline_mesh;
  SourceLocation source;
};

class MjcfParser {
 public:
  MjcfParser(const std::string& file, const ImportOptions& options, ImportResult& out)
      : file_(file), options_(options), out_(out), warnings_(out.warnings) {}

  void parse(const std::string& text) {
    tinyxml2::XMLDocument doc;
    const XMLElement* root = io::parse_root(doc, text, file_, "mujoco");
    std::error_code ec;
    model_dir_ = fs::weakly_canonical(fs::absolute(fs::path(file_), ec).parent_path(), ec);
    doc_file_[&doc] = file_;
    doc_chain_[&doc] = {fs::weakly_canonical(fs::absolute(fs::path(file_), ec), ec).generic_string()};
    AttrSet model = attrs(root);
    model.warn_unknown({"model"}, warnings_);
    desc_.name = model.text("model").value_or(fs::path(file_).stem().string());
    desc_.warn_mass_from_geometry = false;

    // The world link, then compiler settings, defaults and assets (used by everything else).
    LinkDesc world;
    world.name = "world";
    world.world = true;
    world.source = model.location();
    desc_.links.push_back(std::move(world));
    classes_.push_back(DefaultClass{"main", -1, {}});
    class_index_["main"] = 0;
    const auto top = children(root);
    for (const XMLElement* c : top)
      if (std::string_view(c->Name()) == "compiler") parse_compiler(c);
    for (const XMLElement* c : top)
      if (std::string_view(c->Name()) == "default") parse_default(c, -1);
    for (const XMLElement* c : top)
      if (std::string_view(c->Name()) == "asset") parse_asset(c);
    for (const XMLElement* c : top) {
      const std::string_view n = c->Name();
      if (n == "option") parse_option(c);
      else if (n == "worldbody") parse_worldbody(c);
    }
    for (const XMLElement* c : top)
      if (std::string_view(c->Name()) == "contact") parse_contact(c);
    for (const XMLElement* c : top)
      if (std::string_view(c->Name()) == "actuator") parse_actuators(c);
    for (const XMLElement* c : top) {
      const std::string_view n = c->Name();
      if (n != "compiler" && n != "default" && n != "asset" && n != "option" && n != "worldbody" && n != "actuator" &&
          n != "contact")
        warn_element(c, "unsupported element, skipped");
    }
    assign_drives();
    out_.name = desc_.name;
    out_.scene.name = desc_.name;
    out_.scene.source_file = file_;
    desc_.materials = materials_;
    io::build_robot(desc_, options_, warnings_, out_);
    // The world is the root: bodies without joints are welded to it, jointed ones move. The body
    // that fixed_base pins is the first with a free joint (MuJoCo allows them on top-level bodies).
    out_.root_body = -1;
    for (const JointDesc& jd : desc_.joints)
      if (jd.edge && jd.info.kind == RobotJointKind::Floating && jd.parent == 0) {
        out_.root_body = out_.links[static_cast<std::size_t>(jd.child)].body;
        break;
      }
    collision_filters();
    for (RobotActuator& a : actuators_) {
      for (std::size_t j = 0; j < out_.joints.size(); ++j)
        if (out_.joints[j].name == a.joint) a.joint_index = out_.joints[j].joint;
      out_.actuators.push_back(std::move(a));
    }
  }

 private:
  void warn_element(const XMLElement* e, std::string_view what) { warnings_.add(file_of(e), e->GetLineNum(), e->Name(), what); }

  // ---- files and <include> ---------------------------------------------------------------------

  // The file an element was read from (the model, or a file it includes).
  const std::string& file_of(const XMLElement* e) const { return doc_file_.at(e->GetDocument()); }
  AttrSet attrs(const XMLElement* e) const { return AttrSet(e, file_of(e)); }

  // The child elements of `e` with each <include> replaced by the children of the included
  // file's <mujoco> root, recursively (MuJoCo's include: the file is relative to the main model's
  // folder). An included file must be a regular file (a FIFO or a device is refused before it is
  // opened), at most kMaxIncludeBytes, inside the model's folder tree; includes nest at most
  // kMaxIncludeDepth deep and a file that includes itself (directly or not) is an error.
  std::vector<const XMLElement*> children(const XMLElement* e) {
    std::vector<const XMLElement*> out;
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string_view(c->Name()) != "include") {
        out.push_back(c);
        continue;
      }
      const XMLElement* root = included_root(c);
      for (const XMLElement* x : children(root)) out.push_back(x);
    }
    return out;
  }

  const XMLElement* included_root(const XMLElement* include) {
    if (auto it = include_root_.find(include); it != include_root_.end()) return it->second;
    static constexpr int kMaxIncludeDepth = 16;
    static constexpr std::uintmax_t kMaxIncludeBytes = std::uintmax_t(64) << 20;
    AttrSet a = attrs(include);
    a.warn_unknown({"file"}, warnings_);
    const std::string name = a.required_text("file");
    if (name.empty()) a.fail_attribute("file", "must not be empty");
    for (const XMLElement* c = include->FirstChildElement(); c; c = c->NextSiblingElement())
      warn_element(c, "an <include> has no children, ignored");
    fs::path p(name);
    std::error_code ec;
    if (p.is_relative()) p = model_dir_ / p;
    const fs::path canonical = fs::weakly_canonical(p, ec);
    const std::string key = canonical.generic_string();
    const std::vector<std::string>& chain = doc_chain_.at(include->GetDocument());
    if (std::find(chain.begin(), chain.end(), key) != chain.end()) {
      std::string cycle;
      for (const std::string& f : chain) cycle += fs::path(f).filename().string() + " -> ";
      a.fail_attribute("file", "include cycle: " + cycle + fs::path(key).filename().string());
    }
    if (static_cast<int>(chain.size()) >= kMaxIncludeDepth)
      a.fail_attribute("file", "includes nested deeper than " + std::to_string(kMaxIncludeDepth));
    const auto [outside, _] = std::mismatch(model_dir_.begin(), model_dir_.end(), canonical.begin(), canonical.end());
    if (outside != model_dir_.end())
      a.fail_attribute("file", in_quotes(p.generic_string()) + " is outside the model's folder " +
                                   in_quotes(model_dir_.generic_string()) + ": refused");
    std::string why;
    auto text = io::read_text_file(canonical.string(), kMaxIncludeBytes, why);
    if (!text) a.fail_attribute("file", "cannot read " + in_quotes(p.generic_string()) + " (" + why + ")");
    auto doc = std::make_unique<tinyxml2::XMLDocument>();
    const std::string included_file = p.lexically_normal().generic_string();
    const XMLElement* root = io::parse_root(*doc, *text, included_file, "mujoco");
    doc_file_[doc.get()] = included_file;
    std::vector<std::string> included_chain = chain;
    included_chain.push_back(key);
    doc_chain_[doc.get()] = std::move(included_chain);
    for (const tinyxml2::XMLAttribute* x = root->FirstAttribute(); x; x = x->Next())
      if (std::string_view(x->Name()) != "model")
        warnings_.add(included_file, root->GetLineNum(), "mujoco",
                      "unsupported attribute " + in_quotes(x->Name()) + ", ignored");
    documents_.push_back(std::move(doc));
    include_root_[include] = root;
    return root;
  }

  Real angle(Real value) const { return degrees_ ? value * std::numbers::pi_v<Real> / 180 : value; }

  // ---- compiler, option, defaults, assets ---------------------------------------------------

  void parse_compiler(const XMLElement* e) {
    AttrSet a = attrs(e);
    a.warn_unknown({"angle", "eulerseq", "meshdir", "assetdir", "texturedir", "autolimits", "inertiafromgeom",
                    "coordinate", "boundmass", "boundinertia", "discardvisual", "fusestatic", "convexhull",
                    "usethread", "strippath"},
                   warnings_);
    if (auto v = a.text("angle")) {
      if (*v == "degree") degrees_ = true;
      else if (*v == "radian") degrees_ = false;
      else a.fail_attribute("angle", "expected degree or radian, got " + in_quotes(*v));
    }
    if (auto v = a.text("eulerseq")) {
      if (v->size() != 3 || v->find_first_not_of("xyzXYZ") != std::string::npos)
        a.fail_attribute("eulerseq", "expected three of x y z X Y Z, got " + in_quotes(*v));
      eulerseq_ = *v;
    }
    if (auto v = a.text("meshdir")) meshdir_ = *v;
    if (auto v = a.text("assetdir")) assetdir_ = *v;
    if (auto v = a.boolean("autolimits")) autolimits_ = *v;
    if (auto v = a.text("inertiafromgeom")) {
      if (*v == "true") inertia_from_geom_ = 1;
      else if (*v == "false") inertia_from_geom_ = 0;
      else if (*v == "auto") inertia_from_geom_ = -1;
      else a.fail_attribute("inertiafromgeom", "expected true, false or auto, got " + in_quotes(*v));
    }
    if (auto v = a.text("coordinate"); v && *v != "local")
      a.fail_attribute("coordinate", "only coordinate=\"local\" is supported");
    boundmass_ = a.real_or("boundmass", boundmass_, Range::NonNegative);
    boundinertia_ = a.real_or("boundinertia", boundinertia_, Range::NonNegative);
    for (const XMLElement* c : children(e)) warn_element(c, "unsupported element, skipped");
  }

  void parse_option(const XMLElement* e) {
    AttrSet a = attrs(e);
    for (const auto& [name, attr] : a.all())
      if (name != "timestep" && name != "gravity")
        warnings_.add(attr.file, attr.line, attr.element, "option " + in_quotes(name) + " is not supported, ignored");
    if (auto dt = a.real("timestep", Range::Positive)) {
      out_.scene.dt = *dt;
      out_.has_timestep = true;
    }
    if (auto g = a.vec3("gravity")) {
      out_.scene.gravity = *g;
      out_.has_gravity = true;
    }
    for (const XMLElement* c : children(e)) warn_element(c, "unsupported element, skipped");
  }

  void parse_default(const XMLElement* e, int parent) {
    AttrSet a = attrs(e);
    a.warn_unknown({"class"}, warnings_);
    int index = 0;
    if (parent < 0) {
      // The top-level default is the class "main" (it may carry that name explicitly).
      if (auto name = a.text("class"); name && *name != "main")
        a.fail_attribute("class", "the top-level default class must be 'main' (got " + in_quotes(*name) + ")");
    } else {
      const std::string name = a.required_text("class");
      if (class_index_.count(name)) a.fail_attribute("class", "duplicate default class " + in_quotes(name));
      index = static_cast<int>(classes_.size());
      classes_.push_back(DefaultClass{name, parent, {}});
      class_index_[name] = index;
    }
    for (const XMLElement* c : children(e)) {
      const std::string_view n = c->Name();
      if (n == "default") {
        parse_default(c, index);
        continue;
      }
      if (n == "geom" || n == "joint" || n == "site" || n == "mesh" || n == "motor" || n == "position" ||
          n == "velocity") {
        AttrSet d = attrs(c);
        if (n == "geom") warn_unknown_list(d, kGeomQuiet, warnings_);
        else if (n == "joint") warn_unknown_list(d, kJointKnown, warnings_);
        else if (n == "site") warn_unknown_list(d, kSiteKnown, warnings_);
        else if (n == "mesh") warn_unknown_list(d, kMeshKnown, warnings_);
        else warn_unknown_list(d, kActuatorKnown, warnings_);
        d.erase("class");
        d.erase("name");
        classes_[index].by_tag[std::string(n)] = std::move(d);
        continue;
      }
      warn_element(c, "unsupported in <default>, ignored");
    }
  }

  // The element's attributes with its class's defaults (and their parents') underneath.
  AttrSet resolved(const XMLElement* e, const std::string& childclass) {
    AttrSet a = attrs(e);
    std::string cls = childclass.empty() ? std::string("main") : childclass;
    if (auto c = a.text("class")) {
      if (!class_index_.count(*c)) a.fail_attribute("class", "unknown default class " + in_quotes(*c));
      cls = *c;
    }
    for (int k = class_index_.at(cls); k >= 0; k = classes_[k].parent) {
      auto it = classes_[k].by_tag.find(e->Name());
      if (it != classes_[k].by_tag.end()) a.merge_defaults(it->second);
    }
    return a;
  }

  std::string check_class(const AttrSet& a, const std::string& inherited) {
    if (auto c = a.text("childclass")) {
      if (!class_index_.count(*c)) a.fail_attribute("childclass", "unknown default class " + in_quotes(*c));
      return *c;
    }
    return inherited;
  }

  std::string asset_path(const std::string& file) const {
    fs::path p(file);
    if (p.is_absolute()) return p.lexically_normal().generic_string();
    const fs::path base = fs::path(file_).parent_path();
    const std::string& dir = !meshdir_.empty() ? meshdir_ : assetdir_;
    fs::path d(dir);
    if (!dir.empty() && d.is_relative()) d = base / d;
    if (dir.empty()) d = base;
    return (d / p).lexically_normal().generic_string();
  }

  void parse_asset(const XMLElement* e) {
    for (const XMLElement* c : children(e)) {
      const std::string_view n = c->Name();
      if (n == "mesh") {
        AttrSet a = resolved(c, "");
        warn_unknown_list(attrs(c), kMeshKnown, warnings_);
        MeshAsset m;
        m.source = a.location();
        if (auto s = a.reals("scale", 3, 3)) m.scale = Vec3((*s)[0], (*s)[1], (*s)[2]);
        if (m.scale.x() == 0 || m.scale.y() == 0 || m.scale.z() == 0) a.fail_attribute("scale", "must not be 0");
        if (auto f = a.text("file")) {
          m.file = *f;
          m.path = asset_path(*f);
          m.name = fs::path(*f).stem().string();
        } else if (auto v = a.reals("vertex", 12, static_cast<std::size_t>(-1))) {
          if (v->size() % 3 != 0) a.fail_attribute("vertex", "expected a multiple of 3 numbers");
          TriangleMesh mesh;
          for (std::size_t k = 0; k + 2 < v->size(); k += 3)
            mesh.vertices.emplace_back((*v)[k] * m.scale.x(), (*v)[k + 1] * m.scale.y(), (*v)[k + 2] * m.scale.z());
          if (auto face = a.reals("face", 3, static_cast<std::size_t>(-1))) {
            if (face->size() % 3 != 0) a.fail_attribute("face", "expected a multiple of 3 indices");
            for (std::size_t k = 0; k + 2 < face->size(); k += 3) {
              std::array<int, 3> t{};
              for (int i = 0; i < 3; ++i) {
                const Real x = (*face)[k + i];
                if (x < 0 || x >= static_cast<Real>(mesh.vertices.size()) || x != std::floor(x))
                  a.fail_attribute("face", "index out of range");
                t[i] = static_cast<int>(x);
              }
              mesh.triangles.push_back(t);
            }
          }
          m.inline_mesh = std::move(mesh);
        } else {
          a.fail("a mesh needs 'file' or 'vertex'");
        }
        if (auto name = a.text("name")) m.name = *name;
        if (meshes_.count(m.name)) a.fail("duplicate mesh name " + in_quotes(m.name));
        meshes_[m.name] = std::move(m);
      } else if (n == "material") {
        AttrSet a = attrs(c);
        if (auto name = a.text("name"))
          if (auto rgba = io::rgba_attribute(a, warnings_)) material_rgba_[*name] = *rgba;
      } else {
        warn_element(c, "unsupported asset, skipped");
      }
    }
  }

  // ---- poses ----------------------------------------------------------------------------------

  Quat orientation(const AttrSet& a) {
    int given = 0;
    for (std::string_view k : {"quat", "axisangle", "euler", "xyaxes", "zaxis"}) given += a.has(k) ? 1 : 0;
    if (given > 1) a.fail("at most one of quat, axisangle, euler, xyaxes, zaxis");
    if (auto q = a.reals("quat", 4, 4)) {
      Quat r((*q)[0], (*q)[1], (*q)[2], (*q)[3]);
      if (!(r.norm() > 0)) a.fail_attribute("quat", "must not be zero");
      return r.normalized();
    }
    if (auto v = a.reals("axisangle", 4, 4)) {
      const Vec3 axis((*v)[0], (*v)[1], (*v)[2]);
      if (!(axis.norm() > 0)) a.fail_attribute("axisangle", "the axis must not be zero");
      return Quat(Eigen::AngleAxis<Real>(angle((*v)[3]), axis.normalized()));
    }
    if (auto v = a.reals("euler", 3, 3)) {
      Quat q = Quat::Identity();
      for (int k = 0; k < 3; ++k) {
        const char c = eulerseq_[k];
        const int axis = (c == 'x' || c == 'X') ? 0 : (c == 'y' || c == 'Y') ? 1 : 2;
        const Quat r(Eigen::AngleAxis<Real>(angle((*v)[k]), Vec3::Unit(axis)));
        q = (c >= 'a') ? Quat(q * r) : Quat(r * q);  // lowercase: rotating axes; uppercase: fixed
      }
      return q.normalized();
    }
    if (auto v = a.reals("xyaxes", 6, 6)) {
      Vec3 x((*v)[0], (*v)[1], (*v)[2]), y((*v)[3], (*v)[4], (*v)[5]);
      if (!(x.norm() > 0)) a.fail_attribute("xyaxes", "the x axis must not be zero");
      x.normalize();
      y -= x * x.dot(y);
      if (!(y.norm() > 1e-12)) a.fail_attribute("xyaxes", "the axes must not be parallel");
      y.normalize();
      Mat3 r;
      r.col(0) = x;
      r.col(1) = y;
      r.col(2) = x.cross(y);
      return Quat(r).normalized();
    }
    if (auto z = a.vec3("zaxis")) {
      if (!(z->norm() > 0)) a.fail_attribute("zaxis", "must not be zero");
      return io::rotation_from_z(*z);
    }
    return Quat::Identity();
  }

  Pose pose(const AttrSet& a) { return Pose{a.vec3("pos").value_or(Vec3::Zero()), orientation(a)}; }

  // ---- bodies ---------------------------------------------------------------------------------

  void parse_worldbody(const XMLElement* e) {
    AttrSet a = attrs(e);
    a.warn_unknown({}, warnings_);
    parse_body_children(e, 0, Pose{}, "", true);
  }

  // Children of a body (or <worldbody>, or a <frame> in it with `frame` its pose in the body).
  void parse_body_children(const XMLElement* e, int link, const Pose& frame, const std::string& childclass,
                           bool world) {
    for (const XMLElement* c : children(e)) {
      const std::string_view n = c->Name();
      if (n == "body") parse_body(c, link, frame, childclass);
      else if (n == "geom") parse_geom(c, link, frame, childclass);
      else if (n == "site") parse_site(c, link, frame, childclass);
      else if (n == "frame") {
        AttrSet a = attrs(c);
        a.warn_unknown({"name", "childclass", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"}, warnings_);
        parse_body_children(c, link, frame * pose(a), check_class(a, childclass), world);
      } else if (!world && (n == "joint" || n == "freejoint")) {
        parse_joint(c, link, frame, childclass);
      } else if (!world && n == "inertial") {
        continue;  // read with the body
      } else {
        warn_element(c, "unsupported element, skipped");
      }
    }
  }

  void parse_body(const XMLElement* e, int parent, const Pose& frame, const std::string& inherited) {
    AttrSet a = attrs(e);
    a.warn_unknown({"name", "childclass", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mocap",
                    "gravcomp", "user"},
                   warnings_);
    if (a.boolean("mocap").value_or(false)) a.warn_attribute(warnings_, "mocap", "mocap bodies are not supported: a normal body");
    if (a.real_or("gravcomp", 0) != 0) a.warn_attribute(warnings_, "gravcomp", "gravity compensation is not supported, ignored");
    const std::string childclass = check_class(a, inherited);
    const int link = static_cast<int>(desc_.links.size());
    body_links_.insert(link);
    body_parent_[link] = parent;
    {
      LinkDesc l;
      l.name = a.text("name").value_or("body" + std::to_string(link));
      if (link_names_.count(l.name)) a.fail_attribute("name", "duplicate body name " + in_quotes(l.name));
      link_names_.insert(l.name);
      l.source = a.location();
      desc_.links.push_back(std::move(l));
    }
    const Pose origin = frame * pose(a);
    const std::size_t first_joint = desc_.joints.size();
    std::optional<io::InertialDesc> inertial;
    const XMLElement* inertial_element = e->FirstChildElement("inertial");
    if (inertial_element) inertial = parse_inertial(inertial_element);
    pending_inertial_[link] = inertial;
    parse_body_children(e, link, Pose{}, childclass, false);

    // The body's mass: its <inertial>, or its geoms (all of them, as MuJoCo).
    LinkDesc& l = desc_.links[link];
    if (!inertial || inertia_from_geom_ == 1) {
      if (auto g = io::shapes_inertial(geom_mass_shapes_[link])) inertial = g;
    }
    if (inertial) {
      inertial->mass = std::max(inertial->mass, boundmass_);
      if (boundinertia_ > 0) {
        Eigen::SelfAdjointEigenSolver<Mat3> eig(inertial->inertia);
        Vec3 m = eig.eigenvalues().cwiseMax(Vec3::Constant(boundinertia_));
        inertial->inertia = eig.eigenvectors() * m.asDiagonal() * eig.eigenvectors().transpose();
      }
    }
    l.inertial = inertial;

    // The tree edges: the body's joints in document order (MuJoCo applies them in sequence, the
    // first nearest the parent), or a weld.
    std::vector<int> own;
    for (std::size_t j = first_joint; j < desc_.joints.size(); ++j)
      if (desc_.joints[j].child == link && desc_.joints[j].edge) own.push_back(static_cast<int>(j));
    for (int j : own)
      if (desc_.joints[j].info.kind == RobotJointKind::Floating && own.size() > 1) {
        const RobotJoint& free = desc_.joints[j].info;
        io::fail_at(free.source.file, free.source.line, "joint",
                    "body " + in_quotes(l.name) + ": a free joint must be the only joint of its body");
      }
    if (own.empty()) {
      JointDesc weld;
      weld.implicit = true;
      weld.info.name = l.name + "_weld";
      weld.info.kind = RobotJointKind::Fixed;
      weld.info.source = l.source;
      weld.info.child_link = l.name;
      weld.parent = parent;
      weld.child = link;
      weld.origin = origin;
      desc_.joints.push_back(std::move(weld));
      return;
    }
    chain_joints(link, parent, origin, own);
  }

  // Joints j_0 .. j_{n-1} of body `link` as a chain parent -j_0-> f_1 -j_1-> ... f_{n-1} -j_{n-1}->
  // body: each f_k is an intermediate link in the body's frame at q = 0 (MuJoCo's sequential
  // joint transformations, so the dof count is MuJoCo's: 1 per hinge or slide, 3 per ball). The
  // maximal-coordinate solver needs mass on every body: each f_k carries kChainMassFraction of the
  // body's mass and inertia (same centre and axes), the body the rest, so the total is kept.
  void chain_joints(int link, int parent, const Pose& origin, const std::vector<int>& own) {
    static constexpr Real kChainMassFraction = Real(0.01);
    const int n = static_cast<int>(own.size());
    std::optional<io::InertialDesc> body_inertial = desc_.links[link].inertial;
    if (!body_inertial && n > 1) {
      // No mass from the file: a 10 g ball of 2 cm radius stands in for the body in the chain.
      io::InertialDesc tiny;
      tiny.mass = Real(0.01);
      tiny.inertia = Mat3::Identity() * (Real(0.4) * tiny.mass * Real(0.02 * 0.02));
      tiny.source = desc_.links[link].source;
      body_inertial = tiny;
    }
    int previous = parent;
    for (int k = 0; k < n; ++k) {
      JointDesc& jd = desc_.joints[own[k]];
      int child = link;
      if (k + 1 < n) {
        LinkDesc frame;
        frame.name = desc_.links[link].name + "_" + jd.info.name;
        frame.source = jd.info.source;
        io::InertialDesc share = *body_inertial;
        share.mass *= kChainMassFraction;
        share.inertia *= kChainMassFraction;
        frame.inertial = share;
        child = static_cast<int>(desc_.links.size());
        desc_.links.push_back(std::move(frame));
      } else if (n > 1 && desc_.links[link].inertial) {
        io::InertialDesc& rest = *desc_.links[link].inertial;
        const Real keep = 1 - Real(n - 1) * kChainMassFraction;
        rest.mass *= keep;
        rest.inertia *= keep;
      }
      JointDesc& j = jd;
      j.parent = previous;
      j.child = child;
      j.origin = k == 0 ? origin : Pose{};
      j.info.parent_link = previous == 0 ? std::string() : desc_.links[previous].name;
      j.info.child_link = desc_.links[child].name;
      previous = child;
    }
  }

  io::InertialDesc parse_inertial(const XMLElement* e) {
    AttrSet a = attrs(e);
    a.warn_unknown({"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass", "diaginertia", "fullinertia"},
                   warnings_);
    io::InertialDesc in;
    in.source = a.location();
    in.frame = pose(a);
    in.mass = a.required_real("mass", Range::NonNegative);
    if (a.has("diaginertia") == a.has("fullinertia")) a.fail("exactly one of diaginertia, fullinertia");
    if (auto d = a.vec3("diaginertia", Range::NonNegative)) {
      in.inertia = d->asDiagonal();
    } else {
      auto f = a.reals("fullinertia", 6, 6);
      const auto& v = *f;
      in.inertia << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
    }
    return in;
  }

  void parse_joint(const XMLElement* e, int link, const Pose& frame, const std::string& childclass) {
    const bool free = std::string_view(e->Name()) == "freejoint";
    AttrSet a = free ? attrs(e) : resolved(e, childclass);
    if (free) a.warn_unknown({"name", "group", "align"}, warnings_);
    else warn_unknown_list(attrs(e), kJointKnown, warnings_);
    JointDesc jd;
    RobotJoint& info = jd.info;
    info.source = a.location();
    info.name = a.text("name").value_or("joint" + std::to_string(desc_.joints.size()));
    if (joint_names_.count(info.name)) a.fail_attribute("name", "duplicate joint name " + in_quotes(info.name));
    joint_names_.insert(info.name);
    info.child_link = desc_.links[link].name;
    jd.child = link;
    const std::string type = free ? std::string("free") : a.text("type").value_or("hinge");
    if (type == "hinge") info.kind = RobotJointKind::Revolute;
    else if (type == "slide") info.kind = RobotJointKind::Prismatic;
    else if (type == "ball") info.kind = RobotJointKind::Ball;
    else if (type == "free") info.kind = RobotJointKind::Floating;
    else a.fail_attribute("type", "unknown joint type " + in_quotes(type) + " (hinge, slide, ball, free)");
    if (!free) {
      jd.frame_in_child = frame * Pose{a.vec3("pos").value_or(Vec3::Zero()), Quat::Identity()};
      const Vec3 axis = frame.rot * a.vec3("axis").value_or(Vec3::UnitZ());
      if (!(axis.norm() > 0)) a.fail_attribute("axis", "must not be zero");
      jd.frame_in_child.rot = Quat::Identity();
      jd.axis = axis.normalized();
      const bool angular = info.kind == RobotJointKind::Revolute || info.kind == RobotJointKind::Ball;
      const auto range = a.reals("range", 2, 2);
      const std::string limited = a.text("limited").value_or("auto");
      if (limited != "true" && limited != "false" && limited != "auto")
        a.fail_attribute("limited", "expected true, false or auto, got " + in_quotes(limited));
      const bool is_limited = limited == "true" || (limited == "auto" && autolimits_ && range);
      if (is_limited) {
        if (!range) a.fail("limited=\"true\" needs a range");
        info.lower = angular ? angle((*range)[0]) : (*range)[0];
        info.upper = angular ? angle((*range)[1]) : (*range)[1];
        if (info.lower > info.upper) a.fail_attribute("range", "lower limit above upper limit");
        if (info.kind == RobotJointKind::Ball) a.warn_attribute(warnings_, "range", "ball joint limits are not supported, ignored");
        else info.limited = true;
      }
      if (info.kind == RobotJointKind::Revolute && !info.limited) info.kind = RobotJointKind::Continuous;
      info.damping = a.real_or("damping", 0, Range::NonNegative);
      info.friction = a.real_or("frictionloss", 0, Range::NonNegative);
      if (info.friction > 0) a.warn_attribute(warnings_, "frictionloss", "joint friction is not simulated, ignored");
      // Armature (rotor inertia about the axis): the engine's per-joint field for hinge and ball
      // joints (compile/body_inertia.hpp); a slide or free joint's would need a mass matrix entry.
      const Real armature = a.real_or("armature", 0, Range::NonNegative);
      if (armature > 0 && (info.kind == RobotJointKind::Prismatic || info.kind == RobotJointKind::Floating))
        a.warn_attribute(warnings_, "armature", "armature on a " + type + " joint is not simulated, ignored");
      else jd.armature = armature;
      if (a.real_or("ref", 0) != 0) a.warn_attribute(warnings_, "ref", "a non-zero ref is not supported, ignored");
      const Real stiffness = a.real_or("stiffness", 0, Range::NonNegative);
      if (stiffness > 0) {
        springs_[info.name] = {stiffness, angular ? angle(a.real_or("springref", 0)) : a.real_or("springref", 0)};
      }
      if (auto r = a.reals("actuatorfrcrange", 2, 2)) info.effort = std::max(std::abs((*r)[0]), std::abs((*r)[1]));
    }
    desc_.joints.push_back(std::move(jd));
  }

  void parse_site(const XMLElement* e, int link, const Pose& frame, const std::string& childclass) {
    AttrSet a = resolved(e, childclass);
    warn_unknown_list(attrs(e), kSiteKnown, warnings_);
    RobotSite s;
    s.name = a.text("name").value_or("site" + std::to_string(site_count_));
    ++site_count_;
    s.local = frame * pose(a);
    if (auto ft = a.reals("fromto", 6, 6)) {
      const Vec3 p0((*ft)[0], (*ft)[1], (*ft)[2]), p1((*ft)[3], (*ft)[4], (*ft)[5]);
      s.local = frame * Pose{(p0 + p1) / 2, (p1 - p0).norm() > 0 ? io::rotation_from_z(p1 - p0) : Quat::Identity()};
    }
    s.source = a.location();
    desc_.links[link].sites.push_back(std::move(s));
  }

  // ---- geoms ----------------------------------------------------------------------------------

  int material_for(Real friction) {
    for (std::size_t i = 0; i < materials_.size(); ++i)
      if (materials_[i].friction == friction) return static_cast<int>(i);
    MaterialSpec m;
    m.name = "friction_" + number_text(friction);
    m.friction = friction;
    m.source = SourceLocation{file_, 0};
    materials_.push_back(m);
    return static_cast<int>(materials_.size()) - 1;
  }

  const TriangleMesh* mesh_data(const MeshAsset& asset, std::string& error) {
    if (asset.inline_mesh) return &*asset.inline_mesh;
    std::error_code ec;
    if (!fs::is_regular_file(asset.path, ec)) {
      error = "cannot find mesh file " + in_quotes(asset.path);
      return nullptr;
    }
    // Contained (sim/resource_policy.hpp): inside the model's folder tree or a package root.
    if (std::string why = check_resource_path(file_, asset.path); !why.empty()) {
      error = why;
      return nullptr;
    }
    add_resource_file(out_.scene, asset.path);
    return mesh_cache_.get(asset.path, asset.scale, error);
  }

  void parse_geom(const XMLElement* e, int link, const Pose& frame, const std::string& childclass) {
    AttrSet a = resolved(e, childclass);
    warn_unknown_list(attrs(e), kGeomQuiet, warnings_);
    const std::string type = a.text("type").value_or("sphere");
    const auto size = a.reals("size", 1, 3, Range::NonNegative);
    auto size_at = [&](std::size_t k) -> Real {
      if (!size || size->size() <= k)
        a.fail_attribute("size", "geom type " + in_quotes(type) + " needs at least " + std::to_string(k + 1) +
                                     (k == 0 ? " number" : " numbers"));
      if (!((*size)[k] > 0) && type != "plane") a.fail_attribute("size", "must be > 0");
      return (*size)[k];
    };
    Pose local = frame * pose(a);
    Real fromto_half = -1;
    if (auto ft = a.reals("fromto", 6, 6)) {
      const Vec3 p0((*ft)[0], (*ft)[1], (*ft)[2]), p1((*ft)[3], (*ft)[4], (*ft)[5]);
      if (!((p1 - p0).norm() > 0)) a.fail_attribute("fromto", "the two points must differ");
      if (type != "capsule" && type != "cylinder" && type != "box" && type != "ellipsoid")
        a.fail_attribute("fromto", "only for capsule, cylinder, box and ellipsoid geoms");
      local = frame * Pose{(p0 + p1) / 2, io::rotation_from_z(p1 - p0)};
      fromto_half = (p1 - p0).norm() / 2;
    }
    const auto friction = a.reals("friction", 1, 3, Range::NonNegative);
    auto bits = [&](std::string_view name) {
      const Real v = a.real_or(name, 1, Range::NonNegative);
      if (v != std::floor(v) || v > Real(0x7fffffff)) a.fail_attribute(name, "expected an integer bit mask");
      return static_cast<std::uint32_t>(v);
    };
    const std::uint32_t contype = bits("contype"), conaffinity = bits("conaffinity");
    const bool collides = contype != 0 || conaffinity != 0;  // 0 and 0: visual only, no shape

    ShapeSpec proto;
    proto.source = a.location();
    proto.contype = contype;
    proto.conaffinity = conaffinity;
    proto.density = a.real_or("density", options_.density, Range::NonNegative);
    proto.material = material_for(friction ? (*friction)[0] : Real(1));
    std::vector<ShapeSpec> shapes;
    RobotVisual v;
    v.local = local;
    v.source = a.location();
    v.rgba = {0.5f, 0.5f, 0.5f, 1.0f};  // MuJoCo's default geom colour
    v.collides = collides;
    const Real group = a.real_or("group", 0);
    if (group != std::floor(group) || group < 0 || group > 31) a.fail_attribute("group", "expected an integer 0-31");
    v.group = static_cast<int>(group);
    if (auto rgba = io::rgba_attribute(a, warnings_)) {
      v.rgba = *rgba;
    } else if (auto m = a.text("material")) {
      auto it = material_rgba_.find(*m);
      if (it != material_rgba_.end()) v.rgba = it->second;
    }
    ShapeSpec s = proto;
    s.local = local;
    if (type == "plane") {
      if (link != 0) {
        a.warn(warnings_, "a plane geom on a moving body is not supported, skipped");
        return;
      }
      s.type = ShapeType::Plane;
      v.geometry = RobotVisual::Geometry::Plane;
      if (size && size->size() >= 2) v.half_extents = Vec3((*size)[0], (*size)[1], 0);
      shapes.push_back(s);
    } else if (type == "sphere") {
      s.type = ShapeType::Sphere;
      s.radius = size_at(0);
      v.geometry = RobotVisual::Geometry::Sphere;
      v.radius = s.radius;
      shapes.push_back(s);
    } else if (type == "capsule" || type == "cylinder") {
      const Real r = size_at(0);
      const Real h = fromto_half >= 0 ? fromto_half : size_at(1);
      v.geometry = type == "capsule" ? RobotVisual::Geometry::Capsule : RobotVisual::Geometry::Cylinder;
      v.radius = r;
      v.half_length = h;
      s.type = type == "capsule" ? ShapeType::Capsule : ShapeType::Cylinder;
      s.radius = r;
      s.half_length = h;
      shapes.push_back(s);
    } else if (type == "box") {
      s.type = ShapeType::Box;
      s.half_extents = Vec3(size_at(0), size_at(1), fromto_half >= 0 ? fromto_half : size_at(2));
      v.geometry = RobotVisual::Geometry::Box;
      v.half_extents = s.half_extents;
      shapes.push_back(s);
    } else if (type == "ellipsoid") {
      const Vec3 radii(size_at(0), size_at(1), fromto_half >= 0 ? fromto_half : size_at(2));
      s.type = ShapeType::Ellipsoid;
      s.half_extents = radii;
      v.geometry = RobotVisual::Geometry::Ellipsoid;
      v.half_extents = radii;
      shapes.push_back(s);
    } else if (type == "mesh") {
      const std::string name = a.required_text("mesh");
      auto it = meshes_.find(name);
      if (it == meshes_.end()) a.fail_attribute("mesh", "unknown mesh " + in_quotes(name));
      v.geometry = RobotVisual::Geometry::Mesh;
      v.mesh_file = it->second.path;
      v.mesh_scale = it->second.scale;
      std::string error;
      const TriangleMesh* mesh = mesh_data(it->second, error);
      const std::string where = a.file() + ":" + std::to_string(a.line()) + ": <geom>";
      // Hulls (or a convex decomposition) are for contacts and for the body's mass from its geoms;
      // a visual-only mesh of a body whose <inertial> gives the mass (menagerie-style models) or
      // of the world needs neither: only its triangles, drawn.
      const bool mass_from_geoms = link != 0 && (!pending_inertial_[link] || inertia_from_geom_ == 1);
      const bool needs_shapes = collides || mass_from_geoms;
      if (!mesh || (needs_shapes && !io::mesh_shapes(*mesh, local, proto, options_, where, shapes, error))) {
        const ShapeSpec box = io::fallback_box(pending_inertial_[link], local, proto);
        a.warn(warnings_, "mesh " + in_quotes(name) + ": " + error + "; using a box of " +
                              number_text(2 * box.half_extents.x()) + " x " + number_text(2 * box.half_extents.y()) +
                              " x " + number_text(2 * box.half_extents.z()) + " m instead");
        shapes.push_back(box);
        v.mesh_file.clear();
      } else if (options_.load_visual_meshes) {
        auto found = visual_mesh_index_.find(mesh);
        if (found == visual_mesh_index_.end()) {
          found = visual_mesh_index_.emplace(mesh, static_cast<int>(out_.meshes.size())).first;
          out_.meshes.push_back(*mesh);
        }
        v.mesh = found->second;
      }
    } else {
      a.warn_attribute(warnings_, "type", "geom type " + in_quotes(type) + " is not supported, skipped");
      return;
    }

    // Geom mass: density, or an explicit mass spread over the geom's volume.
    if (auto mass = a.real("mass", Range::NonNegative)) {
      std::vector<ShapeSpec> unit = shapes;
      for (ShapeSpec& u : unit) u.density = 1;
      const auto volume = io::shapes_inertial(unit);
      for (ShapeSpec& x : shapes) x.density = volume && volume->mass > 0 ? *mass / volume->mass : 0;
    }
    for (const ShapeSpec& x : shapes)
      if (x.type != ShapeType::Plane && x.density > 0) geom_mass_shapes_[link].push_back(x);
    LinkDesc& l = desc_.links[link];
    l.visuals.push_back(std::move(v));
    if (collides)
      for (ShapeSpec& x : shapes) l.shapes.push_back(std::move(x));
  }

  // ---- contact filters -------------------------------------------------------------------------

  // <contact>: <exclude body1 body2> pairs (resolved after the bodies are known); <pair> is not
  // supported (warned).
  void parse_contact(const XMLElement* e) {
    attrs(e).warn_unknown({}, warnings_);
    for (const XMLElement* c : children(e)) {
      if (std::string_view(c->Name()) != "exclude") {
        warn_element(c, "unsupported contact element, skipped (explicit contact pairs are not supported)");
        continue;
      }
      AttrSet a = attrs(c);
      a.warn_unknown({"name", "body1", "body2"}, warnings_);
      std::array<int, 2> pair{};
      for (int k = 0; k < 2; ++k) {
        const std::string attribute = k == 0 ? "body1" : "body2";
        const std::string name = a.required_text(attribute);
        pair[k] = -1;
        for (std::size_t l = 0; l < desc_.links.size(); ++l)
          if (desc_.links[l].name == name && body_links_.count(static_cast<int>(l))) pair[k] = static_cast<int>(l);
        if (name == "world") pair[k] = 0;
        if (pair[k] < 0) a.fail_attribute(attribute, "unknown body " + in_quotes(name));
      }
      if (pair[0] == 0 || pair[1] == 0) {
        a.warn(warnings_, "excluding the world body is not supported (world geometry always collides), ignored");
        continue;
      }
      excluded_links_.push_back(pair);
    }
  }

  // The robot's body pairs that never collide: <exclude> pairs and, as MuJoCo's default
  // (disableflags filterparent off), each body and its parent body unless the parent is welded
  // to the world. Indices into out_.scene.bodies.
  void collision_filters() {
    auto body = [&](int link) { return out_.links[static_cast<std::size_t>(link)].body; };
    auto add = [&](int a, int b) {
      if (a < 0 || b < 0 || a == b) return;
      const std::array<int, 2> p{std::min(a, b), std::max(a, b)};
      if (std::find(out_.no_collision_body_pairs.begin(), out_.no_collision_body_pairs.end(), p) ==
          out_.no_collision_body_pairs.end())
        out_.no_collision_body_pairs.push_back(p);
    };
    for (const auto& [link, parent] : body_parent_) {
      if (parent <= 0) continue;
      const int p = body(parent);
      if (p >= 0 && !out_.scene.bodies[static_cast<std::size_t>(p)].fixed) add(body(link), p);
    }
    for (const auto& [a, b] : excluded_links_) add(body(a), body(b));
  }

  // ---- actuators and drives -------------------------------------------------------------------

  void parse_actuators(const XMLElement* e) {
    for (const XMLElement* c : children(e)) {
      const std::string_view n = c->Name();
      RobotActuator act;
      if (n == "motor") act.kind = RobotActuator::Kind::Motor;
      else if (n == "position") act.kind = RobotActuator::Kind::Position;
      else if (n == "velocity") act.kind = RobotActuator::Kind::Velocity;
      else {
        warn_element(c, "unsupported actuator, skipped");
        continue;
      }
      AttrSet a = resolved(c, "");
      AttrSet own = attrs(c);
      bool transmission_ok = true;
      for (std::string_view t : {"tendon", "site", "body", "jointinparent", "cranksite", "slidersite"})
        if (own.has(t)) {
          own.warn_attribute(warnings_, t, "only joint transmissions are supported: actuator skipped");
          transmission_ok = false;
        }
      if (!transmission_ok) continue;
      for (const auto& [name, attr] : own.all()) {
        bool known = false;
        for (std::string_view k : kActuatorKnown) known = known || k == name;
        if (!known)
          warnings_.add(attr.file, attr.line, attr.element, "unsupported attribute " + in_quotes(name) + ", ignored");
      }
      act.source = a.location();
      act.name = a.text("name").value_or(std::string(n) + std::to_string(actuators_.size()));
      act.joint = a.required_text("joint");
      if (auto g = a.reals("gear", 1, 6)) act.gear = (*g)[0];
      act.kp = a.real_or("kp", act.kind == RobotActuator::Kind::Position ? 1 : 0, Range::NonNegative);
      act.kv = a.real_or("kv", act.kind == RobotActuator::Kind::Velocity ? 1 : 0, Range::NonNegative);
      const auto ctrl = a.reals("ctrlrange", 2, 2);
      const auto force = a.reals("forcerange", 2, 2);
      auto limited = [&](std::string_view attribute, bool has_range) {
        const std::string v = a.text(attribute).value_or("auto");
        if (v != "true" && v != "false" && v != "auto")
          a.fail_attribute(attribute, "expected true, false or auto, got " + in_quotes(v));
        return v == "true" || (v == "auto" && autolimits_ && has_range);
      };
      act.ctrl_limited = limited("ctrllimited", ctrl.has_value());
      if (ctrl) act.ctrl_lower = (*ctrl)[0], act.ctrl_upper = (*ctrl)[1];
      if (act.ctrl_limited && !(act.ctrl_lower <= act.ctrl_upper))
        a.fail_attribute("ctrlrange", "the lower bound " + number_text(act.ctrl_lower) + " is above the upper bound " +
                                          number_text(act.ctrl_upper));
      act.force_limited = limited("forcelimited", force.has_value());
      if (force) act.force_lower = (*force)[0], act.force_upper = (*force)[1];
      if (!joint_names_.count(act.joint)) a.fail_attribute("joint", "unknown joint " + in_quotes(act.joint));
      actuators_.push_back(std::move(act));
    }
  }

  void assign_drives() {
    std::set<std::string> driven;
    for (const RobotActuator& act : actuators_) {
      JointDesc* jd = nullptr;
      for (JointDesc& j : desc_.joints)
        if (!j.implicit && j.info.name == act.joint) jd = &j;
      if (!jd) continue;
      const RobotJointKind k = jd->info.kind;
      const bool scalar = k == RobotJointKind::Revolute || k == RobotJointKind::Continuous ||
                          k == RobotJointKind::Prismatic;
      if (!scalar || !jd->edge) {
        warnings_.add(act.source.file, act.source.line, "actuator",
                      "actuator " + in_quotes(act.name) + ": joint " + in_quotes(act.joint) +
                          " is not a simulated hinge or slide joint, no drive");
        continue;
      }
      if (act.kind == RobotActuator::Kind::Motor) {
        warnings_.add(act.source.file, act.source.line, "motor",
                      "actuator " + in_quotes(act.name) + ": a motor (joint torque gear x ctrl) is not an input of "
                      "the simulation; joint " + in_quotes(act.joint) + " is left passive");
        continue;
      }
      if (driven.count(act.joint)) {
        warnings_.add(act.source.file, act.source.line, "actuator",
                      "actuator " + in_quotes(act.name) + ": joint " + in_quotes(act.joint) +
                          " already has a drive, this one is ignored");
        continue;
      }
      driven.insert(act.joint);
      // MuJoCo: force = gear·(kp (ctrl − gear·q) − kv gear·q̇) on the joint: stiffness gear²·kp.
      const Real g2 = act.gear * act.gear;
      jd->drive = act.kind == RobotActuator::Kind::Position ? DriveMode::Position : DriveMode::Velocity;
      jd->stiffness = act.kind == RobotActuator::Kind::Position ? g2 * act.kp : 0;
      jd->damping = g2 * act.kv + jd->info.damping;
      if (act.force_limited)
        jd->max_force = std::abs(act.gear) * std::max(std::abs(act.force_lower), std::abs(act.force_upper));
      if (jd->info.effort >= 0 && (jd->max_force < 0 || jd->info.effort < jd->max_force))
        jd->max_force = jd->info.effort;  // the joint's actuatorfrcrange bounds every actuator on it
      if (jd->drive == DriveMode::Position && !(jd->stiffness > 0)) {
        warnings_.add(act.source.file, act.source.line, "position",
                      "actuator " + in_quotes(act.name) + ": kp must be > 0 for a position drive, no drive");
        jd->drive = DriveMode::None;
      }
      if (jd->drive == DriveMode::Velocity && !(jd->damping > 0)) jd->drive = DriveMode::None;
      // MuJoCo clamps ctrl to ctrlrange: the drive's input, ctrl / gear (a position target for a
      // position actuator, a velocity target for a velocity one), is clamped to that range / gear.
      if (jd->drive != DriveMode::None && act.ctrl_limited) {
        if (act.gear == 0) {
          warnings_.add(act.source.file, act.source.line, "actuator",
                        "actuator " + in_quotes(act.name) + ": gear 0, its ctrlrange cannot bound the drive");
        } else {
          Real lo = act.ctrl_lower / act.gear, hi = act.ctrl_upper / act.gear;
          if (lo > hi) std::swap(lo, hi);
          jd->target_limited = true;
          jd->target_lower = lo;
          jd->target_upper = hi;
        }
      }
    }
    for (JointDesc& jd : desc_.joints) {
      if (jd.implicit || driven.count(jd.info.name) || !jd.edge) continue;
      const RobotJointKind k = jd.info.kind;
      if (k != RobotJointKind::Revolute && k != RobotJointKind::Continuous && k != RobotJointKind::Prismatic) continue;
      auto spring = springs_.find(jd.info.name);
      if (spring != springs_.end()) {
        jd.drive = DriveMode::Position;  // a joint spring: a position drive to springref
        jd.stiffness = spring->second.first;
        jd.damping = jd.info.damping;
      } else if (jd.info.damping > 0) {
        jd.drive = DriveMode::Velocity;  // passive viscous damping
        jd.damping = jd.info.damping;
      }
    }
    // A spring's rest position is the drive's initial target (set after build, below).
  }

  std::string file_;
  fs::path model_dir_;  // canonical folder of the main model: includes resolve from and stay inside it
  std::map<const tinyxml2::XMLDocument*, std::string> doc_file_;
  std::map<const tinyxml2::XMLDocument*, std::vector<std::string>> doc_chain_;  // canonical files that include it
  std::vector<std::unique_ptr<tinyxml2::XMLDocument>> documents_;  // included files
  std::map<const XMLElement*, const XMLElement*> include_root_;
  const ImportOptions& options_;
  ImportResult& out_;
  Warnings warnings_;
  RobotDesc desc_;
  bool degrees_ = true;
  std::string eulerseq_ = "xyz";
  std::string meshdir_, assetdir_;
  bool autolimits_ = true;
  int inertia_from_geom_ = -1;  // -1 auto, 0 false, 1 true
  Real boundmass_ = 0, boundinertia_ = 0;
  std::vector<DefaultClass> classes_;
  std::map<std::string, int> class_index_;
  std::map<std::string, MeshAsset> meshes_;
  std::map<std::string, std::array<float, 4>> material_rgba_;
  std::vector<MaterialSpec> materials_;
  std::set<std::string> link_names_, joint_names_;
  std::map<int, std::optional<io::InertialDesc>> pending_inertial_;
  std::map<int, std::vector<ShapeSpec>> geom_mass_shapes_;
  std::map<std::string, std::pair<Real, Real>> springs_;  // joint -> (stiffness, springref)
  std::vector<RobotActuator> actuators_;
  std::set<int> body_links_;            // links that are MJCF bodies (not chain frames)
  std::map<int, int> body_parent_;      // body link -> its parent body's link (0: the world)
  std::vector<std::array<int, 2>> excluded_links_;  // <exclude body1 body2>
  int site_count_ = 0;
  io::MeshCache mesh_cache_;
  std::map<const TriangleMesh*, int> visual_mesh_index_;

 public:
  // Spring rest positions become the initial drive targets.
  void apply_spring_targets() {
    for (JointSpec& js : out_.scene.joints) {
      const std::string name = js.name.substr(std::min(js.name.size(), options_.name_prefix.size()));
      auto it = springs_.find(name);
      if (it != springs_.end() && js.drive == DriveMode::Position) js.target = it->second.second;
    }
  }
};

}  // namespace

Result<ImportResult> parse_mjcf(const std::string& xml_text, const std::string& file_name, const ImportOptions& options) {
  return io::import_text(file_name, [&](ImportResult& out) {
    MjcfParser parser(file_name, options, out);
    parser.parse(xml_text);
    parser.apply_spring_targets();
  });
}

Result<ImportResult> import_mjcf(const std::string& path, const ImportOptions& options) {
  return io::import_file(path, options, parse_mjcf);
}

}  // namespace sim
