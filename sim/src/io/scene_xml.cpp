// Scene XML (docs/scene-format.md) -> SceneSpec.
//
// The parser walks the document once, filling the SceneSpec in document order, and records every
// name reference (materials, joint bodies, distance particles) with its location; references are
// resolved at the end, so elements may refer to names defined later in the file or in included
// files. Every failure is a ParseError carrying "file:line: <element>: what is wrong", turned into
// a Result error at the edge; nothing here aborts on bad input.
#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "collision/structure_expression.hpp"
#include "core/number_text.hpp"
#include "io/generated_geometry.hpp"
#include "io/xml_element.hpp"
#include "sim/field_table.hpp"
#include "sim/load_limits.hpp"
#include "sim/resource_policy.hpp"
#include "sim/robot_import.hpp"
#include "sim/scene_io.hpp"
#include "sim/structure_texture.hpp"
#include "sim/sdf.hpp"
#include "sim/shell.hpp"
#include "sim/soft_body.hpp"
#include "sim/soft_render_mesh.hpp"
#include "sim/tet_mesh_io.hpp"

namespace sim {

namespace {

using io::attribute_list;
using io::in_quotes;
using io::ParseError;
using io::Range;
using io::XmlElement;
using tinyxml2::XMLElement;
namespace fs = std::filesystem;

using limits::kMaxIncludeDepth;

// A name used by an element, remembered with its location for the resolution pass.
struct NameRef {
  std::string name;
  std::string file;
  int line = 0;
  std::string element;
  [[noreturn]] void fail(std::string_view what) const { io::fail_at(file, line, element, what); }
};

NameRef name_ref(const XmlElement& e, std::string_view attribute, std::string value) {
  return NameRef{std::move(value), e.file(), e.attribute_line(attribute), std::string(e.name())};
}

// ---- table fields (sim/spec_fields.hpp) -----------------------------------------------------

// `names` followed by the attributes of `Spec`'s table fields held by `element`.
template <class Spec>
std::vector<std::string_view> with_fields(std::vector<std::string_view> names, std::string_view element) {
  for (const Field<Spec>& f : fields_of<Spec>())
    if (f.element == element) names.push_back(f.name);
  return names;
}

// Reads the table fields of `Spec` held by `element` from `e` into `spec` (absent: unchanged),
// with the table's range ("file:line: <element>: attribute must be >= 0") and unset word.
template <class Spec>
void read_fields(const XmlElement& e, std::string_view element, Spec& spec) {
  for (const Field<Spec>& f : fields_of<Spec>()) {
    if (f.element != element || !e.has(f.name)) continue;
    if (!f.unset_word.empty() && e.text(f.name) == f.unset_word) {
      spec.*f.spec = f.unset;
      continue;
    }
    const Range range = f.range == FieldRange::Positive      ? Range::Positive
                        : f.range == FieldRange::NonNegative ? Range::NonNegative
                                                             : Range::Any;
    spec.*f.spec = *e.real(f.name, range);
  }
}

// Shape attributes inherited from the enclosing <body> or <world>.
struct ShapeDefaults {
  std::optional<NameRef> material;
  Real thickness = 0;
  Real density = Real(1000);
};

struct ParsedShape {
  ShapeSpec spec;
  std::optional<NameRef> material;
};

struct PendingJoint {
  bool resolved = false;  // made by a <robot> import: bodies and frames already set
  NameRef parent, child;
  std::optional<Pose> world_frame;       // joint frame in the world at t = 0
  std::optional<Pose> frame_a, frame_b;  // explicit frames in the bodies
};

struct PendingDistance {
  NameRef a, b;
};

// A particle attachment waiting for its body's name (bodies may follow the soft body).
struct PendingAttachment {
  NameRef body;
  Vec3 world_point = Vec3::Zero();  // the particle's initial position (<softbody><attach>), or
  bool local = false;               // `point` already in the body frame (<attachment point>)
};

std::string resolve_path(const std::string& relative_to_file, const std::string& path) {
  fs::path p(path);
  if (p.is_absolute()) return p.lexically_normal().generic_string();
  const fs::path base = fs::path(relative_to_file).parent_path();
  return (base / p).lexically_normal().generic_string();
}

// `value` of `attribute` resolved against `file`'s folder, failing at the attribute when the
// result leads outside the allowed trees (sim/resource_policy.hpp).
std::string contained_path(const XmlElement& e, std::string_view attribute, const std::string& file,
                           const std::string& value) {
  std::string path = resolve_path(file, value);
  if (std::string why = check_resource_path(file, path); !why.empty()) e.fail_attribute(attribute, why);
  return path;
}

// scale="s" (uniform) or "sx sy sz" (per axis) of a mesh: each factor > 0.
Vec3 scale_attribute(const XmlElement& e, std::string_view attribute = "scale") {
  const auto k = e.reals(attribute, 0, Range::Positive);
  if (k->size() == 1) return Vec3::Constant((*k)[0]);
  if (k->size() != 3) e.fail_attribute(attribute, "expected 1 or 3 numbers");
  return Vec3((*k)[0], (*k)[1], (*k)[2]);
}

// Vertices (the "v x y z" lines) of a Wavefront OBJ file.
std::vector<Vec3> read_obj_vertices(const XmlElement& e, const std::string& path) {
  std::string why;
  auto text = io::read_text_file(path, io::kMaxTextFileBytes, why);
  if (!text) e.fail_attribute("file", "cannot read " + in_quotes(path) + " (" + why + ")");
  std::vector<Vec3> vertices;
  std::istringstream lines(*text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const auto tokens = io::split_tokens(line);
    if (tokens.empty() || tokens[0] != "v") continue;
    double x = 0, y = 0, z = 0;
    if (tokens.size() < 4 || !io::parse_real(tokens[1], x) || !io::parse_real(tokens[2], y) ||
        !io::parse_real(tokens[3], z))
      e.fail_attribute("file", in_quotes(path) + " line " + std::to_string(number) + ": malformed vertex");
    vertices.emplace_back(static_cast<Real>(x), static_cast<Real>(y), static_cast<Real>(z));
  }
  return vertices;
}

class SceneParser {
 public:
  SceneSpec parse(const std::string& text, const std::string& file) {
    spec_ = SceneSpec{};
    spec_.source_file = file;
    spec_.name = fs::path(file).stem().string();
    std::error_code ec;
    include_stack_ = {fs::weakly_canonical(fs::path(file), ec).generic_string()};
    include_count_ = 0;
    included_bytes_ = text.size();
    parse_document(text, file, 0, /*included=*/false);
    resolve();
    return std::move(spec_);
  }

 private:
  // ---- documents ---------------------------------------------------------------------------

  void parse_document(const std::string& text, const std::string& file, int depth, bool included) {
    tinyxml2::XMLDocument doc;
    const XMLElement* root = io::parse_root(doc, text, file, "scene");
    XmlElement scene(root, file, {"name", "dt", "gravity"});
    if (!included) {
      if (auto name = scene.text("name")) spec_.name = *name;
      spec_.dt = scene.real_or("dt", spec_.dt, Range::Positive);
      spec_.gravity = scene.vec3_or("gravity", spec_.gravity);
      // The physical ranges (sim/load_limits.hpp; compile_model checks them too, without a line).
      if (spec_.dt > limits::kMaxTimeStep)
        scene.fail_attribute("dt", number_text(spec_.dt) + " s is above the largest time step, " +
                                       number_text(limits::kMaxTimeStep) + " s (docs/LIMITS.md)");
      if (spec_.gravity.norm() > limits::kMaxGravity)
        scene.fail_attribute("gravity", "|g| = " + number_text(spec_.gravity.norm()) + " m/s^2 is above " +
                                            number_text(limits::kMaxGravity) + " m/s^2 (docs/LIMITS.md)");
    } else {
      // An included file's own scene attributes are checked but the including scene's win.
      scene.real("dt", Range::Positive);
      scene.vec3("gravity");
    }
    for (const XMLElement* child : scene.children()) parse_scene_child(child, file, depth);
  }

  // A file an element references (mesh, tet mesh, texture, robot), resolved and contained
  // (contained_path), and recorded in SceneSpec::resource_files.
  std::string resource(const XmlElement& e, std::string_view attribute, const std::string& file,
                       const std::string& value) {
    std::string path = contained_path(e, attribute, file, value);
    add_resource_file(spec_, path);
    return path;
  }

  void parse_scene_child(const XMLElement* el, const std::string& file, int depth) {
    const std::string_view name = el->Name();
    if (name == "solver") return parse_solver(el, file);
    if (name == "material") return parse_material(el, file);
    if (name == "world") return parse_world(el, file);
    if (name == "body") return parse_body(el, file);
    if (name == "particle") return parse_particle(el, file);
    if (name == "rope") return parse_rope(el, file);
    if (name == "cloth") return parse_cloth(el, file);
    if (name == "distance") return parse_distance(el, file);
    if (name == "softbody") return parse_softbody(el, file);
    if (name == "shell") return parse_shell(el, file);
    if (name == "particle_triangles") return parse_particle_triangles(el, file);
    if (name == "self_collision") return parse_self_collision(el, file);
    if (name == "attachment") return parse_attachment(el, file);
    if (name == "joint") return parse_joint(el, file);
    if (name == "include") return parse_include(el, file, depth);
    if (name == "robot") return parse_robot(el, file);
    if (name == "keyframe") return parse_keyframe(el, file);
    io::fail_at(file, el->GetLineNum(), name,
                "unknown element in <scene> (expected solver, material, world, body, particle, rope, "
                "cloth, distance, softbody, shell, particle_triangles, self_collision, attachment, joint, include, robot or keyframe)");
  }

  void parse_include(const XMLElement* el, const std::string& file, int depth) {
    XmlElement e(el, file, {"file"});
    const std::string path = contained_path(e, "file", file, e.required_text("file"));
    if (depth + 1 > kMaxIncludeDepth) e.fail("includes nested deeper than " + std::to_string(kMaxIncludeDepth));
    std::error_code ec;
    const std::string key = fs::weakly_canonical(fs::path(path), ec).generic_string();
    for (const std::string& open : include_stack_)
      if (open == key) e.fail_attribute("file", in_quotes(path) + " includes itself");
    // Bounded over all levels, so a few files including each other many times cannot grow the
    // scene without end.
    if (++include_count_ > limits::kMaxIncludeCount)
      e.fail("more than " + std::to_string(limits::kMaxIncludeCount) + " includes in one scene");
    std::string why;
    auto text = io::read_text_file(path, io::kMaxTextFileBytes, why);
    if (!text) e.fail_attribute("file", "cannot read " + in_quotes(path) + " (" + why + ")");
    included_bytes_ += text->size();
    if (included_bytes_ > limits::kMaxSceneTotalBytes)
      e.fail("the scene's includes add up to more than " + std::to_string(limits::kMaxSceneTotalBytes >> 20) + " MiB");
    include_stack_.push_back(key);
    parse_document(*text, path, depth + 1, /*included=*/true);
    include_stack_.pop_back();
  }

  // ---- scene-wide elements ---------------------------------------------------------------------

  // <keyframe name time q u joints targets pressures warm_keys warm_contacts warm_rows/>: a saved state
  // (KeyframeSpec). The vector lengths are checked against the compiled model when the keyframe
  // is restored (sim::keyframe_state).
  void parse_keyframe(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, {"name", "time", "q", "u", "joints", "targets", "pressures", "warm_keys", "warm_contacts",
                                 "warm_rows"});
    no_children(e);
    KeyframeSpec k;
    k.name = e.required_text("name");
    if (k.name.empty()) e.fail_attribute("name", "must not be empty");
    for (const KeyframeSpec& other : spec_.keyframes)
      if (other.name == k.name) e.fail_attribute("name", "duplicate keyframe name " + in_quotes(k.name));
    k.time = e.real_or("time", 0, Range::NonNegative);
    if (e.has("q")) k.q = *e.reals("q", 0);
    else e.fail("missing attribute 'q'");
    if (e.has("u")) k.u = *e.reals("u", 0);
    else e.fail("missing attribute 'u'");
    if (e.has("joints")) k.joint_position = *e.reals("joints", 0);
    if (e.has("targets")) k.joint_target = *e.reals("targets", 0);
    if (e.has("pressures")) k.soft_pressure = *e.reals("pressures", 0);  // [Pa], per soft group
    if (auto keys = e.text("warm_keys")) {  // 64-bit contact keys in hexadecimal
      std::istringstream in(*keys);
      for (std::string word; in >> word;) {
        char* end = nullptr;
        errno = 0;
        const unsigned long long key = std::strtoull(word.c_str(), &end, 16);
        if (*end != '\0' || errno == ERANGE || word[0] == '-' || word[0] == '+')
          e.fail_attribute("warm_keys", "expected hexadecimal contact keys, got " + in_quotes(word));
        k.warm_contact_key.push_back(static_cast<std::uint64_t>(key));
      }
    }
    if (e.has("warm_contacts")) k.warm_contact_lambda = *e.reals("warm_contacts", 0);
    if (e.has("warm_rows")) k.warm_row_lambda = *e.reals("warm_rows", 0);
    k.source = e.location();
    spec_.keyframes.push_back(std::move(k));
  }

  void parse_solver(const XMLElement* el, const std::string& file) {
    const std::vector<std::string> keys = solver_option_keys();
    XmlElement e(el, file, std::vector<std::string_view>(keys.begin(), keys.end()));
    for (const tinyxml2::XMLAttribute* a = el->FirstAttribute(); a; a = a->Next()) {
      const std::string error = set_solver_option(spec_.solver, a->Name(), a->Value());
      if (!error.empty()) io::fail_at(file, a->GetLineNum(), e.name(), error);
    }
    no_children(e);
  }

  void parse_material(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, with_fields<MaterialSpec>({"name"}, "material"));
    MaterialSpec m;
    m.name = e.required_text("name");
    if (m.name.empty()) e.fail_attribute("name", "must not be empty");
    if (material_index_.count(m.name)) e.fail_attribute("name", "duplicate material name " + in_quotes(m.name));
    read_fields(e, "material", m);
    for (const XMLElement* child : e.children()) {
      if (std::string_view(child->Name()) != "grain")
        io::fail_at(file, child->GetLineNum(), child->Name(), "unexpected element inside <material> (expected grain)");
      if (m.structure.kind != StructureFieldKind::None)
        io::fail_at(file, child->GetLineNum(), "grain", "a material has at most one <grain>");
      m.structure = parse_grain(child, file);
    }
    m.source = e.location();
    material_index_[m.name] = static_cast<int>(spec_.materials.size());
    spec_.materials.push_back(std::move(m));
  }

  void parse_world(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, {"material", "thickness"});
    ShapeDefaults defaults;
    if (auto m = e.text("material")) defaults.material = name_ref(e, "material", *m);
    defaults.thickness = e.real_or("thickness", 0, Range::NonNegative);
    for (const XMLElement* child : e.children()) {
      ParsedShape s = parse_shape(child, file, /*in_body=*/false, defaults);
      spec_.world_shapes.push_back(std::move(s.spec));
      world_shape_material_.push_back(std::move(s.material));
    }
  }

  // ---- shapes ------------------------------------------------------------------------------

  ParsedShape parse_shape(const XMLElement* el, const std::string& file, bool in_body,
                          const ShapeDefaults& defaults) {
    const std::string_view type = el->Name();
    std::vector<std::string_view> allowed = attribute_list({"material", "thickness", "contype", "conaffinity"}, true);
    if (in_body) allowed.push_back("density");
    if (type == "plane") {
      if (in_body)
        io::fail_at(file, el->GetLineNum(), type, "planes are world geometry only (put it in <world>)");
      allowed.push_back("normal");
    } else if (type == "sphere") {
      allowed.push_back("radius");
    } else if (type == "capsule" || type == "cylinder") {
      allowed.insert(allowed.end(), {"radius", "half_length", "length"});
      if (type == "cylinder") allowed.push_back("segments");
    } else if (type == "box") {
      allowed.insert(allowed.end(), {"half_extents", "size"});
    } else if (type == "ellipsoid") {
      allowed.push_back("radii");
    } else if (type == "convex") {
      allowed.insert(allowed.end(), {"vertices", "file", "scale"});
    } else if (type == "mesh") {
      allowed.insert(allowed.end(), {"vertices", "triangles", "uvs", "file", "scale", "sdf_voxel", "sdf_band"});
    } else {
      io::fail_at(file, el->GetLineNum(), type,
                  std::string("unknown element in <") + (in_body ? "body" : "world") +
                      "> (expected " + (in_body ? "" : "plane, ") + "sphere, capsule, cylinder, box, ellipsoid, convex" +
                      (in_body ? ", mesh or grain)" : " or mesh)"));
    }
    XmlElement e(el, file, std::move(allowed));
    no_children(e);

    ParsedShape out;
    ShapeSpec& s = out.spec;
    s.source = e.location();
    if (type == "plane") {
      e.at_most_one_of({"normal", "quat", "euler", "axisangle"});
      s.type = ShapeType::Plane;
      s.local.pos = e.vec3_or("pos", Vec3::Zero());
      if (auto n = e.vec3("normal")) {
        const Real len = n->norm();
        if (!(len > Real(1e-9))) e.fail_attribute("normal", "must not be zero");
        s.local.rot = io::rotation_from_z(*n);
      } else {
        s.local.rot = e.rotation();
      }
    } else {
      s.local = e.pose();
    }
    if (type == "sphere") {
      s.type = ShapeType::Sphere;
      s.radius = e.required_real("radius", Range::Positive);
    } else if (type == "capsule" || type == "cylinder") {
      s.radius = e.required_real("radius", Range::Positive);
      e.exactly_one_of({"half_length", "length"});
      const Range range = type == "capsule" ? Range::NonNegative : Range::Positive;
      if (auto h = e.real("half_length", range)) s.half_length = *h;
      if (auto l = e.real("length", range)) s.half_length = *l / 2;
      if (type == "capsule") {
        s.type = ShapeType::Capsule;
      } else if (!e.has("segments")) {
        s.type = ShapeType::Cylinder;  // the exact cylinder
      } else {
        const int segments = *e.integer("segments", 3);
        if (segments > 1024) e.fail_attribute("segments", "must be at most 1024");
        s.type = ShapeType::ConvexMesh;
        s.vertices = io::cylinder_vertices(s.radius, s.half_length, segments);
      }
    } else if (type == "box") {
      s.type = ShapeType::Box;
      e.exactly_one_of({"half_extents", "size"});
      if (auto h = e.vec3("half_extents", Range::Positive)) s.half_extents = *h;
      if (auto z = e.vec3("size", Range::Positive)) s.half_extents = *z / 2;
    } else if (type == "ellipsoid") {
      s.type = ShapeType::Ellipsoid;
      const auto radii = e.vec3("radii", Range::Positive);
      if (!radii) e.fail("missing required attribute 'radii'");
      s.half_extents = *radii;
    } else if (type == "convex") {
      s.type = ShapeType::ConvexMesh;
      e.exactly_one_of({"vertices", "file"});
      if (auto v = e.reals("vertices", 0)) {
        if (v->size() % 3 != 0)
          e.fail_attribute("vertices", "expected x y z triples, got " + std::to_string(v->size()) + " numbers");
        for (std::size_t i = 0; i + 2 < v->size(); i += 3) s.vertices.emplace_back((*v)[i], (*v)[i + 1], (*v)[i + 2]);
      } else {
        s.vertices = read_obj_vertices(e, resource(e, "file", file, *e.text("file")));
      }
      if (s.vertices.size() < 4)
        e.fail("a convex shape needs at least 4 vertices (got " + std::to_string(s.vertices.size()) + ")");
    } else if (type == "mesh") {
      // A triangle mesh collided through its baked SDF (thesis ch. 6).
      s.type = ShapeType::ConvexMesh;
      if (e.has("file")) {
        if (e.has("vertices") || e.has("triangles") || e.has("uvs"))
          e.fail("give either file or vertices, triangles (and uvs)");
        auto mesh = load_triangle_mesh(resource(e, "file", file, *e.text("file")));
        if (!mesh) e.fail_attribute("file", mesh.error());
        s.vertices = std::move(mesh.value().vertices);
        s.triangles = std::move(mesh.value().triangles);
        s.uvs = std::move(mesh.value().corner_uvs);  // the file's first UV set, if it has one
      } else {
        const auto v = e.reals("vertices", 0);
        const auto t = e.reals("triangles", 0);
        if (!v || !t) e.fail("a mesh needs file, or vertices and triangles");
        if (v->size() % 3 != 0)
          e.fail_attribute("vertices", "expected x y z triples, got " + std::to_string(v->size()) + " numbers");
        for (std::size_t i = 0; i + 2 < v->size(); i += 3) s.vertices.emplace_back((*v)[i], (*v)[i + 1], (*v)[i + 2]);
        if (t->size() % 3 != 0)
          e.fail_attribute("triangles", "expected index triples, got " + std::to_string(t->size()) + " numbers");
        for (std::size_t i = 0; i + 2 < t->size(); i += 3) {
          std::array<int, 3> tri{};
          for (int k = 0; k < 3; ++k) {
            const Real x = (*t)[i + std::size_t(k)];
            if (!(x >= 0) || x != std::floor(x) || x >= Real(s.vertices.size()))
              e.fail_attribute("triangles", "triangle " + std::to_string(i / 3) + ": index " + std::to_string(x) +
                                                " is not a vertex index (0.." + std::to_string(s.vertices.size() - 1) + ")");
            tri[std::size_t(k)] = int(x);
          }
          s.triangles.push_back(tri);
        }
        // Texture coordinates per triangle corner: u v for corners 0, 1, 2 of each triangle.
        if (auto uv = e.reals("uvs", 0)) {
          if (uv->size() != 6 * s.triangles.size())
            e.fail_attribute("uvs", "expected 6 numbers (u v per corner) for each of the " +
                                        std::to_string(s.triangles.size()) + " triangles, got " +
                                        std::to_string(uv->size()));
          for (std::size_t i = 0; i + 1 < uv->size(); i += 2) s.uvs.emplace_back((*uv)[i], (*uv)[i + 1]);
        }
      }
      s.sdf_voxel_size = e.real_or("sdf_voxel", 0, Range::NonNegative);
      s.sdf_band = e.real_or("sdf_band", s.sdf_band, Range::NonNegative);
      if (s.sdf_band > limits::kMaxSdfBand)
        e.fail_attribute("sdf_band", "must be at most " + std::to_string(static_cast<int>(limits::kMaxSdfBand)) +
                                         " voxels (got " + in_quotes(*e.text("sdf_band")) + ")");
    }
    if (type == "convex" || type == "mesh") {
      if (e.has("scale")) {
        const Vec3 scale = scale_attribute(e);
        for (Vec3& p : s.vertices) p = p.cwiseProduct(scale);
      }
    }
    s.thickness = e.real_or("thickness", defaults.thickness, Range::NonNegative);
    s.density = e.real_or("density", defaults.density, Range::Positive);
    // Collision filter bits (MuJoCo's rule): 0 .. 2^31 - 1.
    if (auto t = e.integer("contype", 0)) s.contype = static_cast<std::uint32_t>(*t);
    if (auto a = e.integer("conaffinity", 0)) s.conaffinity = static_cast<std::uint32_t>(*a);
    if (auto m = e.text("material")) out.material = name_ref(e, "material", *m);
    else out.material = defaults.material;
    return out;
  }

  // <grain type="..."/>: a structure field for anisotropic friction (sim/structure_field.hpp).
  StructureFieldSpec parse_grain(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, {"type", "direction", "normal", "center", "width", "amplitude", "wavelength", "angle",
                            "texture"});
    no_children(e);
    StructureFieldSpec g;
    const std::string type = e.required_text("type");
    const auto kind = parse_structure_field_kind(type);
    if (!kind || *kind == StructureFieldKind::None)
      e.fail_attribute("type", "unknown grain type " + in_quotes(type) +
                                   " (expected constant, channel, spread, slalom, radial, expression or texture)");
    g.kind = *kind;
    using K = StructureFieldKind;
    // Only the attributes the type uses (a misplaced one is an error, not silently ignored).
    auto allow = [&](std::initializer_list<std::string_view> used) {
      for (std::string_view a : {"direction", "normal", "center", "width", "amplitude", "wavelength", "angle", "texture"})
        if (e.has(a) && std::find(used.begin(), used.end(), a) == used.end())
          e.fail_attribute(a, "is not used by grain type " + in_quotes(type));
    };
    switch (g.kind) {
      case K::Constant: allow({"direction"}); break;
      case K::Channel: case K::Spread: allow({"direction", "normal", "center", "width"}); break;
      case K::Slalom: allow({"direction", "normal", "center", "amplitude", "wavelength"}); break;
      case K::Radial: allow({"direction", "normal", "center"}); break;
      case K::Expression: allow({"direction", "normal", "center", "angle"}); break;
      case K::Texture: allow({"texture"}); break;
      case K::None: break;
    }
    g.direction = e.vec3_or("direction", g.direction);
    g.normal = e.vec3_or("normal", g.normal);
    g.center = e.vec3_or("center", g.center);
    g.width = e.real_or("width", g.width, Range::Positive);
    g.amplitude = e.real_or("amplitude", g.amplitude);
    g.wavelength = e.real_or("wavelength", g.wavelength, Range::Positive);
    if (g.kind == K::Expression) g.expression = e.required_text("angle");
    if (g.kind == K::Texture) {
      g.texture = e.required_text("texture");
      auto image = load_structure_texture(resource(e, "texture", file, g.texture));
      if (!image) e.fail_attribute("texture", image.error());
      g.image = std::make_shared<const StructureTexture>(std::move(image.value()));
    }
    if (g.direction.norm() == 0) e.fail_attribute("direction", "must not be zero");
    if (g.normal.norm() == 0) e.fail_attribute("normal", "must not be zero");
    if (g.kind != K::Constant && g.kind != K::Texture &&
        (g.direction - g.direction.dot(g.normal) / g.normal.squaredNorm() * g.normal).norm() <= 1e-6 * g.direction.norm())
      e.fail_attribute("direction", "must not be parallel to normal");
    if (g.kind == K::Expression) {
      auto program = detail::compile_expression(g.expression);
      if (!program) e.fail_attribute("angle", program.error());
    }
    return g;
  }

  // ---- bodies ------------------------------------------------------------------------------

  void parse_body(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file,
                 with_fields<BodySpec>(attribute_list({"name", "velocity", "angular_velocity", "fixed", "inertia", "com",
                                                       "density", "material", "thickness"},
                                                      true),
                                       "body"));
    BodySpec b;
    b.source = e.location();
    if (auto name = e.text("name")) {
      if (name->empty()) e.fail_attribute("name", "must not be empty");
      if (*name == "world") e.fail_attribute("name", "'world' is reserved for the fixed world frame");
      if (body_index_.count(*name)) e.fail_attribute("name", "duplicate body name " + in_quotes(*name));
      b.name = *name;
      body_index_[*name] = static_cast<int>(spec_.bodies.size());
    }
    b.pose = e.pose();
    b.linear_velocity = e.vec3_or("velocity", Vec3::Zero());
    b.angular_velocity = e.vec3_or("angular_velocity", Vec3::Zero());
    b.fixed = e.boolean("fixed").value_or(false);
    read_fields(e, "body", b);
    b.inertia = e.vec3_or("inertia", Vec3(-1, -1, -1), Range::Positive);
    b.com = e.vec3_or("com", Vec3::Zero());
    ShapeDefaults defaults;
    if (auto m = e.text("material")) defaults.material = name_ref(e, "material", *m);
    defaults.thickness = e.real_or("thickness", 0, Range::NonNegative);
    defaults.density = e.real_or("density", defaults.density, Range::Positive);
    std::vector<std::optional<NameRef>> materials;
    for (const XMLElement* child : e.children()) {
      if (std::string_view(child->Name()) == "grain") {
        if (b.structure.kind != StructureFieldKind::None)
          io::fail_at(file, child->GetLineNum(), "grain", "a body has at most one <grain>");
        b.structure = parse_grain(child, file);
        continue;
      }
      ParsedShape s = parse_shape(child, file, /*in_body=*/true, defaults);
      b.shapes.push_back(std::move(s.spec));
      materials.push_back(std::move(s.material));
    }
    if (!b.fixed && b.mass < 0 && b.shapes.empty())
      e.fail("a body needs shapes or a mass (give mass= or add shapes)");
    if (spec_.bodies.size() >= static_cast<std::size_t>(limits::kMaxBodyCount))
      e.fail("more than " + std::to_string(limits::kMaxBodyCount) + " bodies in one scene");
    spec_.bodies.push_back(std::move(b));
    body_shape_material_.push_back(std::move(materials));
  }

  // ---- particles ---------------------------------------------------------------------------

  void add_particle(ParticleSpec p, const std::string& name, const XmlElement& e, std::optional<NameRef> material) {
    if (spec_.particles.size() >= static_cast<std::size_t>(limits::kMaxParticleCount))
      e.fail("more than " + std::to_string(limits::kMaxParticleCount) + " particles in one scene");
    if (!name.empty()) {
      if (particle_index_.count(name)) e.fail_attribute("name", "duplicate particle name " + in_quotes(name));
      particle_index_[name] = static_cast<int>(spec_.particles.size());
    }
    spec_.particles.push_back(std::move(p));
    particle_material_.push_back(std::move(material));
  }

  void add_distance(int a, int b, Real compliance, const XmlElement& e) {
    DistanceSpec d;
    d.particle_a = a;
    d.particle_b = b;
    d.compliance = compliance;
    d.source = e.location();
    spec_.distances.push_back(d);
    pending_distances_.emplace_back();  // already resolved
  }

  void parse_particle(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, with_fields<ParticleSpec>({"name", "pos", "velocity", "material"}, "particle"));
    no_children(e);
    ParticleSpec p;
    p.source = e.location();
    if (!e.has("pos")) e.fail("missing required attribute 'pos'");
    p.position = *e.vec3("pos");
    p.velocity = e.vec3_or("velocity", Vec3::Zero());
    read_fields(e, "particle", p);
    std::optional<NameRef> material;
    if (auto m = e.text("material")) material = name_ref(e, "material", *m);
    const std::string name = e.text("name").value_or("");
    if (e.has("name") && name.empty()) e.fail_attribute("name", "must not be empty");
    add_particle(std::move(p), name, e, std::move(material));
  }

  // Per-particle mass of a generated particle set: mass= each, or total_mass= spread evenly.
  static Real generated_mass(const XmlElement& e, std::size_t count) {
    e.at_most_one_of({"mass", "total_mass"});
    if (auto m = e.real("mass", Range::NonNegative)) return *m;
    if (auto t = e.real("total_mass", Range::NonNegative)) return *t / static_cast<Real>(count);
    return Real(1);
  }

  void parse_rope(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file,
                 {"name", "start", "end", "segments", "mass", "total_mass", "radius", "compliance", "pin",
                  "material", "velocity", "self_collision"});
    no_children(e);
    if (!e.has("start")) e.fail("missing required attribute 'start'");
    if (!e.has("end")) e.fail("missing required attribute 'end'");
    if (!e.has("segments")) e.fail("missing required attribute 'segments'");
    const Vec3 start = *e.vec3("start");
    const Vec3 end = *e.vec3("end");
    const int segments = *e.integer("segments", 1);
    if (segments > limits::kMaxRopeSegments)
      e.fail_attribute("segments", "must be at most " + std::to_string(limits::kMaxRopeSegments));
    if (!((end - start).norm() > 0)) e.fail("start and end must differ");
    const std::string name = e.text("name").value_or("");
    const Real mass = generated_mass(e, static_cast<std::size_t>(segments) + 1);
    const Real radius = e.real_or("radius", Real(0.01), Range::Positive);
    const Real compliance = e.real_or("compliance", 0, Range::NonNegative);
    const Vec3 velocity = e.vec3_or("velocity", Vec3::Zero());
    const std::string pin = e.text("pin").value_or("none");
    bool pin_start = false, pin_end = false;
    if (pin == "start") pin_start = true;
    else if (pin == "end") pin_end = true;
    else if (pin == "both") pin_start = pin_end = true;
    else if (pin != "none") e.fail_attribute("pin", "expected none, start, end or both, got " + in_quotes(pin));
    std::optional<NameRef> material;
    if (auto m = e.text("material")) material = name_ref(e, "material", *m);

    const int first = static_cast<int>(spec_.particles.size());
    for (int i = 0; i <= segments; ++i) {
      ParticleSpec p;
      p.position = start + (end - start) * (static_cast<Real>(i) / static_cast<Real>(segments));
      p.velocity = velocity;
      const bool pinned = (i == 0 && pin_start) || (i == segments && pin_end);
      p.mass = pinned ? Real(0) : mass;
      p.radius = radius;
      p.source = e.location();
      add_particle(std::move(p), name.empty() ? "" : name + "[" + std::to_string(i) + "]", e, material);
    }
    for (int i = 0; i < segments; ++i) add_distance(first + i, first + i + 1, compliance, e);
    if (e.boolean("self_collision").value_or(false))  // its links against each other (a knot, a coil)
      spec_.self_collision_particles.push_back({first, segments + 1});
  }

  void parse_cloth(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file,
                 attribute_list({"name", "size", "segments", "mass", "total_mass", "radius", "compliance",
                                 "shear", "shear_compliance", "bend", "bend_compliance", "pin", "material",
                                 "velocity", "model", "E", "nu", "thickness", "bending", "density", "damping",
                                 "faces", "self_collision"},
                                true));
    no_children(e);
    if (!e.has("size")) e.fail("missing required attribute 'size'");
    if (!e.has("segments")) e.fail("missing required attribute 'segments'");
    const Vec2 size = *e.vec2("size", Range::Positive);
    int nx = 0, ny = 0;
    {
      const std::string text = *e.text("segments");
      const auto tokens = io::split_tokens(text);
      long long a = 0, b = 0;
      if (tokens.size() != 2 || !io::parse_int(tokens[0], a) || !io::parse_int(tokens[1], b))
        e.fail_attribute("segments", "expected two integers 'nx ny', got " + in_quotes(text));
      if (a < 1 || b < 1 || a > limits::kMaxClothSegments || b > limits::kMaxClothSegments)
        e.fail_attribute("segments", "each count must be in 1.." + std::to_string(limits::kMaxClothSegments));
      nx = static_cast<int>(a);
      ny = static_cast<int>(b);
    }
    const Pose pose = e.pose();
    const std::string name = e.text("name").value_or("");
    const std::size_t count = static_cast<std::size_t>(nx + 1) * static_cast<std::size_t>(ny + 1);
    const bool membrane = cloth_is_membrane(e);
    const Real mass = membrane ? Real(1) : generated_mass(e, count);  // membrane: lumped below
    const Real radius = e.real_or("radius", Real(0.01), Range::Positive);
    const Real compliance = e.real_or("compliance", 0, Range::NonNegative);
    const bool shear = e.boolean("shear").value_or(true);
    const Real shear_compliance = e.real_or("shear_compliance", compliance, Range::NonNegative);
    const bool bend = e.boolean("bend").value_or(false);
    const Real bend_compliance = e.real_or("bend_compliance", compliance, Range::NonNegative);
    const Vec3 velocity = e.vec3_or("velocity", Vec3::Zero());
    std::optional<NameRef> material;
    if (auto m = e.text("material")) material = name_ref(e, "material", *m);

    std::vector<char> pinned(count, 0);
    auto at = [&](int i, int j) { return static_cast<std::size_t>(j) * static_cast<std::size_t>(nx + 1) + static_cast<std::size_t>(i); };
    const std::string pin = e.text("pin").value_or("none");
    for (std::string_view token : io::split_tokens(pin)) {
      if (token == "none") continue;
      if (token == "corners") {
        pinned[at(0, 0)] = pinned[at(nx, 0)] = pinned[at(0, ny)] = pinned[at(nx, ny)] = 1;
      } else if (token == "x0" || token == "x1") {
        for (int j = 0; j <= ny; ++j) pinned[at(token == "x0" ? 0 : nx, j)] = 1;
      } else if (token == "y0" || token == "y1") {
        for (int i = 0; i <= nx; ++i) pinned[at(i, token == "y0" ? 0 : ny)] = 1;
      } else {
        const auto comma = token.find(':');
        long long i = -1, j = -1;
        if (comma == std::string_view::npos || !io::parse_int(token.substr(0, comma), i) ||
            !io::parse_int(token.substr(comma + 1), j))
          e.fail_attribute("pin", "expected none, corners, x0, x1, y0, y1 or i:j grid indices, got " + in_quotes(token));
        if (i < 0 || i > nx || j < 0 || j > ny)
          e.fail_attribute("pin", "grid index " + in_quotes(token) + " outside 0:0.." + std::to_string(nx) + ":" +
                                      std::to_string(ny));
        pinned[at(static_cast<int>(i), static_cast<int>(j))] = 1;
      }
    }

    const int first = static_cast<int>(spec_.particles.size());
    for (int j = 0; j <= ny; ++j) {
      for (int i = 0; i <= nx; ++i) {
        ParticleSpec p;
        const Vec3 local(size.x() * (static_cast<Real>(i) / static_cast<Real>(nx) - Real(0.5)),
                         size.y() * (static_cast<Real>(j) / static_cast<Real>(ny) - Real(0.5)), 0);
        p.position = pose.apply(local);
        p.velocity = velocity;
        p.mass = pinned[at(i, j)] ? Real(0) : mass;
        p.radius = radius;
        p.source = e.location();
        const std::string pname =
            name.empty() ? "" : name + "[" + std::to_string(i) + "," + std::to_string(j) + "]";
        add_particle(std::move(p), pname, e, material);
      }
    }
    auto id = [&](int i, int j) { return first + static_cast<int>(at(i, j)); };
    if (e.boolean("self_collision").value_or(false))  // its faces (faces= or the grid's) against its particles
      spec_.self_collision_particles.push_back({first, static_cast<int>(count)});
    if (membrane) return cloth_shell(e, first, nx, ny, pinned);
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i < nx; ++i) add_distance(id(i, j), id(i + 1, j), compliance, e);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i <= nx; ++i) add_distance(id(i, j), id(i, j + 1), compliance, e);
    if (shear) {
      for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
          add_distance(id(i, j), id(i + 1, j + 1), shear_compliance, e);
          add_distance(id(i + 1, j), id(i, j + 1), shear_compliance, e);
        }
      }
    }
    if (bend) {
      for (int j = 0; j <= ny; ++j)
        for (int i = 0; i + 2 <= nx; ++i) add_distance(id(i, j), id(i + 2, j), bend_compliance, e);
      for (int j = 0; j + 2 <= ny; ++j)
        for (int i = 0; i <= nx; ++i) add_distance(id(i, j), id(i, j + 2), bend_compliance, e);
    }
  }

  // ---- shells: <cloth model="membrane"> and <shell> (sim/shell.hpp) ----------------------------
  // <cloth model="distance|membrane">: distance (the default) keeps the distance constraints;
  // membrane makes the grid a shell (membrane rows, bending hinges) with a material instead.
  static bool cloth_is_membrane(const XmlElement& e) {
    const std::string model = e.text("model").value_or("distance");
    if (model != "distance" && model != "membrane")
      e.fail_attribute("model", "expected distance or membrane, got " + in_quotes(model));
    const bool membrane = model == "membrane";
    for (const char* a : {"mass", "total_mass", "compliance", "shear", "shear_compliance", "bend", "bend_compliance"})
      if (membrane && e.has(a)) e.fail_attribute(a, "not with model=\"membrane\" (density and thickness give the mass, E and nu the stiffness)");
    for (const char* a : {"E", "nu", "thickness", "bending", "density", "damping", "faces"})
      if (!membrane && e.has(a)) e.fail_attribute(a, "only with model=\"membrane\"");
    return membrane;
  }

  // The material attributes of a shell: E, nu, thickness, bending (D [N m]; 0 turns bending off),
  // density, damping.
  static ShellMaterialSpec shell_material(const XmlElement& e) {
    ShellMaterialSpec m;
    m.youngs_modulus = e.real_or("E", m.youngs_modulus, Range::Positive);
    m.poisson_ratio = e.real_or("nu", m.poisson_ratio, Range::NonNegative);
    if (!(m.poisson_ratio < Real(0.5))) e.fail_attribute("nu", "must be below 0.5");
    m.thickness = e.real_or("thickness", m.thickness, Range::Positive);
    m.bending = e.real_or("bending", m.bending, Range::NonNegative);
    m.density = e.real_or("density", m.density, Range::Positive);
    m.damping = e.real_or("damping", 0, Range::NonNegative);
    return m;
  }

  // The membrane cloth's grid (particles already added, pinned ones marked): two triangles per
  // cell split along (i, j)-(i+1, j+1), masses lumped from density × thickness (pinned: 0).
  void cloth_shell(const XmlElement& e, int first, int nx, int ny, const std::vector<char>& pinned) {
    ShellSpec shell;
    shell.name = e.text("name").value_or("");
    shell.material = shell_material(e);
    shell.source = e.location();
    auto id = [&](int i, int j) { return first + j * (nx + 1) + i; };
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        shell.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
        shell.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
      }
    std::vector<Vec3> points;
    for (std::size_t i = static_cast<std::size_t>(first); i < spec_.particles.size(); ++i) points.push_back(spec_.particles[i].position);
    std::vector<std::array<int, 3>> local = shell.triangles;
    for (auto& t : local)
      for (int& k : t) k -= first;
    const std::vector<Real> mass = shell_lumped_masses(points, local, shell.material.density * shell.material.thickness);
    for (std::size_t i = 0; i < points.size(); ++i)
      spec_.particles[static_cast<std::size_t>(first) + i].mass = pinned[i] ? Real(0) : mass[i];
    // A membrane is a surface, as a <shell> or a <softbody>: drawn as one and collided by its faces
    // unless faces="false" (a distance cloth's faces come from <particle_triangles>).
    if (e.boolean("faces").value_or(true))
      spec_.particle_triangles.insert(spec_.particle_triangles.end(), shell.triangles.begin(), shell.triangles.end());
    spec_.shells.push_back(std::move(shell));
  }

  // <shell>: a shell from a surface mesh file, mesh="part.obj" (read like <shape type="mesh">'s
  // file, vertices welded; contained like every referenced file) scaled by scale= and placed by
  // pos/euler, particles with lumped masses; or triangles="a b c  ..." over particles listed
  // before it (as the scene writer saves one).
  void parse_shell(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file,
                 attribute_list({"name", "mesh", "scale", "triangles", "E", "nu", "thickness", "bending", "density",
                                 "damping", "radius", "material", "faces", "velocity"},
                                true));
    no_children(e);
    const ShellMaterialSpec m = shell_material(e);
    e.exactly_one_of({"mesh", "triangles"});
    if (e.has("triangles")) {
      for (const char* a : {"scale", "radius", "material", "faces", "velocity", "pos", "euler", "quat", "axisangle"})
        if (e.has(a)) e.fail_attribute(a, "not with triangles= (the triangles name existing particles)");
      const std::vector<int> k = index_list(e, "triangles", 3, spec_.particles.size());
      ShellSpec sh;
      sh.name = e.text("name").value_or("");
      sh.material = m;
      sh.source = e.location();
      for (std::size_t i = 0; i < k.size(); i += 3) sh.triangles.push_back({k[i], k[i + 1], k[i + 2]});
      spec_.shells.push_back(std::move(sh));
      return;
    }
    auto mesh = load_triangle_mesh(resource(e, "mesh", file, *e.text("mesh")));
    if (!mesh) e.fail_attribute("mesh", mesh.error());
    std::vector<Vec3> points = std::move(mesh.value().vertices);
    if (e.has("scale")) {
      const Vec3 scale = scale_attribute(e);
      for (Vec3& p : points) p = p.cwiseProduct(scale);
    }
    std::optional<NameRef> material;
    const ShellPlacement place = particle_placement(e, points.size(), material);
    std::string error;
    const int first = add_shell(spec_, points, mesh.value().triangles, m, place, e.text("name").value_or(""), error);
    if (first < 0) e.fail_attribute("mesh", error);
    spec_.shells.back().source = e.location();
    for (std::size_t i = static_cast<std::size_t>(first); i < spec_.particles.size(); ++i) {
      spec_.particles[i].source = e.location();
      particle_material_.push_back(material);
    }
  }

  // <softbody>: an FEM soft body (sim/soft_body.hpp) over a generated box of tetrahedra,
  // box="lx ly lz" divisions="nx ny nz" (6 tets per cell), or over a tetrahedral mesh file,
  // mesh="part.msh" (Gmsh, TetGen .node/.ele, VTK .vtk/.vtu; sim/tet_mesh_io.hpp) scaled by
  // scale="s" or "sx sy sz"; placed by pos/euler.
  void parse_softbody(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file,
                 attribute_list({"name", "box", "sphere", "divisions", "mesh", "scale", "velocity", "E", "nu", "lambda", "mu",
                                 "density", "damping", "model", "compliance", "radius", "pin", "material", "faces", "tets",
                                 "self_collision", "render_mesh", "render_scale", "render_pos", "render_quat"},
                                true));
    const SoftMaterialSpec m = soft_material(e);
    if (e.has("tets")) {
      soft_body_over_particles(e, m);
      soft_body_render_mesh(e, file, Vec3::Ones(), soft_body_render_pose(e));
      return soft_body_children(e, nullptr, -1);
    }
    for (const char* a : {"render_pos", "render_quat"})
      if (e.has(a)) e.fail_attribute(a, "only with tets= (the body's pos and rotation place its render mesh)");
    e.exactly_one_of({"box", "sphere", "mesh"});
    const TetMesh mesh = e.has("mesh") ? soft_body_mesh_file(e, file) : soft_body_box(e);
    std::optional<NameRef> material;
    const SoftBodyPlacement place = particle_placement(e, mesh.points.size(), material);
    const std::string name = e.text("name").value_or("");

    std::string error;
    const int first = add_soft_body(spec_, mesh, m, place, name, error);
    if (first < 0) e.fail(error);
    spec_.soft_bodies.back().source = e.location();
    spec_.soft_bodies.back().self_collision = e.boolean("self_collision").value_or(false);
    soft_body_render_mesh(e, file, e.has("mesh") && e.has("scale") ? scale_attribute(e) : Vec3::Ones(), place.pose);
    for (std::size_t i = static_cast<std::size_t>(first); i < spec_.particles.size(); ++i) {
      spec_.particles[i].source = e.location();
      particle_material_.push_back(material);
    }
    // pin="x0 z1 ...": the particles on those faces of the mesh's bounding box (in its own frame)
    // get zero mass (fixed in space).
    Vec3 lo = mesh.points.front(), hi = mesh.points.front();
    for (const Vec3& p : mesh.points) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    const std::string pin = e.text("pin").value_or("none");
    for (std::string_view token : io::split_tokens(pin)) {
      if (token == "none") continue;
      if (token.size() != 2 || (token[0] != 'x' && token[0] != 'y' && token[0] != 'z') || (token[1] != '0' && token[1] != '1'))
        e.fail_attribute("pin", "expected none or faces x0 x1 y0 y1 z0 z1, got " + in_quotes(token));
      const int axis = token[0] - 'x';
      const Real side = token[1] == '0' ? lo[axis] : hi[axis];
      const Real tolerance = Real(1e-9) * std::max(hi[axis] - lo[axis], Real(1e-12));
      for (std::size_t i = 0; i < mesh.points.size(); ++i)
        if (std::abs(mesh.points[i][axis] - side) <= tolerance) spec_.particles[static_cast<std::size_t>(first) + i].mass = 0;
    }
    soft_body_children(e, &mesh, first);
  }

  // render_mesh="part.obj" on <softbody> (issue 14 item 3): a surface mesh file (read through
  // the mesh loader like <shape type="mesh">'s file; contained like every referenced file),
  // scaled by render_scale (default: the body's own scale= of mesh=, else 1) and placed with the
  // body (tets=: render_pos, render_quat, as the writer saves it), embedded in the body's tets.
  void soft_body_render_mesh(const XmlElement& e, const std::string& file, const Vec3& body_scale, const Pose& pose) {
    if (!e.has("render_mesh")) {
      for (const char* a : {"render_scale", "render_pos", "render_quat"})
        if (e.has(a)) e.fail_attribute(a, "only with render_mesh=");
      return;
    }
    const std::string written = *e.text("render_mesh");
    const std::string path = resource(e, "render_mesh", file, written);
    auto mesh = load_triangle_mesh(path);
    if (!mesh) e.fail_attribute("render_mesh", mesh.error());
    const Vec3 scale = e.has("render_scale") ? scale_attribute(e, "render_scale") : body_scale;
    std::vector<Vec3> rest;
    for (const ParticleSpec& p : spec_.particles) rest.push_back(p.position);
    SoftBodySpec& body = spec_.soft_bodies.back();
    auto made = make_soft_render_mesh(std::move(mesh.value().vertices), std::move(mesh.value().triangles), scale, pose,
                                      body.tets, rest);
    if (!made) e.fail_attribute("render_mesh", in_quotes(written) + ": " + made.error());
    made.value().file = written;
    made.value().path = path;
    body.render_mesh = std::make_shared<const SoftRenderMesh>(std::move(made.value()));
  }

  // render_pos="x y z" render_quat="w x y z" of <softbody tets=...>: its render mesh's placement.
  static Pose soft_body_render_pose(const XmlElement& e) {
    Pose p;
    p.pos = e.vec3_or("render_pos", Vec3::Zero());
    if (auto q = e.reals("render_quat", 4)) {
      Quat r((*q)[0], (*q)[1], (*q)[2], (*q)[3]);
      const Real n = r.norm();
      if (!(n > Real(1e-9))) e.fail_attribute("render_quat", "must not be zero");
      r.coeffs() /= n;
      p.rot = r;
    }
    return p;
  }

  // ---- soft-body actuation groups and attachments (issue 14 items 5 and 7) -----------------
  // Children of <softbody>:
  //   <group name="chamber" min="x y z" max="x y z" pressure="0"/>: the tets whose centroid lies in
  //     the box (the mesh's own frame, after scale) join the active-pressure group `name` (shared
  //     by every soft body naming it; Control::soft_pressure; `pressure` [Pa] the initial value).
  //     Over particles (tets=): <group name tets="i j ..."/> lists the body's tet indices.
  //   <attach body="palm" min="x y z" max="x y z" compliance="0"/>: the particles in the box (mesh
  //     frame) are pinned where they start to the body ("world" too; constraint/attachment_rows.hpp).
  // `mesh` is null for the tets= form, whose particles are already placed.
  void soft_body_children(const XmlElement& parent, const TetMesh* mesh, int first) {
    SoftBodySpec& body = spec_.soft_bodies.back();
    for (const XMLElement* c : parent.children()) {
      const std::string_view name = c->Name();
      if (name == "group") {
        XmlElement g(c, parent.file(), {"name", "min", "max", "tets", "pressure"});
        no_children(g);
        const int group = soft_group(g);
        if (body.tet_group.empty()) body.tet_group.assign(body.tets.size(), -1);
        if (mesh) {
          if (g.has("tets")) g.fail_attribute("tets", "only in a <softbody tets=...> (give min and max here)");
          const Vec3 lo = *required_vec3(g, "min"), hi = *required_vec3(g, "max");
          int count = 0;
          for (std::size_t t = 0; t < mesh->tets.size(); ++t) {
            Vec3 centroid = Vec3::Zero();
            for (int k = 0; k < 4; ++k) centroid += mesh->points[mesh->tets[t][k]] / 4;
            if ((centroid.array() >= lo.array()).all() && (centroid.array() <= hi.array()).all()) {
              body.tet_group[t] = group;
              ++count;
            }
          }
          if (count == 0) g.fail("no tet's centroid lies in the box min..max");
        } else {
          if (g.has("min") || g.has("max")) g.fail("with <softbody tets=...> give the group's tets=");
          if (!g.has("tets")) g.fail("missing required attribute 'tets'");
          for (int t : index_list(g, "tets", 1, body.tets.size())) body.tet_group[static_cast<std::size_t>(t)] = group;
        }
      } else if (name == "attach" && mesh) {
        XmlElement a(c, parent.file(), {"body", "min", "max", "compliance"});
        no_children(a);
        const Vec3 lo = *required_vec3(a, "min"), hi = *required_vec3(a, "max");
        const Real compliance = a.real_or("compliance", 0, Range::NonNegative);
        int count = 0;
        for (std::size_t i = 0; i < mesh->points.size(); ++i) {
          const Vec3& x = mesh->points[i];
          if (!((x.array() >= lo.array()).all() && (x.array() <= hi.array()).all())) continue;
          const int p = first + static_cast<int>(i);
          add_attachment(a, p, spec_.particles[static_cast<std::size_t>(p)].position, false, compliance);
          ++count;
        }
        if (count == 0) a.fail("no particle lies in the box min..max");
      } else {
        io::fail_at(parent.file(), c->GetLineNum(), name,
                    mesh ? "unexpected element inside <softbody> (expected group or attach)"
                         : "unexpected element inside <softbody tets=...> (expected group; attachments are <attachment>)");
      }
    }
  }

  static std::optional<Vec3> required_vec3(const XmlElement& e, const char* attribute) {
    if (!e.has(attribute)) e.fail(std::string("missing required attribute '") + attribute + "'");
    return e.vec3(attribute);
  }

  // The group named by <group name pressure>, made at its first mention.
  int soft_group(const XmlElement& g) {
    const std::string name = g.required_text("name");
    const std::optional<Real> pressure = g.real("pressure");
    for (std::size_t i = 0; i < spec_.soft_groups.size(); ++i)
      if (spec_.soft_groups[i].name == name) {
        if (pressure && *pressure != spec_.soft_groups[i].pressure)
          g.fail_attribute("pressure", "group " + in_quotes(name) + " was given another pressure before");
        return static_cast<int>(i);
      }
    SoftGroupSpec spec;
    spec.name = name;
    spec.pressure = pressure.value_or(0);
    spec.source = g.location();
    spec_.soft_groups.push_back(spec);
    return static_cast<int>(spec_.soft_groups.size()) - 1;
  }

  void add_attachment(const XmlElement& e, int particle, const Vec3& point, bool local, Real compliance) {
    ParticleAttachmentSpec a;
    a.particle = particle;
    a.compliance = compliance;
    a.local_point = point;
    a.source = e.location();
    spec_.attachments.push_back(a);
    pending_attachments_.push_back(PendingAttachment{name_ref(e, "body", e.required_text("body")), point, local});
  }

  // <attachment particle="i" body="name" point="x y z" compliance="0"/>: one particle pinned to a
  // point given in the body's frame (as the scene writer saves attachments).
  void parse_attachment(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, {"particle", "body", "point", "compliance"});
    no_children(e);
    if (!e.has("particle")) e.fail("missing required attribute 'particle'");
    const std::vector<int> p = index_list(e, "particle", 1, spec_.particles.size());
    if (p.size() != 1) e.fail_attribute("particle", "expected one particle index");
    add_attachment(e, p[0], *required_vec3(e, "point"), true, e.real_or("compliance", 0, Range::NonNegative));
  }


  // The placement attributes of <softbody> and <shell mesh> (pose, velocity, radius, faces,
  // material) for `count` new particles, refused beyond the scene's particle limit.
  SoftBodyPlacement particle_placement(const XmlElement& e, std::size_t count, std::optional<NameRef>& material) {
    if (spec_.particles.size() + count > static_cast<std::size_t>(limits::kMaxParticleCount))
      e.fail("more than " + std::to_string(limits::kMaxParticleCount) + " particles in one scene");
    SoftBodyPlacement place;
    place.pose = e.pose();
    place.velocity = e.vec3_or("velocity", Vec3::Zero());
    place.particle_radius = e.real_or("radius", Real(0.005), Range::Positive);
    place.faces = e.boolean("faces").value_or(true);
    if (auto mat = e.text("material")) material = name_ref(e, "material", *mat);
    return place;
  }

  // <softbody box divisions>: the generated block, 6 tets per cell, centred at the origin (or a ball).
  static TetMesh soft_body_box(const XmlElement& e) {
    for (const char* a : {"scale"})
      if (e.has(a)) e.fail_attribute(a, "only with mesh= (box= gives the size)");
    int n[3] = {1, 1, 1};
    if (auto text = e.text("divisions")) {
      const auto tokens = io::split_tokens(*text);
      long long v[3] = {0, 0, 0};
      if (tokens.size() != 3 || !io::parse_int(tokens[0], v[0]) || !io::parse_int(tokens[1], v[1]) ||
          !io::parse_int(tokens[2], v[2]))
        e.fail_attribute("divisions", "expected three integers 'nx ny nz', got " + in_quotes(*text));
      for (int k = 0; k < 3; ++k) {
        if (v[k] < 1 || v[k] > 64) e.fail_attribute("divisions", "each count must be in 1..64");
        n[k] = static_cast<int>(v[k]);
      }
    }
    // <softbody sphere="r" divisions="n n n">: a ball (ball_tet_mesh: the box of side 2r, mapped).
    if (e.has("sphere")) {
      if (n[0] != n[1] || n[1] != n[2]) e.fail_attribute("divisions", "a sphere takes equal divisions 'n n n'");
      return ball_tet_mesh(*e.real("sphere", Range::Positive), n[0]);
    }
    return box_tet_mesh(*e.vec3("box", Range::Positive), n[0], n[1], n[2]);
  }

  // <softbody mesh="file" scale>: the tets of a mesh file beside the scene (contained like every
  // referenced file), in the file's own frame scaled about its origin. The readers' errors name
  // the mesh file and its line; the attribute's line is added.
  TetMesh soft_body_mesh_file(const XmlElement& e, const std::string& file) {
    if (e.has("divisions")) e.fail_attribute("divisions", "only with box= (the mesh file gives the tets)");
    const std::string path = resource(e, "mesh", file, *e.text("mesh"));
    auto read = read_tet_mesh(path);
    if (!read.ok()) e.fail_attribute("mesh", read.error());
    TetMesh mesh = std::move(read.value());
    if (e.has("scale")) {
      const Vec3 scale = scale_attribute(e);
      for (Vec3& p : mesh.points) p = p.cwiseProduct(scale);
    }
    return mesh;
  }

  // The material attributes of <softbody>: model, compliance, E and nu or lambda and mu, density, damping.
  static SoftMaterialSpec soft_material(const XmlElement& e) {
    SoftMaterialSpec m;
    const std::string model = e.text("model").value_or("neohookean");
    if (model == "neohookean") m.model = SoftModel::NeoHookean;
    else if (model == "corotational") m.model = SoftModel::Corotational;
    else e.fail_attribute("model", "expected neohookean or corotational, got " + in_quotes(model));
    const std::string compliance = e.text("compliance").value_or("full");
    if (compliance == "full") m.compliance = SoftCompliance::Full;
    else if (compliance == "diagonal") m.compliance = SoftCompliance::Diagonal;
    else e.fail_attribute("compliance", "expected full or diagonal, got " + in_quotes(compliance));
    if (e.has("lambda") || e.has("mu")) {
      if (e.has("E") || e.has("nu")) e.fail("give either E and nu or lambda and mu, not both");
      if (!e.has("lambda") || !e.has("mu")) e.fail("lambda and mu go together");
      m.lame_lambda = *e.real("lambda", Range::NonNegative);
      m.lame_mu = *e.real("mu", Range::Positive);
    } else {
      m.youngs_modulus = e.real_or("E", m.youngs_modulus, Range::Positive);
      m.poisson_ratio = e.real_or("nu", m.poisson_ratio, Range::NonNegative);
    }
    m.density = e.real_or("density", m.density, Range::Positive);
    m.damping = e.real_or("damping", 0, Range::NonNegative);
    return m;
  }

  // Integers of a list attribute, `per` at a time, each in [0, below).
  static std::vector<int> index_list(const XmlElement& e, const char* attribute, std::size_t per, std::size_t below) {
    const std::string text = *e.text(attribute);
    std::vector<int> out;
    for (std::string_view token : io::split_tokens(text)) {
      long long v = -1;
      if (!io::parse_int(token, v) || v < 0 || static_cast<std::size_t>(v) >= below)
        e.fail_attribute(attribute, "expected particle indices in 0.." + std::to_string(below) + ", got " + in_quotes(token));
      out.push_back(static_cast<int>(v));
    }
    if (out.empty() || out.size() % per) e.fail_attribute(attribute, "expected groups of " + std::to_string(per) + " particle indices");
    return out;
  }

  // <softbody tets="a b c d  ..."> over particles listed before it (as the scene writer saves one).
  void soft_body_over_particles(const XmlElement& e, const SoftMaterialSpec& m) {
    for (const char* a : {"box", "sphere", "divisions", "velocity", "radius", "pin", "material", "faces", "pos", "euler", "quat", "axisangle"})
      if (e.has(a)) e.fail_attribute(a, "not with tets= (the tets name existing particles)");
    const std::vector<int> k = index_list(e, "tets", 4, spec_.particles.size());
    SoftBodySpec b;
    b.name = e.text("name").value_or("");
    b.material = m;
    b.self_collision = e.boolean("self_collision").value_or(false);
    b.source = e.location();
    for (std::size_t i = 0; i < k.size(); i += 4) b.tets.push_back({k[i], k[i + 1], k[i + 2], k[i + 3]});
    spec_.soft_bodies.push_back(std::move(b));
  }

  // <particle_triangles triangles="a b c  ...">: faces collided against SDFs (as the writer saves them).
  void parse_particle_triangles(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, {"triangles"});
    no_children(e);
    if (!e.has("triangles")) e.fail("missing required attribute 'triangles'");
    const std::vector<int> k = index_list(e, "triangles", 3, spec_.particles.size());
    for (std::size_t i = 0; i < k.size(); i += 3) spec_.particle_triangles.push_back({k[i], k[i + 1], k[i + 2]});
  }

  // <self_collision first="i" count="n"/>: particles i..i+n-1 collide with their own surface (as
  // the writer saves a <cloth self_collision="true">'s range).
  void parse_self_collision(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, {"first", "count"});
    no_children(e);
    for (const char* a : {"first", "count"})
      if (!e.has(a)) e.fail(std::string("missing required attribute '") + a + "'");
    const int first = index_list(e, "first", 1, spec_.particles.size()).front();
    const Real count = *e.real("count", Range::Positive);
    if (count != std::floor(count) || first + count > static_cast<Real>(spec_.particles.size()))
      e.fail_attribute("count", "expected a whole number of particles after 'first', at most " +
                                    std::to_string(spec_.particles.size() - static_cast<std::size_t>(first)));
    spec_.self_collision_particles.push_back({first, static_cast<int>(count)});
  }

  void parse_distance(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file, {"a", "b", "rest", "compliance"});
    no_children(e);
    DistanceSpec d;
    d.source = e.location();
    PendingDistance pending;
    pending.a = name_ref(e, "a", e.required_text("a"));
    pending.b = name_ref(e, "b", e.required_text("b"));
    if (pending.a.name == pending.b.name) e.fail_attribute("b", "a distance needs two different particles");
    d.rest_length = e.real_or("rest", -1, Range::NonNegative);
    d.compliance = e.real_or("compliance", 0, Range::NonNegative);
    spec_.distances.push_back(d);
    pending_distances_.push_back(std::move(pending));
  }

  // ---- joints ------------------------------------------------------------------------------

  void parse_joint(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file,
                 with_fields<JointSpec>(
                     attribute_list({"name", "type", "parent", "child", "axis", "limit", "linear_stiffness", "angular_stiffness"},
                                    true),
                     "joint"));
    JointSpec j;
    j.source = e.location();
    PendingJoint pending;
    if (auto name = e.text("name")) {
      if (name->empty()) e.fail_attribute("name", "must not be empty");
      if (joint_names_.count(*name)) e.fail_attribute("name", "duplicate joint name " + in_quotes(*name));
      joint_names_[*name] = static_cast<int>(spec_.joints.size());
      j.name = *name;
    }
    const std::string type = e.required_text("type");
    if (type == "fixed") j.type = JointType::Fixed;
    else if (type == "revolute") j.type = JointType::Revolute;
    else if (type == "prismatic") j.type = JointType::Prismatic;
    else if (type == "ball") j.type = JointType::Ball;
    else e.fail_attribute("type", "expected fixed, revolute, prismatic or ball, got " + in_quotes(type));
    const bool has_axis = j.type == JointType::Revolute || j.type == JointType::Prismatic;

    pending.parent = name_ref(e, "parent", e.text("parent").value_or("world"));
    pending.child = name_ref(e, "child", e.required_text("child"));
    if (pending.child.name == "world") e.fail_attribute("child", "the child must be a body, not the world");
    if (pending.parent.name == pending.child.name)
      e.fail_attribute("child", "a joint cannot connect body " + in_quotes(pending.child.name) + " to itself");

    if (auto axis = e.vec3("axis")) {
      if (!has_axis) e.fail_attribute("axis", "only revolute and prismatic joints have an axis");
      const Real n = axis->norm();
      if (!(n > Real(1e-9))) e.fail_attribute("axis", "must not be zero");
      j.axis = *axis / n;
    }
    if (auto limit = e.vec2("limit")) {
      if (!has_axis) e.fail_attribute("limit", "only revolute and prismatic joints have limits");
      if (!((*limit)[0] <= (*limit)[1])) e.fail_attribute("limit", "lower limit above upper limit");
      j.limited = true;
      j.lower = (*limit)[0];
      j.upper = (*limit)[1];
    }
    e.at_most_one_of({"linear_compliance", "linear_stiffness"});
    e.at_most_one_of({"angular_compliance", "angular_stiffness"});
    read_fields(e, "joint", j);
    if (auto k = e.real("linear_stiffness", Range::Positive)) j.linear_compliance = 1 / *k;
    if (auto k = e.real("angular_stiffness", Range::Positive)) j.angular_compliance = 1 / *k;

    if (e.has_pose()) pending.world_frame = e.pose();
    bool seen_drive = false;
    for (const XMLElement* child : e.children()) {
      const std::string_view name = child->Name();
      if (name == "parent_frame" || name == "child_frame") {
        XmlElement f(child, file, attribute_list({}, true));
        no_children(f);
        std::optional<Pose>& slot = name == "parent_frame" ? pending.frame_a : pending.frame_b;
        if (slot) f.fail("given twice");
        if (pending.world_frame)
          f.fail("cannot be combined with pose attributes on the <joint> (give the frame one way)");
        slot = f.pose();
      } else if (name == "drive") {
        if (seen_drive) io::fail_at(file, child->GetLineNum(), name, "given twice");
        seen_drive = true;
        parse_drive(child, file, j, /*partial=*/false);
      } else {
        io::fail_at(file, child->GetLineNum(), name,
                    "unknown element in <joint> (expected parent_frame, child_frame or drive)");
      }
    }
    spec_.joints.push_back(std::move(j));
    pending_joints_.push_back(std::move(pending));
  }

  // <drive> of a <joint> (`partial` false: `mode` is required, the rest default as JointSpec's),
  // or of a joint override in <robot> (`partial`: every attribute optional, replacing only its
  // own field of the imported drive).
  static void parse_drive(const XMLElement* el, const std::string& file, JointSpec& j, bool partial) {
    XmlElement d(el, file, with_fields<JointSpec>({"mode"}, "drive"));
    no_children(d);
    if (j.type != JointType::Revolute && j.type != JointType::Prismatic)
      d.fail("only revolute and prismatic joints have drives");
    if (auto mode = partial ? d.text("mode") : std::optional<std::string>(d.required_text("mode"))) {
      if (*mode == "position") j.drive = DriveMode::Position;
      else if (*mode == "velocity") j.drive = DriveMode::Velocity;
      else if (*mode == "none") j.drive = DriveMode::None;
      else d.fail_attribute("mode", "expected position, velocity or none, got " + in_quotes(*mode));
    }
    read_fields(d, "drive", j);
    check_drive(d, j.drive, j.stiffness, j.damping);
  }

  static void check_drive(const XmlElement& e, DriveMode mode, Real stiffness, Real damping) {
    if (mode == DriveMode::Position && !(stiffness > 0)) e.fail("a position drive needs stiffness > 0");
    if (mode == DriveMode::Velocity && !(damping > 0)) e.fail("a velocity drive needs damping > 0");
  }

  // ---- robots ------------------------------------------------------------------------------

  // <robot file="..."/>: imports a URDF or MJCF file (sim/robot_import.hpp) and appends it
  // (append_robot); the scene's dt and gravity win over an MJCF <option>, as with <include>.
  void parse_robot(const XMLElement* el, const std::string& file) {
    XmlElement e(el, file,
                 attribute_list({"file", "format", "fixed_base", "self_collision", "prefix", "drive", "stiffness", "damping",
                                 "density", "material"},
                                true));
    RobotIncludeSpec r;
    r.source = e.location();
    r.file = e.required_text("file");
    if (r.file.empty()) e.fail_attribute("file", "must not be empty");
    r.path = resource(e, "file", file, r.file);
    if (auto format = e.text("format")) {
      if (*format != "urdf" && *format != "mjcf")
        e.fail_attribute("format", "expected urdf or mjcf, got " + in_quotes(*format));
      r.format = *format;
    } else {
      std::string ext = fs::path(r.file).extension().string();
      for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (ext == ".urdf") r.format = "urdf";
      else if (ext == ".xml" || ext == ".mjcf") r.format = "mjcf";
      else e.fail_attribute("file", "cannot tell the format from " + in_quotes(r.file) + " (give format=\"urdf\" or \"mjcf\")");
    }
    r.base = e.pose();
    r.base.rot.normalize();
    // URDF: the root link is pinned unless fixed_base="false"; MJCF files say themselves what is
    // welded to the world, and fixed_base="true" pins a top-level free-joint body.
    r.fixed_base = e.boolean("fixed_base").value_or(r.format == "urdf");
    r.self_collision = e.boolean("self_collision").value_or(true);
    r.prefix = e.text("prefix").value_or("");
    r.density = e.real_or("density", r.density, Range::Positive);
    if (auto drive = e.text("drive")) {
      if (*drive == "position") r.drive = DriveMode::Position;
      else if (*drive == "velocity") r.drive = DriveMode::Velocity;
      else if (*drive != "none") e.fail_attribute("drive", "expected position, velocity or none, got " + in_quotes(*drive));
      if (r.format != "urdf" && r.drive != DriveMode::None)
        e.fail_attribute("drive", "only URDF joints take their drive from <robot> (MJCF actuators define theirs; "
                                  "set one joint's with a <joint><drive/></joint> override)");
    }
    r.stiffness = e.real_or("stiffness", 0, Range::NonNegative);
    r.damping = e.real_or("damping", 0, Range::NonNegative);
    if ((e.has("stiffness") || e.has("damping")) && r.drive == DriveMode::None)
      e.fail("stiffness and damping need drive=\"position\" or \"velocity\"");
    check_drive(e, r.drive, r.stiffness, r.damping);
    std::optional<NameRef> material;
    if (auto m = e.text("material")) {
      r.material = *m;
      material = name_ref(e, "material", *m);
    }

    ImportOptions options;
    options.load_visual_meshes = true;  // drawn, never simulated (BodySpec::visuals)
    options.density = r.density;
    options.name_prefix = r.prefix;
    options.urdf_drive = r.drive;
    options.urdf_drive_stiffness = r.stiffness;
    options.urdf_drive_damping = r.damping;
    const auto start = std::chrono::steady_clock::now();
    auto imported = r.format == "urdf" ? import_urdf(r.path, options) : import_mjcf(r.path, options);
    if (!imported) e.fail_attribute("file", "cannot import " + in_quotes(r.file) + ": " + imported.error());
    const ImportResult& robot = imported.value();
    std::error_code ec;
    if (const fs::path absolute = fs::absolute(fs::path(r.path), ec); !ec) r.path = absolute.lexically_normal().generic_string();

    r.first_material = static_cast<int>(spec_.materials.size());
    r.first_world_shape = static_cast<int>(spec_.world_shapes.size());
    r.first_body = static_cast<int>(spec_.bodies.size());
    r.first_joint = static_cast<int>(spec_.joints.size());
    for (const BodySpec& b : robot.scene.bodies)
      if (body_index_.count(b.name))
        e.fail("body " + in_quotes(b.name) + " of " + in_quotes(r.file) + " is already in the scene (set prefix=)");
    for (const JointSpec& j : robot.scene.joints)
      if (joint_names_.count(j.name))
        e.fail("joint " + in_quotes(j.name) + " of " + in_quotes(r.file) + " is already in the scene (set prefix=)");
    const Real dt = spec_.dt;
    const Vec3 gravity = spec_.gravity;
    if (auto appended = append_robot(spec_, robot, r.base, r.fixed_base); !appended) e.fail(appended.error());
    spec_.dt = dt;
    spec_.gravity = gravity;
    r.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.material_count = static_cast<int>(spec_.materials.size()) - r.first_material;
    r.world_shape_count = static_cast<int>(spec_.world_shapes.size()) - r.first_world_shape;
    r.body_count = static_cast<int>(spec_.bodies.size()) - r.first_body;
    r.joint_count = static_cast<int>(spec_.joints.size()) - r.first_joint;
    r.warnings = robot.warnings;
    r.no_collision_pairs = robot.no_collision_body_pairs;
    r.has_timestep = robot.has_timestep;
    r.file_dt = robot.scene.dt;
    r.has_gravity = robot.has_gravity;
    r.file_gravity = robot.scene.gravity;

    // Names and material references as if the parts had been written out here.
    for (int m = r.first_material; m < r.first_material + r.material_count; ++m)
      material_index_.emplace(spec_.materials[static_cast<std::size_t>(m)].name, m);
    auto shape_material = [&](const ShapeSpec& s) { return s.material < 0 ? material : std::nullopt; };
    for (int w = r.first_world_shape; w < r.first_world_shape + r.world_shape_count; ++w)
      world_shape_material_.push_back(shape_material(spec_.world_shapes[static_cast<std::size_t>(w)]));
    for (int b = r.first_body; b < r.first_body + r.body_count; ++b) {
      const BodySpec& body = spec_.bodies[static_cast<std::size_t>(b)];
      body_index_[body.name] = b;
      std::vector<std::optional<NameRef>> materials;
      for (const ShapeSpec& s : body.shapes) materials.push_back(shape_material(s));
      body_shape_material_.push_back(std::move(materials));
    }
    for (int j = r.first_joint; j < r.first_joint + r.joint_count; ++j) {
      joint_names_[spec_.joints[static_cast<std::size_t>(j)].name] = j;
      PendingJoint resolved;
      resolved.resolved = true;
      pending_joints_.push_back(std::move(resolved));
      r.imported_joints.push_back(spec_.joints[static_cast<std::size_t>(j)]);
    }

    // Overrides: initial joint coordinates first (they pose the bodies the rest is compared to),
    // then body and joint fields in document order.
    for (const XMLElement* child : e.children())
      if (std::string_view(child->Name()) == "joint" && child->Attribute("position"))
        set_robot_joint_position(child, file, r);
    // A joint whose limits exclude its zero coordinate (the Allegro thumb's base) starts at the
    // nearest limit, as if a <joint position> said so; not written back (re-reading repeats it).
    for (int j = r.first_joint; j < r.first_joint + r.joint_count; ++j) {
      const JointSpec& joint = spec_.joints[static_cast<std::size_t>(j)];
      const bool positioned = std::any_of(r.joint_positions.begin(), r.joint_positions.end(),
                                          [&](const auto& p) { return p.first == joint.name; });
      const bool has_axis = joint.type == JointType::Revolute || joint.type == JointType::Prismatic;
      if (!positioned && has_axis && joint.limited && (joint.lower > 0 || joint.upper < 0))
        if (std::string loop = turn_robot_joint(r, j, std::clamp(Real(0), joint.lower, joint.upper)); !loop.empty())
          e.fail("joint " + in_quotes(joint.name) + " starts outside its limits and " + loop);
    }
    for (int b = r.first_body; b < r.first_body + r.body_count; ++b) {
      BodySpec copy = spec_.bodies[static_cast<std::size_t>(b)];
      copy.shapes.clear();
      copy.visuals.clear();
      r.imported_bodies.push_back(std::move(copy));
    }
    for (const XMLElement* child : e.children()) {
      const std::string_view name = child->Name();
      if (name == "body") parse_robot_body_override(child, file, r);
      else if (name == "joint") parse_robot_joint_override(child, file, r);
      else io::fail_at(file, child->GetLineNum(), name, "unknown element in <robot> (expected body or joint)");
    }
    spec_.robots.push_back(std::move(r));
  }

  // Index of the robot's body or joint named by the override's `name` (the name in the scene,
  // prefix included).
  template <class Item>
  static int robot_item(const XmlElement& e, const std::vector<Item>& items, int first, int count, const char* kind) {
    const std::string name = e.required_text("name");
    std::string known;
    for (int i = first; i < first + count; ++i) {
      const std::string& n = items[static_cast<std::size_t>(i)].name;
      if (n == name) return i;
      if (i - first < 12) known += (i > first ? ", " : "") + n;
    }
    if (count > 12) known += ", ...";
    e.fail_attribute("name", std::string("the robot has no ") + kind + " " + in_quotes(name) + " (" +
                                 (known.empty() ? std::string("it has none") : known) + ")");
  }

  // <body name=...> inside <robot>: replaces the initial pose (pos, rotation), velocities, fixed
  // and mass of one imported body.
  void parse_robot_body_override(const XMLElement* el, const std::string& file, const RobotIncludeSpec& r) {
    XmlElement e(el, file, with_fields<BodySpec>(attribute_list({"name", "velocity", "angular_velocity", "fixed"}, true), "body"));
    no_children(e);
    BodySpec& b = spec_.bodies[static_cast<std::size_t>(robot_item(e, spec_.bodies, r.first_body, r.body_count, "body"))];
    if (auto pos = e.vec3("pos")) b.pose.pos = *pos;
    if (e.has("quat") || e.has("euler") || e.has("axisangle")) b.pose.rot = e.rotation();
    b.linear_velocity = e.vec3_or("velocity", b.linear_velocity);
    b.angular_velocity = e.vec3_or("angular_velocity", b.angular_velocity);
    b.fixed = e.boolean("fixed").value_or(b.fixed);
    read_fields(e, "body", b);
  }

  // <joint name=... position=...> inside <robot>: the initial coordinate of a revolute or
  // prismatic joint (turn_robot_joint).
  void set_robot_joint_position(const XMLElement* el, const std::string& file, RobotIncludeSpec& r) {
    XmlElement e(el, file, with_fields<JointSpec>({"name", "limit", "position"}, "joint"));
    const int index = robot_item(e, spec_.joints, r.first_joint, r.joint_count, "joint");
    const JointSpec& j = spec_.joints[static_cast<std::size_t>(index)];
    const Real position = *e.real("position");
    for (const auto& [name, value] : r.joint_positions)
      if (name == j.name) e.fail_attribute("position", "the position of joint " + in_quotes(j.name) + " is already set");
    if (j.type != JointType::Revolute && j.type != JointType::Prismatic)
      e.fail_attribute("position", "only revolute and prismatic joints have a position");
    if (std::string loop = turn_robot_joint(r, index, position); !loop.empty()) e.fail_attribute("position", loop);
    r.joint_positions.emplace_back(j.name, position);
  }

  // Sets the coordinate of the robot's revolute or prismatic joint `index` from 0 to `position`:
  // the child's subtree (bodies reached through the robot's joints away from the parent) turns
  // about (slides along) the joint axis; the drive target becomes the position. Returns why it
  // cannot (a closed loop), else "".
  std::string turn_robot_joint(const RobotIncludeSpec& r, int index, Real position) {
    JointSpec& j = spec_.joints[static_cast<std::size_t>(index)];
    const Pose parent = j.body_a >= 0 ? spec_.bodies[static_cast<std::size_t>(j.body_a)].pose : Pose{};
    const Pose frame = parent * j.frame_a;
    const Vec3 axis = (frame.rot * j.axis).normalized();
    // The bodies on the child's side: a walk over the robot's joints from the child, not
    // crossing back through this joint's parent.
    std::vector<char> moved(spec_.bodies.size(), 0);
    std::vector<int> stack{j.body_b};
    moved[static_cast<std::size_t>(j.body_b)] = 1;
    while (!stack.empty()) {
      const int b = stack.back();
      stack.pop_back();
      for (int k = r.first_joint; k < r.first_joint + r.joint_count; ++k) {
        const JointSpec& other = spec_.joints[static_cast<std::size_t>(k)];
        if (k == index || other.body_a != b || other.body_b < 0) continue;
        if (other.body_b == j.body_a) return "joint " + in_quotes(j.name) + " is on a closed loop";
        if (!moved[static_cast<std::size_t>(other.body_b)]) {
          moved[static_cast<std::size_t>(other.body_b)] = 1;
          stack.push_back(other.body_b);
        }
      }
    }
    Pose motion;  // in the world: about / along the joint axis through the joint origin
    if (j.type == JointType::Revolute) {
      motion.rot = Quat(Eigen::AngleAxis<Real>(position, axis));
      motion.pos = frame.pos - motion.rot * frame.pos;
    } else {
      motion.pos = position * axis;
    }
    for (std::size_t b = 0; b < moved.size(); ++b) {
      if (!moved[b]) continue;
      Pose& pose = spec_.bodies[b].pose;
      pose = motion * pose;
      pose.rot.normalize();
    }
    j.target = position;
    return {};
  }

  // <joint name=...> inside <robot>: replaces the limits (limit="lower upper" or "none"),
  // compliances and drive fields (a partial <drive>) of one imported joint.
  void parse_robot_joint_override(const XMLElement* el, const std::string& file, const RobotIncludeSpec& r) {
    XmlElement e(el, file, with_fields<JointSpec>({"name", "limit", "position"}, "joint"));
    JointSpec& j = spec_.joints[static_cast<std::size_t>(robot_item(e, spec_.joints, r.first_joint, r.joint_count, "joint"))];
    const bool has_axis = j.type == JointType::Revolute || j.type == JointType::Prismatic;
    if (auto limit = e.text("limit")) {
      if (!has_axis) e.fail_attribute("limit", "only revolute and prismatic joints have limits");
      if (*limit == "none") {
        j.limited = false;
      } else {
        const Vec2 v = *e.vec2("limit");
        if (!(v[0] <= v[1])) e.fail_attribute("limit", "lower limit above upper limit");
        j.limited = true;
        j.lower = v[0];
        j.upper = v[1];
      }
    }
    read_fields(e, "joint", j);
    bool seen_drive = false;
    for (const XMLElement* child : e.children()) {
      const std::string_view name = child->Name();
      if (name != "drive") io::fail_at(file, child->GetLineNum(), name, "unknown element in <joint> override (expected drive)");
      if (seen_drive) io::fail_at(file, child->GetLineNum(), name, "given twice");
      seen_drive = true;
      parse_drive(child, file, j, /*partial=*/true);
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  static void no_children(const XmlElement& e) {
    for (const XMLElement* c : e.children())
      io::fail_at(e.file(), c->GetLineNum(), c->Name(), "unexpected element inside <" + std::string(e.name()) + ">");
  }

  static std::string known_names(const std::map<std::string, int>& names) {
    if (names.empty()) return "none defined";
    std::string out = "defined: ";
    int shown = 0;
    for (const auto& [name, index] : names) {
      if (shown++ == 12) return out + ", ...";
      out += (shown > 1 ? ", " : "") + name;
    }
    return out;
  }

  int resolve_material(const std::optional<NameRef>& ref) const {
    if (!ref) return -1;
    auto it = material_index_.find(ref->name);
    if (it == material_index_.end())
      ref->fail("unknown material " + in_quotes(ref->name) + " (" + known_names(material_index_) + ")");
    return it->second;
  }

  int resolve_body(const NameRef& ref) const {
    if (ref.name == "world") return -1;
    auto it = body_index_.find(ref.name);
    if (it == body_index_.end()) ref.fail("unknown body " + in_quotes(ref.name) + " (" + known_names(body_index_) + ")");
    return it->second;
  }

  int resolve_particle(const NameRef& ref) const {
    if (auto it = particle_index_.find(ref.name); it != particle_index_.end()) return it->second;
    long long index = -1;
    if (io::parse_int(ref.name, index)) {
      if (index < 0 || index >= static_cast<long long>(spec_.particles.size()))
        ref.fail("particle index " + ref.name + " out of range (" + std::to_string(spec_.particles.size()) +
                 " particles)");
      return static_cast<int>(index);
    }
    ref.fail("unknown particle " + in_quotes(ref.name) + " (give a particle name or index)");
  }

  // Gives unnamed entities a unique name "<prefix><index>".
  static std::string unique_name(const std::string& prefix, int index, const std::map<std::string, int>& taken) {
    std::string name = prefix + std::to_string(index);
    while (taken.count(name)) name += "_";
    return name;
  }

  void resolve() {
    // Shapes without a reference keep their material (-1, or an imported robot's own).
    for (std::size_t i = 0; i < spec_.world_shapes.size(); ++i)
      if (world_shape_material_[i]) spec_.world_shapes[i].material = resolve_material(world_shape_material_[i]);
    for (std::size_t b = 0; b < spec_.bodies.size(); ++b)
      for (std::size_t s = 0; s < spec_.bodies[b].shapes.size(); ++s)
        if (body_shape_material_[b][s]) spec_.bodies[b].shapes[s].material = resolve_material(body_shape_material_[b][s]);
    for (std::size_t p = 0; p < spec_.particles.size(); ++p)
      spec_.particles[p].material = resolve_material(particle_material_[p]);

    for (std::size_t b = 0; b < spec_.bodies.size(); ++b) {
      if (!spec_.bodies[b].name.empty()) continue;
      spec_.bodies[b].name = unique_name("body", static_cast<int>(b), body_index_);
      body_index_[spec_.bodies[b].name] = static_cast<int>(b);
    }

    for (std::size_t i = 0; i < spec_.joints.size(); ++i) {
      JointSpec& j = spec_.joints[i];
      const PendingJoint& p = pending_joints_[i];
      if (p.resolved) continue;
      j.body_a = resolve_body(p.parent);
      j.body_b = resolve_body(p.child);
      const Pose pose_a = j.body_a >= 0 ? spec_.bodies[j.body_a].pose : Pose{};
      const Pose pose_b = spec_.bodies[j.body_b].pose;
      Pose world;
      if (p.world_frame) world = *p.world_frame;
      else if (p.frame_a) world = pose_a * *p.frame_a;
      else if (p.frame_b) world = pose_b * *p.frame_b;
      else world = pose_b;
      j.frame_a = p.frame_a ? *p.frame_a : pose_a.inverse() * world;
      j.frame_b = p.frame_b ? *p.frame_b : pose_b.inverse() * world;
      j.frame_a.rot.normalize();
      j.frame_b.rot.normalize();
      if (j.name.empty()) {
        j.name = unique_name("joint", static_cast<int>(i), joint_names_);
        joint_names_[j.name] = static_cast<int>(i);
      }
    }

    for (std::size_t i = 0; i < spec_.attachments.size(); ++i) {
      const PendingAttachment& p = pending_attachments_[i];
      ParticleAttachmentSpec& a = spec_.attachments[i];
      a.body = resolve_body(p.body);
      if (!p.local && a.body >= 0) a.local_point = spec_.bodies[static_cast<std::size_t>(a.body)].pose.apply_inverse(p.world_point);
    }

    for (std::size_t i = 0; i < spec_.distances.size(); ++i) {
      const PendingDistance& p = pending_distances_[i];
      if (p.a.name.empty()) continue;  // generated by <rope>/<cloth>, already resolved
      DistanceSpec& d = spec_.distances[i];
      d.particle_a = resolve_particle(p.a);
      d.particle_b = resolve_particle(p.b);
      if (d.particle_a == d.particle_b) p.b.fail("a distance needs two different particles");
    }
  }

  SceneSpec spec_;
  std::vector<std::string> include_stack_;
  int include_count_ = 0;
  std::uintmax_t included_bytes_ = 0;
  std::map<std::string, int> material_index_, body_index_, particle_index_, joint_names_;
  std::vector<PendingAttachment> pending_attachments_;
  std::vector<std::optional<NameRef>> world_shape_material_, particle_material_;
  std::vector<std::vector<std::optional<NameRef>>> body_shape_material_;
  std::vector<PendingJoint> pending_joints_;
  std::vector<PendingDistance> pending_distances_;
};

}  // namespace

Result<SceneSpec> parse_scene_xml(const std::string& xml_text, const std::string& file_name) {
  try {
    SceneParser parser;
    return parser.parse(xml_text, file_name);
  } catch (const ParseError& e) {
    return Error{e.what()};
  } catch (const std::exception& e) {
    return Error{io::format_error(file_name, 0, "", std::string("cannot parse: ") + e.what())};
  }
}

Result<SceneSpec> load_scene_file(const std::string& path) {
  std::string why;
  auto text = io::read_text_file(path, io::kMaxTextFileBytes, why);
  if (!text) return Error{io::format_error(path, 0, "", "cannot read the scene file (" + why + ")")};
  return parse_scene_xml(*text, path);
}

}  // namespace sim
