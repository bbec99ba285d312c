// SceneSpec -> scene XML (docs/scene-format.md), and the atomic save.
//
// The writer's contract is the parser's inverse: parse_scene_xml(write_scene_xml(spec)) gives the
// same SceneSpec values (source locations aside). Three things make that exact rather than close:
// - numbers are written as the shortest decimal that reads back to the same bits (std::to_chars);
// - the parser normalises quaternions and joint axes (q / |q|), and a unit vector is not always a
//   fixed point of that in floating point, so each one is written as the neighbour (within an ulp
//   per component) that the parser's normalisation maps exactly onto the stored value;
// - everything is explicit: shapes name their material, thickness and density; joints give both
//   frames; generated particles and distances (rope, cloth, includes) come out one by one.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "io/generated_geometry.hpp"
#include "sim/atomic_file.hpp"
#include "sim/resource_policy.hpp"
#include "sim/field_table.hpp"
#include "sim/recording.hpp"
#include "sim/scene_io.hpp"
#include "sim/soft_render_mesh.hpp"
#include "sim/structure_texture.hpp"

namespace sim {

namespace {

namespace fs = std::filesystem;

std::string number(Real v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "0";
  return std::string(buf, end);
}

template <class V>
std::string numbers(const V& v) {
  std::string out;
  for (int i = 0; i < static_cast<int>(v.size()); ++i) {
    if (i) out += ' ';
    out += number(v[i]);
  }
  return out;
}

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\n': out += "&#10;"; break;
      case '\t': out += "&#9;"; break;
      default: out += c;
    }
  }
  return out;
}

// The value `decode` (the parser's normalisation) maps exactly onto `target`: `target` itself when
// it is a fixed point, else the first neighbour found by moving each component by at most one ulp.
template <int N, class Decode>
Eigen::Matrix<Real, N, 1> encode_unit(const Eigen::Matrix<Real, N, 1>& target, Decode decode) {
  using V = Eigen::Matrix<Real, N, 1>;
  if (decode(target) == target) return target;
  int combos = 1;
  for (int i = 0; i < N; ++i) combos *= 3;
  const Real inf = std::numeric_limits<Real>::infinity();
  for (int c = 1; c < combos; ++c) {
    V v = target;
    int code = c;
    for (int i = 0; i < N; ++i, code /= 3) {
      const int d = code % 3;  // 0: keep, 1: up, 2: down
      if (d == 1) v[i] = std::nextafter(v[i], inf);
      else if (d == 2) v[i] = std::nextafter(v[i], -inf);
    }
    if (decode(v) == target) return v;
  }
  return target;
}

using Vec4 = Eigen::Matrix<Real, 4, 1>;

Vec4 coeffs_wxyz(const Quat& q) { return Vec4(q.w(), q.x(), q.y(), q.z()); }

// The parser's quat="w x y z": divided by its norm (XmlElement::rotation).
Vec4 decode_quat(const Vec4& v) {
  Quat r(v[0], v[1], v[2], v[3]);
  const Real n = r.norm();
  r.coeffs() /= n;
  return coeffs_wxyz(r);
}

// Joint frames are normalised once more after reading (SceneParser::resolve).
Vec4 decode_joint_quat(const Vec4& v) {
  const Vec4 once = decode_quat(v);
  Quat r(once[0], once[1], once[2], once[3]);
  r.normalize();
  return coeffs_wxyz(r);
}

Vec3 decode_axis(const Vec3& v) { return v / v.norm(); }

bool is_identity(const Quat& q) { return q.w() == 1 && q.x() == 0 && q.y() == 0 && q.z() == 0; }

// The segment count when the shape's vertices are exactly a generated cylinder's, else 0.
int cylinder_segments(const ShapeSpec& s) {
  const std::size_t n = s.vertices.size();
  if (n % 2 != 0 || n < 6 || n > 2048 || !(s.radius > 0) || !(s.half_length > 0)) return 0;
  const int segments = static_cast<int>(n / 2);
  const std::vector<Vec3> expected = io::cylinder_vertices(s.radius, s.half_length, segments);
  for (std::size_t i = 0; i < n; ++i)
    if (expected[i] != s.vertices[i]) return 0;
  return segments;
}

// Whether the robot includes still describe the spec: ranges in order, in bounds and not
// overlapping, and the bodies and joints in them still the imported ones (by name). An app edit
// that broke this (it should not: erase_body keeps ranges) makes the writer expand everything,
// and save_scene_file refuses.
bool robot_ranges_consistent(const SceneSpec& spec) {
  int m = 0, w = 0, b = 0, j = 0;
  for (const RobotIncludeSpec& r : spec.robots) {
    if (r.first_material < m || r.first_world_shape < w || r.first_body < b || r.first_joint < j) return false;
    m = r.first_material + r.material_count;
    w = r.first_world_shape + r.world_shape_count;
    b = r.first_body + r.body_count;
    j = r.first_joint + r.joint_count;
    if (m > static_cast<int>(spec.materials.size()) || w > static_cast<int>(spec.world_shapes.size()) ||
        b > static_cast<int>(spec.bodies.size()) || j > static_cast<int>(spec.joints.size()))
      return false;
    if (r.imported_bodies.size() != static_cast<std::size_t>(r.body_count) ||
        r.imported_joints.size() != static_cast<std::size_t>(r.joint_count))
      return false;
    for (int i = 0; i < r.body_count; ++i)
      if (spec.bodies[static_cast<std::size_t>(r.first_body + i)].name != r.imported_bodies[static_cast<std::size_t>(i)].name)
        return false;
    for (int i = 0; i < r.joint_count; ++i)
      if (spec.joints[static_cast<std::size_t>(r.first_joint + i)].name != r.imported_joints[static_cast<std::size_t>(i)].name)
        return false;
  }
  return true;
}

class Writer {
 public:
  explicit Writer(const SceneSpec& spec) : spec_(spec) { assign_names(); }

  std::string write() {
    out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out_ += "<!-- Written by Coulomb. Units SI, z up; see docs/scene-format.md. -->\n";
    open("scene");
    attr("name", spec_.name);
    attr("dt", number(spec_.dt));
    attr("gravity", numbers(spec_.gravity));
    out_ += ">\n";
    solver();
    // A <robot> element stands for contiguous ranges of materials, world shapes, bodies and
    // joints; what precedes each range in the spec is written before the element, so that
    // reading appends everything at the same indices.
    std::size_t m = 0, w = 0, b = 0, j = 0;
    if (robot_ranges_consistent(spec_)) {
      for (const RobotIncludeSpec& r : spec_.robots) {
        materials(m, static_cast<std::size_t>(r.first_material));
        world(w, static_cast<std::size_t>(r.first_world_shape));
        for (; b < static_cast<std::size_t>(r.first_body); ++b) body(b);
        for (; j < static_cast<std::size_t>(r.first_joint); ++j) joint(j);
        robot(r);
        m += static_cast<std::size_t>(r.material_count);
        w += static_cast<std::size_t>(r.world_shape_count);
        b += static_cast<std::size_t>(r.body_count);
        j += static_cast<std::size_t>(r.joint_count);
      }
    }
    materials(m, spec_.materials.size());
    world(w, spec_.world_shapes.size());
    for (; b < spec_.bodies.size(); ++b) body(b);
    for (const ParticleSpec& p : spec_.particles) particle(p);
    for (const DistanceSpec& d : spec_.distances) distance(d);
    for (const SoftBodySpec& sb : spec_.soft_bodies) soft_body(sb);
    for (const ShellSpec& sh : spec_.shells) shell(sh);
    if (!spec_.particle_triangles.empty()) particle_triangles();
    for (const auto& [first, count] : spec_.self_collision_particles) {
      open("self_collision", 1);
      attr("first", std::to_string(first));
      attr("count", std::to_string(count));
      out_ += "/>\n";
    }
    for (const ParticleAttachmentSpec& a : spec_.attachments) attachment(a);
    for (; j < spec_.joints.size(); ++j) joint(j);
    for (const KeyframeSpec& k : spec_.keyframes) keyframe(k);
    out_ += "</scene>\n";
    return std::move(out_);
  }

 private:
  // Names as the parser would give them: unnamed bodies "body<i>", joints "joint<i>" (with '_'
  // appended while taken), materials "material<i>" (the format requires a name).
  static std::vector<std::string> fill_names(std::vector<std::string> names, const std::string& prefix) {
    std::set<std::string> taken(names.begin(), names.end());
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!names[i].empty()) continue;
      std::string name = prefix + std::to_string(i);
      while (taken.count(name)) name += "_";
      taken.insert(name);
      names[i] = name;
    }
    return names;
  }

  void assign_names() {
    std::vector<std::string> bodies, joints, materials;
    for (const BodySpec& b : spec_.bodies) bodies.push_back(b.name);
    for (const JointSpec& j : spec_.joints) joints.push_back(j.name);
    for (const MaterialSpec& m : spec_.materials) materials.push_back(m.name);
    body_names_ = fill_names(std::move(bodies), "body");
    joint_names_ = fill_names(std::move(joints), "joint");
    material_names_ = fill_names(std::move(materials), "material");
  }

  void open(const char* element, int indent = 0) {
    out_.append(2 * static_cast<std::size_t>(indent), ' ');
    out_ += '<';
    out_ += element;
  }

  void attr(const char* name, const std::string& value) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    out_ += escape(value);
    out_ += '"';
  }

  void pose(const Pose& p, bool joint_frame = false) {
    if (p.pos != Vec3::Zero()) attr("pos", numbers(p.pos));
    if (!is_identity(p.rot))
      attr("quat", numbers(joint_frame ? encode_unit<4>(coeffs_wxyz(p.rot), decode_joint_quat)
                                       : encode_unit<4>(coeffs_wxyz(p.rot), decode_quat)));
  }

  // A table field's attribute text: the number, or the unset word.
  template <class Spec>
  static std::string field_text(const Field<Spec>& f, Real value) {
    return f.has_unset() && value == f.unset && !f.unset_word.empty() ? std::string(f.unset_word) : number(value);
  }

  // The table fields of `Spec` held by `element` whose value differs from `reference` (the
  // defaults, or an imported item). An unset value without a word cannot be written: it is left
  // out (save_scene_file refuses an override it loses).
  template <class Spec>
  void field_attrs(const Spec& spec, const Spec& reference, std::string_view element) {
    for (const Field<Spec>& f : fields_of<Spec>()) {
      const Real v = spec.*f.spec;
      if (f.element != element || v == reference.*f.spec) continue;
      if (f.has_unset() && v == f.unset && f.unset_word.empty()) continue;
      attr(std::string(f.name).c_str(), field_text(f, v));
    }
  }

  template <class Spec>
  static bool fields_differ(const Spec& a, const Spec& b, std::string_view element) {
    for (const Field<Spec>& f : fields_of<Spec>())
      if (f.element == element && a.*f.spec != b.*f.spec) return true;
    return false;
  }

  void material_attr(int material) {
    if (material >= 0 && material < static_cast<int>(material_names_.size()))
      attr("material", material_names_[static_cast<std::size_t>(material)]);
  }

  void solver() {
    const SolverOptions defaults;
    std::string attrs;
    for (const std::string& key : solver_option_keys()) {
      const std::string value = get_solver_option(spec_.solver, key);
      if (value == get_solver_option(defaults, key)) continue;
      attrs += " " + key + "=\"" + escape(value) + "\"";
    }
    if (!attrs.empty()) out_ += "  <solver" + attrs + "/>\n";
  }

  void materials(std::size_t& m, std::size_t end) {
    for (; m < end; ++m) {
      open("material", 1);
      attr("name", material_names_[m]);
      const MaterialSpec& mat = spec_.materials[m];
      field_attrs(mat, MaterialSpec{}, "material");
      if (mat.structure.kind == StructureFieldKind::None) {
        out_ += "/>\n";
        continue;
      }
      out_ += ">\n";
      grain(mat.structure, 2);
      out_ += "  </material>\n";
    }
  }

  // <grain>: the attributes its type uses (scene_xml.cpp rejects the others), defaults left out.
  void grain(const StructureFieldSpec& g, int indent) {
    using K = StructureFieldKind;
    const StructureFieldSpec defaults;
    open("grain", indent);
    attr("type", to_string(g.kind));
    const bool plane = g.kind != K::Constant && g.kind != K::Texture;
    if (g.kind == K::Constant || (plane && g.direction != defaults.direction)) attr("direction", numbers(g.direction));
    if (plane && g.normal != defaults.normal) attr("normal", numbers(g.normal));
    if (plane && g.center != defaults.center) attr("center", numbers(g.center));
    if ((g.kind == K::Channel || g.kind == K::Spread) && g.width != defaults.width) attr("width", number(g.width));
    if (g.kind == K::Slalom) {
      if (g.amplitude != defaults.amplitude) attr("amplitude", number(g.amplitude));
      if (g.wavelength != defaults.wavelength) attr("wavelength", number(g.wavelength));
    }
    if (g.kind == K::Expression) attr("angle", g.expression);
    if (g.kind == K::Texture) attr("texture", g.texture);
    out_ += "/>\n";
  }

  void world(std::size_t& w, std::size_t end) {
    if (w >= end) return;
    out_ += "  <world>\n";
    for (; w < end; ++w) shape(spec_.world_shapes[w], 2, /*in_body=*/false);
    out_ += "  </world>\n";
  }

  static const char* drive_mode(DriveMode mode) {
    switch (mode) {
      case DriveMode::Position: return "position";
      case DriveMode::Velocity: return "velocity";
      case DriveMode::None: break;
    }
    return "none";
  }

  // <robot>: the include's own attributes, then the edits since the import as overrides.
  void robot(const RobotIncludeSpec& r) {
    open("robot", 1);
    attr("file", r.file);
    attr("format", r.format);
    pose(r.base, /*joint_frame=*/true);  // read as a pose, then normalised once more
    if (r.fixed_base != (r.format == "urdf")) attr("fixed_base", r.fixed_base ? "true" : "false");  // default per format
    if (!r.self_collision) attr("self_collision", "false");
    if (!r.prefix.empty()) attr("prefix", r.prefix);
    if (r.density != Real(1000)) attr("density", number(r.density));
    if (!r.material.empty()) attr("material", r.material);
    if (r.drive != DriveMode::None) {
      attr("drive", drive_mode(r.drive));
      if (r.stiffness != 0) attr("stiffness", number(r.stiffness));
      if (r.damping != 0) attr("damping", number(r.damping));
    }
    const std::size_t mark = out_.size();
    out_ += ">\n";
    for (int i = 0; i < r.body_count; ++i)
      body_override(spec_.bodies[static_cast<std::size_t>(r.first_body + i)], r.imported_bodies[static_cast<std::size_t>(i)]);
    // Joints with an initial position first, in their order (it decides the bodies' poses to
    // the last bit), then the others.
    std::vector<char> written(static_cast<std::size_t>(r.joint_count), 0);
    for (const auto& [name, value] : r.joint_positions)
      for (int i = 0; i < r.joint_count; ++i)
        if (!written[static_cast<std::size_t>(i)] && spec_.joints[static_cast<std::size_t>(r.first_joint + i)].name == name) {
          joint_override(spec_.joints[static_cast<std::size_t>(r.first_joint + i)], r.imported_joints[static_cast<std::size_t>(i)], &value);
          written[static_cast<std::size_t>(i)] = 1;
        }
    for (int i = 0; i < r.joint_count; ++i)
      if (!written[static_cast<std::size_t>(i)])
        joint_override(spec_.joints[static_cast<std::size_t>(r.first_joint + i)], r.imported_joints[static_cast<std::size_t>(i)], nullptr);
    if (out_.size() == mark + 2) {
      out_.resize(mark);
      out_ += "/>\n";
    } else {
      out_ += "  </robot>\n";
    }
  }

  void body_override(const BodySpec& b, const BodySpec& imported) {
    const bool pos = b.pose.pos != imported.pose.pos;
    const bool rot = b.pose.rot.coeffs() != imported.pose.rot.coeffs();
    const bool velocity = b.linear_velocity != imported.linear_velocity;
    const bool spin = b.angular_velocity != imported.angular_velocity;
    const bool fixed = b.fixed != imported.fixed;
    if (!(pos || rot || velocity || spin || fixed || fields_differ(b, imported, "body"))) return;
    open("body", 2);
    attr("name", b.name);
    if (pos) attr("pos", numbers(b.pose.pos));
    if (rot) attr("quat", numbers(encode_unit<4>(coeffs_wxyz(b.pose.rot), decode_quat)));
    if (velocity) attr("velocity", numbers(b.linear_velocity));
    if (spin) attr("angular_velocity", numbers(b.angular_velocity));
    if (fixed) attr("fixed", b.fixed ? "true" : "false");
    field_attrs(b, imported, "body");  // mass -1 cannot be written: refused on save
    out_ += "/>\n";
  }

  void joint_override(const JointSpec& j, const JointSpec& imported, const Real* position) {
    const bool limit = j.limited != imported.limited ||
                       (j.limited && (j.lower != imported.lower || j.upper != imported.upper));
    const bool own = fields_differ(j, imported, "joint");
    const bool drive = j.drive != imported.drive || fields_differ(j, imported, "drive");
    if (!(position || limit || own || drive)) return;
    open("joint", 2);
    attr("name", j.name);
    if (position) attr("position", number(*position));
    if (limit) attr("limit", j.limited ? number(j.lower) + " " + number(j.upper) : std::string("none"));
    field_attrs(j, imported, "joint");
    if (!drive) {
      out_ += "/>\n";
      return;
    }
    out_ += ">\n";
    open("drive", 3);
    attr("mode", drive_mode(j.drive));
    for (const Field<JointSpec>& f : kJointFields)  // all of them: a partial <drive> keeps the imported rest
      if (f.element == "drive") attr(std::string(f.name).c_str(), field_text(f, j.*f.spec));
    out_ += "/>\n    </joint>\n";
  }

  void shape(const ShapeSpec& s, int indent, bool in_body) {
    const bool mesh = s.type == ShapeType::ConvexMesh && !s.triangles.empty();
    const int segments = s.type == ShapeType::ConvexMesh && !mesh ? cylinder_segments(s) : 0;
    switch (s.type) {
      case ShapeType::Plane: open("plane", indent); break;
      case ShapeType::Sphere: open("sphere", indent); break;
      case ShapeType::Capsule: open("capsule", indent); break;
      case ShapeType::Box: open("box", indent); break;
      case ShapeType::ConvexMesh: open(mesh ? "mesh" : segments ? "cylinder" : "convex", indent); break;
      case ShapeType::Cylinder: open("cylinder", indent); break;
      case ShapeType::Ellipsoid: open("ellipsoid", indent); break;
    }
    pose(s.local);
    switch (s.type) {
      case ShapeType::Plane: break;
      case ShapeType::Sphere: attr("radius", number(s.radius)); break;
      case ShapeType::Capsule:
        attr("radius", number(s.radius));
        attr("half_length", number(s.half_length));
        break;
      case ShapeType::Box: attr("half_extents", numbers(s.half_extents)); break;
      case ShapeType::Cylinder:  // no segments: the exact cylinder
        attr("radius", number(s.radius));
        attr("half_length", number(s.half_length));
        break;
      case ShapeType::Ellipsoid: attr("radii", numbers(s.half_extents)); break;
      case ShapeType::ConvexMesh:
        if (segments) {
          attr("radius", number(s.radius));
          attr("half_length", number(s.half_length));
          attr("segments", std::to_string(segments));
        } else {
          std::string v;
          for (std::size_t i = 0; i < s.vertices.size(); ++i) v += (i ? "  " : "") + numbers(s.vertices[i]);
          attr("vertices", v);
        }
        if (mesh) {  // inline, so a scene saved from a mesh file stands alone
          std::string t;
          for (std::size_t i = 0; i < s.triangles.size(); ++i)
            t += (i ? "  " : "") + std::to_string(s.triangles[i][0]) + " " + std::to_string(s.triangles[i][1]) + " " +
                 std::to_string(s.triangles[i][2]);
          attr("triangles", t);
          if (!s.uvs.empty()) {
            std::string uv;
            for (std::size_t i = 0; i < s.uvs.size(); ++i) uv += (i ? (i % 3 ? " " : "  ") : "") + numbers(s.uvs[i]);
            attr("uvs", uv);
          }
          if (s.sdf_voxel_size != 0) attr("sdf_voxel", number(s.sdf_voxel_size));
          if (s.sdf_band != ShapeSpec{}.sdf_band) attr("sdf_band", number(s.sdf_band));
        }
        break;
    }
    material_attr(s.material);
    if (s.thickness != 0) attr("thickness", number(s.thickness));
    if (s.contype != 1) attr("contype", std::to_string(s.contype));
    if (s.conaffinity != 1) attr("conaffinity", std::to_string(s.conaffinity));
    if (in_body && s.density != Real(1000)) attr("density", number(s.density));
    out_ += "/>\n";
  }

  void body(std::size_t index) {
    const BodySpec& b = spec_.bodies[index];
    open("body", 1);
    attr("name", body_names_[index]);
    pose(b.pose);
    if (b.linear_velocity != Vec3::Zero()) attr("velocity", numbers(b.linear_velocity));
    if (b.angular_velocity != Vec3::Zero()) attr("angular_velocity", numbers(b.angular_velocity));
    if (b.fixed) attr("fixed", "true");
    field_attrs(b, BodySpec{}, "body");
    if (b.inertia.minCoeff() > 0) attr("inertia", numbers(b.inertia));
    if (b.com != Vec3::Zero()) attr("com", numbers(b.com));
    if (b.shapes.empty() && b.structure.kind == StructureFieldKind::None) {
      out_ += "/>\n";
      return;
    }
    out_ += ">\n";
    if (b.structure.kind != StructureFieldKind::None) grain(b.structure, 2);
    for (const ShapeSpec& s : b.shapes) shape(s, 2, /*in_body=*/true);
    out_ += "  </body>\n";
  }

  void particle(const ParticleSpec& p) {
    open("particle", 1);
    attr("pos", numbers(p.position));
    if (p.velocity != Vec3::Zero()) attr("velocity", numbers(p.velocity));
    field_attrs(p, ParticleSpec{}, "particle");
    material_attr(p.material);
    out_ += "/>\n";
  }

  void distance(const DistanceSpec& d) {
    open("distance", 1);
    attr("a", std::to_string(d.particle_a));
    attr("b", std::to_string(d.particle_b));
    if (d.rest_length >= 0) attr("rest", number(d.rest_length));
    if (d.compliance != 0) attr("compliance", number(d.compliance));
    out_ += "/>\n";
  }

  // A soft body over the particles written above (its tets by particle index, its material).
  void soft_body(const SoftBodySpec& sb) {
    open("softbody", 1);
    if (!sb.name.empty()) attr("name", sb.name);
    const SoftMaterialSpec& m = sb.material;
    attr("model", m.model == SoftModel::NeoHookean ? "neohookean" : "corotational");
    attr("compliance", m.compliance == SoftCompliance::Full ? "full" : "diagonal");
    if (m.lame_lambda >= 0 && m.lame_mu >= 0) {
      attr("lambda", number(m.lame_lambda));
      attr("mu", number(m.lame_mu));
    } else {
      attr("E", number(m.youngs_modulus));
      attr("nu", number(m.poisson_ratio));
    }
    attr("density", number(m.density));
    if (m.damping != 0) attr("damping", number(m.damping));
    if (sb.self_collision) attr("self_collision", "true");
    if (const SoftRenderMesh* r = sb.render_mesh.get()) {  // placed by render_* (tets= has no pose)
      attr("render_mesh", r->file);
      if (r->scale != Vec3::Ones()) attr("render_scale", numbers(r->scale));
      if (r->pose.pos != Vec3::Zero()) attr("render_pos", numbers(r->pose.pos));
      if (!is_identity(r->pose.rot)) attr("render_quat", numbers(encode_unit<4>(coeffs_wxyz(r->pose.rot), decode_quat)));
    }
    std::string t;
    for (std::size_t i = 0; i < sb.tets.size(); ++i)
      for (int k = 0; k < 4; ++k) t += (i || k ? (k ? " " : "  ") : "") + std::to_string(sb.tets[i][k]);
    attr("tets", t);
    soft_body_groups(sb);
  }

  // The body's active-pressure groups as <group name pressure tets="i j ..."> children (tet
  // indices of this body), or "/>" when it has none.
  void soft_body_groups(const SoftBodySpec& sb) {
    std::string children;
    for (std::size_t g = 0; g < spec_.soft_groups.size(); ++g) {
      std::string t;
      for (std::size_t i = 0; i < sb.tet_group.size(); ++i)
        if (sb.tet_group[i] == static_cast<int>(g)) t += (t.empty() ? "" : " ") + std::to_string(i);
      if (t.empty()) continue;
      const std::size_t at = out_.size();
      open("group", 2);
      attr("name", spec_.soft_groups[g].name);
      if (spec_.soft_groups[g].pressure != 0) attr("pressure", number(spec_.soft_groups[g].pressure));
      attr("tets", t);
      out_ += "/>\n";
      children += out_.substr(at);
      out_.resize(at);
    }
    if (children.empty()) {
      out_ += "/>\n";
      return;
    }
    out_ += ">\n" + children + "  </softbody>\n";
  }

  // A particle pinned to a body point, in the body's frame.
  void attachment(const ParticleAttachmentSpec& a) {
    open("attachment", 1);
    attr("particle", std::to_string(a.particle));
    attr("body", body_ref(a.body));
    attr("point", numbers(a.local_point));
    if (a.compliance != 0) attr("compliance", number(a.compliance));
    out_ += "/>\n";
  }

  // A shell (membrane cloth, shell mesh) over the particles written above: its triangles by
  // particle index and its material (the hinges follow from the triangles at compile).
  void shell(const ShellSpec& sh) {
    open("shell", 1);
    if (!sh.name.empty()) attr("name", sh.name);
    const ShellMaterialSpec& m = sh.material;
    attr("E", number(m.youngs_modulus));
    attr("nu", number(m.poisson_ratio));
    attr("thickness", number(m.thickness));
    if (m.bending >= 0) attr("bending", number(m.bending));
    attr("density", number(m.density));
    if (m.damping != 0) attr("damping", number(m.damping));
    std::string t;
    for (std::size_t i = 0; i < sh.triangles.size(); ++i)
      for (int k = 0; k < 3; ++k) t += (i || k ? (k ? " " : "  ") : "") + std::to_string(sh.triangles[i][k]);
    attr("triangles", t);
    out_ += "/>\n";
  }

  // The faces collided against SDFs (soft bodies' surfaces, cloth), by particle index.
  void particle_triangles() {
    open("particle_triangles", 1);
    std::string t;
    for (std::size_t i = 0; i < spec_.particle_triangles.size(); ++i)
      for (int k = 0; k < 3; ++k)
        t += (i || k ? (k ? " " : "  ") : "") + std::to_string(spec_.particle_triangles[i][k]);
    attr("triangles", t);
    out_ += "/>\n";
  }

  std::string body_ref(int body) const {
    return body >= 0 && body < static_cast<int>(body_names_.size()) ? body_names_[static_cast<std::size_t>(body)]
                                                                     : std::string("world");
  }

  // Shortest round-trip numbers: a restored keyframe is bit-identical to the saved state.
  void keyframe(const KeyframeSpec& k) {
    open("keyframe", 1);
    attr("name", k.name);
    attr("time", number(k.time));
    attr("q", numbers(k.q));
    attr("u", numbers(k.u));
    if (!k.joint_position.empty()) attr("joints", numbers(k.joint_position));
    if (!k.joint_target.empty()) attr("targets", numbers(k.joint_target));
    if (!k.soft_pressure.empty()) attr("pressures", numbers(k.soft_pressure));
    if (!k.warm_contact_key.empty()) {
      std::string keys;
      char buffer[24];
      for (std::uint64_t key : k.warm_contact_key) {
        std::snprintf(buffer, sizeof buffer, "%llx", static_cast<unsigned long long>(key));
        keys += (keys.empty() ? "" : " ") + std::string(buffer);
      }
      attr("warm_keys", keys);
      attr("warm_contacts", numbers(k.warm_contact_lambda));
    }
    if (!k.warm_row_lambda.empty()) attr("warm_rows", numbers(k.warm_row_lambda));
    out_ += "/>\n";
  }

  void joint(std::size_t index) {
    const JointSpec& j = spec_.joints[index];
    const bool has_axis = j.type == JointType::Revolute || j.type == JointType::Prismatic;
    open("joint", 1);
    attr("name", joint_names_[index]);
    switch (j.type) {
      case JointType::Fixed: attr("type", "fixed"); break;
      case JointType::Revolute: attr("type", "revolute"); break;
      case JointType::Prismatic: attr("type", "prismatic"); break;
      case JointType::Ball: attr("type", "ball"); break;
    }
    attr("parent", body_ref(j.body_a));
    attr("child", body_ref(j.body_b));
    if (has_axis) attr("axis", numbers(encode_unit<3>(j.axis, decode_axis)));
    if (has_axis && j.limited) attr("limit", number(j.lower) + " " + number(j.upper));
    field_attrs(j, JointSpec{}, "joint");
    out_ += ">\n";
    open("parent_frame", 2);
    pose(j.frame_a, /*joint_frame=*/true);
    out_ += "/>\n";
    open("child_frame", 2);
    pose(j.frame_b, /*joint_frame=*/true);
    out_ += "/>\n";
    const bool drive = j.drive != DriveMode::None || fields_differ(j, JointSpec{}, "drive");
    if (has_axis && drive) {
      open("drive", 2);
      switch (j.drive) {
        case DriveMode::None: attr("mode", "none"); break;
        case DriveMode::Position: attr("mode", "position"); break;
        case DriveMode::Velocity: attr("mode", "velocity"); break;
      }
      field_attrs(j, JointSpec{}, "drive");
      out_ += "/>\n";
    }
    out_ += "  </joint>\n";
  }

  const SceneSpec& spec_;
  std::vector<std::string> body_names_, joint_names_, material_names_;
  std::string out_;
};


bool same_sdf_options(const SdfContactOptions& a, const SdfContactOptions& b) {
  return a.vertices == b.vertices && a.edges == b.edges && a.faces == b.faces && a.particle_faces == b.particle_faces &&
         a.iterations == b.iterations && a.pgd_step == b.pgd_step && a.tolerance == b.tolerance &&
         a.cull_slack == b.cull_slack && a.max_pair_contacts == b.max_pair_contacts;
}

void compare_shapes(const std::vector<ShapeSpec>& a, const std::vector<ShapeSpec>& b, const std::string& owner,
                    std::vector<std::string>& lost) {
  if (a.size() != b.size()) {
    lost.push_back("shapes of " + owner);
    return;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].triangles != b[i].triangles || a[i].uvs != b[i].uvs || a[i].sdf_voxel_size != b[i].sdf_voxel_size || a[i].sdf_band != b[i].sdf_band)
      lost.push_back("the triangle mesh (SDF) of shape " + std::to_string(i) + " of " + owner);
    else if (a[i].vertices.size() != b[i].vertices.size() || a[i].type != b[i].type)
      lost.push_back("shape " + std::to_string(i) + " of " + owner);
  }
}

bool same_pose(const Pose& a, const Pose& b) { return a.pos == b.pos && a.rot.coeffs() == b.rot.coeffs(); }

bool same_shape(const ShapeSpec& a, const ShapeSpec& b) {
  return a.type == b.type && same_pose(a.local, b.local) && a.radius == b.radius && a.half_length == b.half_length &&
         a.half_extents == b.half_extents && a.vertices == b.vertices && a.triangles == b.triangles &&
         a.material == b.material && a.thickness == b.thickness && a.density == b.density &&
         a.contype == b.contype && a.conaffinity == b.conaffinity;
}

// The first table field of `Spec` that differs between `a` and `b` ("the mass"), or "".
template <class Spec>
std::string field_difference(const Spec& a, const Spec& b) {
  for (const Field<Spec>& f : fields_of<Spec>())
    if (a.*f.spec != b.*f.spec) return "the " + std::string(f.label);
  return {};
}

// What of a body differs between the spec and the file read back ("" when nothing).
std::string body_difference(const BodySpec& a, const BodySpec& b) {
  if (a.name != b.name) return "the name";
  if (!same_pose(a.pose, b.pose)) return "the pose";
  if (a.linear_velocity != b.linear_velocity || a.angular_velocity != b.angular_velocity) return "the velocity";
  if (a.fixed != b.fixed) return "'fixed'";
  if (std::string field = field_difference(a, b); !field.empty()) return field;
  if (a.inertia != b.inertia || a.inertia_frame.coeffs() != b.inertia_frame.coeffs() || a.com != b.com)
    return "the inertia";
  if (a.shapes.size() != b.shapes.size()) return "the shapes";
  for (std::size_t s = 0; s < a.shapes.size(); ++s)
    if (!same_shape(a.shapes[s], b.shapes[s])) return "shape " + std::to_string(s);
  return {};
}

std::string joint_difference(const JointSpec& a, const JointSpec& b) {
  if (a.name != b.name) return "the name";
  if (a.type != b.type || a.body_a != b.body_a || a.body_b != b.body_b) return "the type or bodies";
  if (!same_pose(a.frame_a, b.frame_a) || !same_pose(a.frame_b, b.frame_b) || a.axis != b.axis)
    return "the frames or axis";
  if (a.limited != b.limited || (a.limited && (a.lower != b.lower || a.upper != b.upper))) return "the limits";
  if (a.drive != b.drive) return "the drive";
  return field_difference(a, b);
}

// Edits of a robot's parts that its <robot> element (with overrides) cannot express: everything
// is compared, since the file holds the robot by reference.
void compare_robot_parts(const SceneSpec& spec, const SceneSpec& back, std::vector<std::string>& lost) {
  if (spec.robots.empty()) return;
  if (!robot_ranges_consistent(spec)) {
    lost.push_back("the robots' bodies and joints as edited (they no longer match their <robot> elements)");
    return;
  }
  if (back.bodies.size() != spec.bodies.size() || back.joints.size() != spec.joints.size()) return;  // reported
  for (const RobotIncludeSpec& r : spec.robots) {
    const std::string from = " (imported by <robot file=\"" + r.file + "\">)";
    for (int i = r.first_body; i < r.first_body + r.body_count; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (std::string what = body_difference(spec.bodies[k], back.bodies[k]); !what.empty())
        lost.push_back("the edited " + what + " of body '" + spec.bodies[k].name + "'" + from);
    }
    for (int i = r.first_joint; i < r.first_joint + r.joint_count; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (std::string what = joint_difference(spec.joints[k], back.joints[k]); !what.empty())
        lost.push_back("the edited " + what + " of joint '" + spec.joints[k].name + "'" + from);
    }
  }
}

// What the written file would not hold of `spec` (read back as `back`): the format cannot yet
// express everything a SceneSpec can (rotated inertia axes, SDF contact options, edits of a
// robot's parts beyond what <robot> overrides hold). Saving such a scene must fail loudly rather
// than drop it.
// A texture read back from its file equals the painted one to the file's precision: R and G span
// [-1, 1] in 2^depth − 1 steps, B [0, 1]; EXR floats are exact.
bool same_texture_in_file(const StructureTexture& a, const StructureTexture& b) {
  if (a.width != b.width || a.height != b.height || a.texels.size() != b.texels.size()) return false;
  const float step = a.bit_depth == 8 ? 1.0f / 255 : a.bit_depth == 32 ? 0.0f : 1.0f / 65535;
  for (std::size_t k = 0; k < a.texels.size(); ++k) {
    const float x = std::clamp(a.texels[k], k % 3 == 2 ? 0.0f : -1.0f, 1.0f);
    if (!(std::abs(x - b.texels[k]) <= (k % 3 == 2 ? 0.5f : 1.0f) * step * 1.001f + 1e-7f)) return false;
  }
  return true;
}

bool same_grain_in_file(const StructureFieldSpec& a, const StructureFieldSpec& b) {
  if (a.kind != StructureFieldKind::Texture || !a.image || !b.image) return a == b;
  StructureFieldSpec a_no_image = a, b_no_image = b;
  a_no_image.image = b_no_image.image = nullptr;
  return a_no_image == b_no_image && same_texture_in_file(*a.image, *b.image);
}

// Writes the texture images of the spec's grains next to the scene at `path` (a relative
// `texture` resolved against its folder) where the file is missing or holds other texels.
std::string save_grain_textures(const SceneSpec& spec, const std::string& path) {
  std::error_code ec;
  const fs::path dir = fs::absolute(fs::path(path), ec).parent_path();
  auto save = [&](const StructureFieldSpec& g) -> std::string {
    if (g.kind != StructureFieldKind::Texture || !g.image) return {};
    if (g.texture.empty()) return "a texture grain has no file name";
    const fs::path file = fs::path(g.texture).is_absolute() ? fs::path(g.texture) : dir / g.texture;
    if (auto existing = load_structure_texture(file.string()); existing && same_texture_in_file(*g.image, *existing))
      return {};
    return save_structure_texture(*g.image, file.string());
  };
  for (const MaterialSpec& m : spec.materials)
    if (std::string e = save(m.structure); !e.empty()) return e;
  for (const BodySpec& b : spec.bodies)
    if (std::string e = save(b.structure); !e.empty()) return e;
  return {};
}

std::vector<std::string> lost_in_file(const SceneSpec& spec, const SceneSpec& back) {
  std::vector<std::string> lost;
  compare_robot_parts(spec, back, lost);
  if (spec.materials.size() != back.materials.size()) lost.push_back("materials");
  else
    for (std::size_t m = 0; m < spec.materials.size(); ++m)
      if (!same_grain_in_file(spec.materials[m].structure, back.materials[m].structure))
        lost.push_back("the grain of material '" + spec.materials[m].name + "'");
  compare_shapes(spec.world_shapes, back.world_shapes, "the world", lost);
  if (spec.bodies.size() != back.bodies.size()) {
    lost.push_back("bodies");
  } else {
    for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
      const BodySpec& x = spec.bodies[b];
      const std::string owner = "body '" + back.bodies[b].name + "'";
      compare_shapes(x.shapes, back.bodies[b].shapes, owner, lost);
      if (x.inertia.minCoeff() > 0 && !x.inertia_frame.coeffs().isApprox(back.bodies[b].inertia_frame.coeffs()) &&
          !x.inertia_frame.coeffs().isApprox(-back.bodies[b].inertia_frame.coeffs()))
        lost.push_back("the inertia axes of " + owner);
      if (!same_grain_in_file(x.structure, back.bodies[b].structure)) lost.push_back("the grain of " + owner);
    }
  }
  if (spec.particles.size() != back.particles.size()) lost.push_back("particles");
  if (spec.distances.size() != back.distances.size()) lost.push_back("distance constraints");
  if (spec.soft_bodies.size() != back.soft_bodies.size()) lost.push_back("soft bodies (FEM tetrahedra)");
  else
    for (std::size_t i = 0; i < spec.soft_bodies.size(); ++i)
      if (spec.soft_bodies[i].tets != back.soft_bodies[i].tets)
        lost.push_back("the tetrahedra of soft body " + std::to_string(i));
      else if (spec.soft_bodies[i].self_collision != back.soft_bodies[i].self_collision)
        lost.push_back("the self collision of soft body " + std::to_string(i));
      else if (!spec.soft_bodies[i].render_mesh != !back.soft_bodies[i].render_mesh)
        lost.push_back("the render mesh of soft body " + std::to_string(i));
      else if (spec.soft_bodies[i].tet_group != back.soft_bodies[i].tet_group &&
               !(spec.soft_bodies[i].tet_group.empty() &&
                 std::all_of(back.soft_bodies[i].tet_group.begin(), back.soft_bodies[i].tet_group.end(), [](int g) { return g < 0; })))
        lost.push_back("the active-pressure groups of soft body " + std::to_string(i));
  if (spec.soft_groups.size() != back.soft_groups.size()) lost.push_back("soft groups without tets");
  if (spec.attachments.size() != back.attachments.size()) lost.push_back("particle attachments");
  if (spec.shells.size() != back.shells.size()) lost.push_back("shells (membrane and bending triangles)");
  else
    for (std::size_t i = 0; i < spec.shells.size(); ++i)
      if (spec.shells[i].triangles != back.shells[i].triangles) lost.push_back("the triangles of shell " + std::to_string(i));
  if (spec.joints.size() != back.joints.size()) lost.push_back("joints");
  if (spec.keyframes.size() != back.keyframes.size()) lost.push_back("keyframes");
  if (spec.particle_triangles != back.particle_triangles) lost.push_back("cloth triangles (particle_triangles)");
  if (spec.self_collision_particles != back.self_collision_particles) lost.push_back("self collision ranges");
  if (!same_sdf_options(spec.sdf, back.sdf)) lost.push_back("SDF contact options");
  return lost;
}

// `file` (as written, resolved to `resolved`) made relative to `dir`, where the scene will be read
// from, when as written it would resolve elsewhere from there (Save As elsewhere).
void relative_file_for(std::string& file, const std::string& resolved, const fs::path& dir) {
  std::error_code ec;
  if (resolved.empty() || fs::path(file).is_absolute()) return;
  const fs::path target = fs::absolute(fs::path(resolved), ec).lexically_normal();
  if ((dir / file).lexically_normal() == target) return;
  const fs::path relative = target.lexically_relative(dir);
  file = relative.empty() ? target.generic_string() : relative.generic_string();
}

// The spec with each <robot file> and render_mesh= relative to the directory of `path`.
SceneSpec with_robot_files_for(const SceneSpec& spec, const std::string& path) {
  SceneSpec out = spec;
  std::error_code ec;
  const fs::path dir = fs::absolute(fs::path(path), ec).parent_path();
  for (RobotIncludeSpec& r : out.robots) relative_file_for(r.file, r.path, dir);
  for (SoftBodySpec& b : out.soft_bodies) {
    if (!b.render_mesh) continue;
    std::string file = b.render_mesh->file;
    relative_file_for(file, b.render_mesh->path, dir);
    if (file == b.render_mesh->file) continue;
    auto moved = std::make_shared<SoftRenderMesh>(*b.render_mesh);
    moved->file = std::move(file);
    b.render_mesh = std::move(moved);
  }
  return out;
}

}  // namespace

std::string write_scene_xml(const SceneSpec& spec) { return Writer(spec).write(); }

Result<bool> save_scene_file(const SceneSpec& spec_as_edited, const std::string& path, const AtomicWriteOptions& options) {
  if (path.empty()) return Error{"(no file name): cannot save a scene without a file name"};
  const SceneSpec spec = with_robot_files_for(spec_as_edited, path);
  const std::string text = write_scene_xml(spec);
  // A destination that cannot be replaced is refused before any texture is written.
  if (const DestinationInfo dest = destination_info(path); !dest.error.empty())
    return Error{path + ": cannot write: " + dest.error + " (nothing written)"};
  else if (dest.exists && dest.read_only && !options.replace_read_only)
    return Error{path + ": cannot write: the file is read-only (not replaced)"};
  // Painted textures first: the read-back check below loads them.
  if (std::string e = save_grain_textures(spec, path); !e.empty()) return Error{path + ": " + e + "; not saved"};
  // Refuse to replace a file with one that would not read back (e.g. a spec edited into a state
  // the format cannot hold); the message says why.
  // The references are the files the scene was loaded from (robot paths rewritten to reach them
  // from the new folder): the read-back is not a new load, so containment does not apply.
  auto check = [&] {
    ResourcePolicy trusted = resource_policy();
    trusted.allow_outside = true;
    const ScopedResourcePolicy scoped(std::move(trusted));
    return parse_scene_xml(text, path);
  }();
  if (!check.ok()) return Error{path + ": the scene would not read back, not saved (" + check.error() + ")"};
  if (const std::vector<std::string> lost = lost_in_file(spec, check.value()); !lost.empty()) {
    std::string what;
    for (std::size_t i = 0; i < lost.size() && i < 4; ++i) what += (i ? ", " : "") + lost[i];
    if (lost.size() > 4) what += ", ... (" + std::to_string(lost.size()) + " in all)";
    return Error{path + ": the scene file format cannot hold " + what + "; not saved"};
  }

  // Temporary file beside the target, checked writes, fsync, rename (sim/atomic_file.hpp); a
  // symbolic link is written through to its target, a read-only file only when `options` allow.
  if (std::string e = write_file_atomically(path, {text}, options); !e.empty()) return Error{e};
  return true;
}

}  // namespace sim
