// Shared machinery of the URDF and MJCF importers (see robot_import_common.hpp).
#include "io/robot_import_common.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>
#include <sstream>

#include "collision/convex_hull.hpp"
#include "compile/mass_properties.hpp"
#include "io/mesh_import.hpp"

namespace sim::io {

std::optional<std::array<float, 4>> rgba_attribute(const AttrSet& a, const Warnings& warnings) {
  auto v = a.reals("rgba", 4, 4);
  if (!v) return std::nullopt;
  std::array<float, 4> rgba{};
  bool clamped = false;
  for (std::size_t k = 0; k < 4; ++k) {
    const Real c = std::clamp((*v)[k], Real(0), Real(1));
    clamped = clamped || c != (*v)[k];
    rgba[k] = static_cast<float>(c);
  }
  if (clamped) a.warn_attribute(warnings, "rgba", "components outside [0, 1] are clamped");
  return rgba;
}

namespace {

std::string vec_text(const Vec3& v) { return number_text(v.x()) + " " + number_text(v.y()) + " " + number_text(v.z()); }

// Makes principal moments (largest > 0) physically valid: each at least 1e-4 of the largest, and
// the triangle inequality. Returns false when they had to change.
bool sanitize_moments(Vec3& m) {
  const Vec3 before = m;
  const Real largest = m.maxCoeff();
  const Real floor = Real(1e-4) * largest;
  for (int k = 0; k < 3; ++k) m[k] = std::max(m[k], floor);
  // Sorted a <= b <= c must satisfy c <= a + b.
  std::array<int, 3> idx{0, 1, 2};
  std::sort(idx.begin(), idx.end(), [&](int i, int j) { return m[i] < m[j]; });
  const Real c = m[idx[2]];
  if (c > (m[idx[0]] + m[idx[1]]) * (1 + Real(1e-9))) {
    m[idx[1]] = std::max(m[idx[1]], c / 2);
    m[idx[0]] = std::max(m[idx[0]], c - m[idx[1]]);
  }
  return m == before;
}

}  // namespace

// ---- attributes ----------------------------------------------------------------------------

Result<ImportResult> import_file(const std::string& path, const ImportOptions& options,
                                 Result<ImportResult> (*parse_text)(const std::string&, const std::string&,
                                                                    const ImportOptions&)) {
  std::string why;
  auto text = read_text_file(path, kMaxTextFileBytes, why);
  if (!text) return Error{path + ": cannot read the file (" + why + ")"};
  return parse_text(*text, path, options);
}

AttrSet::AttrSet(const tinyxml2::XMLElement* element, const std::string& file)
    : element_(element->Name()), file_(file), line_(element->GetLineNum()) {
  for (const tinyxml2::XMLAttribute* a = element->FirstAttribute(); a; a = a->Next())
    attrs_[a->Name()] = Attr{a->Value(), file, a->GetLineNum(), element_};
}

void AttrSet::warn_unknown(std::initializer_list<std::string_view> known, const Warnings& warnings) const {
  for (const auto& [name, a] : attrs_) {
    if (std::find(known.begin(), known.end(), std::string_view(name)) != known.end()) continue;
    if (name.rfind("xmlns", 0) == 0) continue;
    warnings.add(a.file, a.line, a.element, "unsupported attribute " + in_quotes(name) + ", ignored");
  }
}

void AttrSet::merge_defaults(const AttrSet& defaults) {
  for (const auto& [name, a] : defaults.attrs_) attrs_.emplace(name, a);
}

void AttrSet::fail(std::string_view what) const { fail_at(file_, line_, element_, what); }

void AttrSet::fail_attribute(std::string_view name, std::string_view what) const {
  const Attr* a = get(name);
  const std::string message = "attribute " + in_quotes(name) + ": " + std::string(what);
  if (a) fail_at(a->file, a->line, a->element, message);
  fail_at(file_, line_, element_, message);
}

void AttrSet::warn_attribute(const Warnings& warnings, std::string_view name, std::string_view what) const {
  const Attr* a = get(name);
  const std::string message = "attribute " + in_quotes(name) + ": " + std::string(what);
  if (a) warnings.add(a->file, a->line, a->element, message);
  else warnings.add(file_, line_, element_, message);
}

const Attr* AttrSet::get(std::string_view name) const {
  auto it = attrs_.find(name);
  return it == attrs_.end() ? nullptr : &it->second;
}

std::optional<std::string> AttrSet::text(std::string_view name) const {
  const Attr* a = get(name);
  if (!a) return std::nullopt;
  return a->value;
}

std::string AttrSet::required_text(std::string_view name) const {
  const Attr* a = get(name);
  if (!a) fail("missing required attribute " + in_quotes(name));
  return a->value;
}

std::optional<std::vector<Real>> AttrSet::reals(std::string_view name, std::size_t min_count,
                                                std::size_t max_count, Range range) const {
  const Attr* a = get(name);
  if (!a) return std::nullopt;
  const auto tokens = split_tokens(a->value);
  if (tokens.size() < min_count || tokens.size() > max_count) {
    std::string expected = std::to_string(min_count);
    if (max_count != min_count) expected += max_count > 1000 ? " or more" : " to " + std::to_string(max_count);
    fail_attribute(name, "expected " + expected + (max_count == 1 ? " number" : " numbers") + ", got " +
                             std::to_string(tokens.size()) + " in " + in_quotes(a->value));
  }
  std::vector<Real> out;
  out.reserve(tokens.size());
  for (std::string_view t : tokens) {
    double v = 0;
    if (!parse_real(t, v)) fail_attribute(name, "malformed number " + in_quotes(t));
    if ((range == Range::Positive && !(v > 0)) || (range == Range::NonNegative && !(v >= 0)))
      fail_attribute(name, std::string("must be ") + (range == Range::Positive ? "> 0" : ">= 0") + " (got " +
                               in_quotes(a->value) + ")");
    out.push_back(static_cast<Real>(v));
  }
  return out;
}

std::optional<Real> AttrSet::real(std::string_view name, Range range) const {
  auto v = reals(name, 1, 1, range);
  if (!v) return std::nullopt;
  return (*v)[0];
}

Real AttrSet::real_or(std::string_view name, Real fallback, Range range) const {
  auto v = real(name, range);
  return v ? *v : fallback;
}

Real AttrSet::required_real(std::string_view name, Range range) const {
  if (!has(name)) fail("missing required attribute " + in_quotes(name));
  return *real(name, range);
}

std::optional<Vec3> AttrSet::vec3(std::string_view name, Range range) const {
  auto v = reals(name, 3, 3, range);
  if (!v) return std::nullopt;
  return Vec3((*v)[0], (*v)[1], (*v)[2]);
}

std::optional<bool> AttrSet::boolean(std::string_view name) const {
  const Attr* a = get(name);
  if (!a) return std::nullopt;
  const auto tokens = split_tokens(a->value);
  const std::string_view t = tokens.size() == 1 ? tokens[0] : std::string_view();
  if (t == "true" || t == "1") return true;
  if (t == "false" || t == "0") return false;
  fail_attribute(name, "expected true or false, got " + in_quotes(a->value));
}

// ---- meshes ---------------------------------------------------------------------------------

const TriangleMesh* MeshCache::get(const std::string& path, const Vec3& scale, std::string& error) {
  const auto key = std::make_pair(path, std::array<Real, 3>{scale.x(), scale.y(), scale.z()});
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    Entry e;
    auto loaded = load_mesh_file(path, scale);
    if (loaded) e.mesh = std::move(loaded.value());
    else e.error = loaded.error();
    it = entries_.emplace(key, std::move(e)).first;
  }
  if (!it->second.mesh) {
    error = it->second.error;
    return nullptr;
  }
  return &*it->second.mesh;
}

bool mesh_shapes(const TriangleMesh& mesh, const Pose& local, const ShapeSpec& prototype,
                 const ImportOptions& options, const std::string& where, std::vector<ShapeSpec>& shapes,
                 std::string& error) {
  auto hulls = mesh_collision_hulls(mesh, options, where);
  if (!hulls) {
    error = hulls.error();
    return false;
  }
  for (std::vector<Vec3>& part : hulls.value().parts) {
    ShapeSpec s = prototype;
    s.type = ShapeType::ConvexMesh;
    s.local = local;
    s.vertices = std::move(part);
    shapes.push_back(std::move(s));
  }
  return true;
}

ShapeSpec fallback_box(const std::optional<InertialDesc>& inertial, const Pose& local, const ShapeSpec& prototype) {
  ShapeSpec s = prototype;
  s.type = ShapeType::Box;
  s.local = local;
  s.half_extents = Vec3::Constant(Real(0.025));
  if (inertial && inertial->mass > 0) {
    Vec3 moments;
    Quat axes;
    principal_axes(inertial->inertia, moments, axes);
    // Uniform box: I_x = m/3 (h_y² + h_z²), ... => h_x² = 3 (I_y + I_z - I_x) / (2 m).
    Vec3 h;
    bool ok = true;
    for (int k = 0; k < 3; ++k) {
      const Real sq = 3 * (moments.sum() - 2 * moments[k]) / (2 * inertial->mass);
      ok = ok && sq > 0 && std::isfinite(sq);
      h[k] = ok ? std::sqrt(sq) : 0;
    }
    if (ok) {
      s.half_extents = h.cwiseMax(Vec3::Constant(Real(0.005))).cwiseMin(Vec3::Constant(Real(1)));
      s.local = Pose{inertial->frame.apply(Vec3::Zero()), inertial->frame.rot * axes};
    }
  }
  return s;
}

std::optional<InertialDesc> shapes_inertial(const std::vector<ShapeSpec>& shapes) {
  ShapeMass total;
  for (const ShapeSpec& s : shapes) {
    if (s.type == ShapeType::Plane) continue;
    Model::Hull hull;
    const Model::Hull* hp = nullptr;
    if (s.type == ShapeType::ConvexMesh) {
      auto built = build_convex_hull(s.vertices, "shape");
      if (!built) continue;
      hull = std::move(built.value());
      hp = &hull;
    }
    total = combine(total, shape_mass(s, hp));
  }
  if (!(total.mass > 0)) return std::nullopt;
  InertialDesc out;
  out.mass = total.mass;
  out.frame = Pose{total.center, Quat::Identity()};
  out.inertia = total.inertia;
  return out;
}

// ---- building the fragment ------------------------------------------------------------------

void build_robot(const RobotDesc& desc, const ImportOptions& options, const Warnings& warnings, ImportResult& out) {
  const int n = static_cast<int>(desc.links.size());
  const int joint_count = static_cast<int>(desc.joints.size());
  const std::string& prefix = options.name_prefix;
  std::vector<int> parent_joint(n, -1);
  std::vector<std::vector<int>> child_joints(n);
  for (int j = 0; j < joint_count; ++j) {
    const JointDesc& jd = desc.joints[j];
    if (!jd.edge) continue;
    const SourceLocation& at = jd.info.source;
    if (jd.parent == jd.child)
      fail_at(at.file, at.line, "joint", "joint " + in_quotes(jd.info.name) + " connects link " +
                                              in_quotes(desc.links[jd.child].name) + " to itself");
    if (desc.links[jd.child].world)
      fail_at(at.file, at.line, "joint", "joint " + in_quotes(jd.info.name) + ": the world link cannot be a child");
    if (parent_joint[jd.child] >= 0)
      fail_at(at.file, at.line, "joint",
              "link " + in_quotes(desc.links[jd.child].name) + " already has a parent (joint " +
                  in_quotes(desc.joints[parent_joint[jd.child]].info.name) + ")");
    parent_joint[jd.child] = j;
    child_joints[jd.parent].push_back(j);
  }

  // Subtree sizes (and cycle detection: a link on a cycle is never reached from a parentless one).
  std::vector<int> order;
  std::vector<char> reached(n, 0);
  std::vector<int> roots;
  for (int l = 0; l < n; ++l)
    if (parent_joint[l] < 0) roots.push_back(l);
  for (int r : roots) {
    std::deque<int> queue{r};
    reached[r] = 1;
    while (!queue.empty()) {
      const int l = queue.front();
      queue.pop_front();
      order.push_back(l);
      for (int j : child_joints[l]) {
        const int c = desc.joints[j].child;
        if (!reached[c]) reached[c] = 1, queue.push_back(c);
      }
    }
  }
  for (int l = 0; l < n; ++l)
    if (!reached[l]) {
      const SourceLocation& at = desc.joints[parent_joint[l]].info.source;
      fail_at(at.file, at.line, "joint", "the joints form a cycle through link " + in_quotes(desc.links[l].name));
    }
  std::vector<int> descendants(n, 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (parent_joint[*it] >= 0) descendants[desc.joints[parent_joint[*it]].parent] += descendants[*it] + 1;

  int root = desc.root;
  if (root < 0) {
    for (int r : roots)
      if (desc.links[r].world) root = r;
    if (root < 0)
      for (int r : roots)
        if (root < 0 || descendants[r] > descendants[root]) root = r;
  }
  for (int r : roots)
    if (r != root && !desc.links[r].world)
      warnings.add(desc.links[r].source.file, desc.links[r].source.line, "link",
                   "link " + in_quotes(desc.links[r].name) + " is connected to nothing: it becomes a free body");

  // Link poses along the tree, and which link owns the body each link ends up in.
  std::vector<Pose> link_pose(n), link_in_body(n);
  std::vector<int> owner(n, -1);
  std::vector<char> fixed_to_world(n, 0);
  for (int l : order) {
    if (desc.links[l].world) continue;  // owner -1: the world
    const int pj = parent_joint[l];
    if (pj < 0) {
      owner[l] = l;
      continue;
    }
    const JointDesc& jd = desc.joints[pj];
    link_pose[l] = link_pose[jd.parent] * jd.origin;
    link_pose[l].rot.normalize();
    const bool fixed = jd.info.kind == RobotJointKind::Fixed;
    if (fixed && options.merge_fixed_links && owner[jd.parent] >= 0) {
      owner[l] = owner[jd.parent];
      link_in_body[l] = link_in_body[jd.parent] * jd.origin;
    } else {
      owner[l] = l;
      if (fixed && options.merge_fixed_links && owner[jd.parent] < 0) fixed_to_world[l] = 1;
    }
  }

  // Materials, then bodies in link document order.
  out.scene.materials = desc.materials;
  for (MaterialSpec& m : out.scene.materials) m.name = prefix + m.name;
  std::vector<int> body_of_owner(n, -1);
  std::set<std::string> body_names;
  for (int l = 0; l < n; ++l) {
    if (owner[l] != l) continue;
    body_of_owner[l] = static_cast<int>(out.scene.bodies.size());
    BodySpec b;
    b.name = prefix + desc.links[l].name;
    for (int k = 2; body_names.count(b.name); ++k) b.name = prefix + desc.links[l].name + "_" + std::to_string(k);
    body_names.insert(b.name);
    b.pose = link_pose[l];
    b.fixed = fixed_to_world[l] != 0;
    b.source = desc.links[l].source;
    out.scene.bodies.push_back(std::move(b));
  }
  auto body_of = [&](int l) { return owner[l] < 0 ? -1 : body_of_owner[owner[l]]; };

  // Shapes, visuals, sites and mass properties per link.
  out.links.clear();
  std::vector<ShapeMass> body_mass(out.scene.bodies.size());
  for (int l = 0; l < n; ++l) {
    const LinkDesc& link = desc.links[l];
    const int b = body_of(l);
    RobotLink info;
    info.name = link.name;
    info.body = b;
    info.frame_in_body = link_in_body[l];
    info.source = link.source;
    for (RobotVisual v : link.visuals) {
      v.link = l;
      v.body = b;
      v.local = link_in_body[l] * v.local;
      out.visuals.push_back(std::move(v));
    }
    for (RobotSite s : link.sites) {
      s.body = b;
      s.local = link_in_body[l] * s.local;
      out.sites.push_back(std::move(s));
    }
    std::vector<ShapeSpec> shapes = link.shapes;
    for (ShapeSpec& s : shapes) s.local = link_in_body[l] * s.local;
    if (b < 0) {
      for (ShapeSpec& s : shapes) {
        if (s.type == ShapeType::Plane) s.local = link_pose[l] * s.local;
        out.scene.world_shapes.push_back(std::move(s));
      }
      out.links.push_back(std::move(info));
      continue;
    }
    ShapeMass m;
    if (link.inertial) {
      const Pose frame = link_in_body[l] * link.inertial->frame;
      const Mat3 r = frame.rot.toRotationMatrix();
      m.mass = link.inertial->mass;
      m.center = frame.pos;
      m.inertia = r * link.inertial->inertia * r.transpose();
      info.mass = m.mass;
    } else if (auto geometric = shapes_inertial(shapes)) {
      m.mass = geometric->mass;
      m.center = geometric->frame.pos;
      m.inertia = geometric->inertia;
      info.mass = m.mass;
      info.mass_from_geometry = true;
      if (desc.warn_mass_from_geometry)
        warnings.add(link.source.file, link.source.line, "link",
                     "link " + in_quotes(link.name) + " has no <inertial>: " + number_text(m.mass) +
                         " kg from its collision geometry at " + number_text(options.density) + " kg/m^3");
    }
    body_mass[b] = combine(body_mass[b], m);
    BodySpec& body = out.scene.bodies[b];
    for (ShapeSpec& s : shapes) {
      if (s.type == ShapeType::Plane) {
        warnings.add(s.source.file, s.source.line, "plane", "a plane on a moving body is not supported, skipped");
        continue;
      }
      body.shapes.push_back(std::move(s));
    }
    out.links.push_back(std::move(info));
  }
  for (std::size_t b = 0; b < out.scene.bodies.size(); ++b) {
    BodySpec& body = out.scene.bodies[b];
    ShapeMass m = body_mass[b];
    if (!(m.mass > 0)) {
      if (body.fixed) continue;
      constexpr Real kFallbackMass = Real(0.01), kFallbackRadius = Real(0.05);
      warnings.add(body.source.file, body.source.line, "link",
                   "body " + in_quotes(body.name) + " has no mass (no inertial, no collision geometry): given " +
                       number_text(kFallbackMass) + " kg");
      m.mass = kFallbackMass;
      m.center = Vec3::Zero();
      m.inertia = Mat3::Identity() * (Real(0.4) * kFallbackMass * kFallbackRadius * kFallbackRadius);
      for (RobotLink& link : out.links)
        if (link.body == static_cast<int>(b) && link.mass == 0) {
          link.mass = kFallbackMass;
          break;
        }
    }
    Vec3 moments;
    Quat axes;
    principal_axes(m.inertia, moments, axes);
    const Vec3 authored = moments;
    if (!(moments.maxCoeff() > 0)) moments = Vec3::Constant(Real(0.4) * m.mass * Real(0.01 * 0.01));
    if (!sanitize_moments(moments) || moments != authored)
      warnings.add(body.source.file, body.source.line, "inertial",
                   "body " + in_quotes(body.name) + ": the inertia is not physically valid; principal moments " +
                       vec_text(authored) + " replaced by " + vec_text(moments));
    body.mass = m.mass;
    body.com = m.center;
    body.inertia = moments;
    body.inertia_frame = axes;
  }

  // Joints.
  std::set<std::string> joint_names;
  for (int j = 0; j < joint_count; ++j) {
    const JointDesc& jd = desc.joints[j];
    RobotJoint info = jd.info;
    info.joint = -1;
    if (!jd.edge) {
      out.joints.push_back(std::move(info));
      continue;
    }
    const int bp = body_of(jd.parent), bc = body_of(jd.child);
    const RobotJointKind kind = info.kind;
    bool make = true;
    if (bp == bc || (kind == RobotJointKind::Fixed && fixed_to_world[jd.child])) {
      info.merged = true;
      make = false;
    }
    if (kind == RobotJointKind::Floating || kind == RobotJointKind::Planar) make = false;
    if (make) {
      JointSpec js;
      js.name = prefix + info.name;
      for (int k = 2; joint_names.count(js.name); ++k) js.name = prefix + info.name + "_" + std::to_string(k);
      joint_names.insert(js.name);
      switch (kind) {
        case RobotJointKind::Fixed: js.type = JointType::Fixed; break;
        case RobotJointKind::Prismatic: js.type = JointType::Prismatic; break;
        case RobotJointKind::Ball: js.type = JointType::Ball; break;
        default: js.type = JointType::Revolute; break;
      }
      js.body_a = bp;
      js.body_b = bc;
      const Pose joint_in_parent = jd.origin * jd.frame_in_child;
      js.frame_a = (bp < 0 ? link_pose[jd.parent] : link_in_body[jd.parent]) * joint_in_parent;
      js.frame_b = link_in_body[jd.child] * jd.frame_in_child;
      js.frame_a.rot.normalize();
      js.frame_b.rot.normalize();
      js.axis = jd.axis;
      js.limited = info.limited && (js.type == JointType::Revolute || js.type == JointType::Prismatic);
      js.lower = info.lower;
      js.upper = info.upper;
      js.drive = jd.drive;
      js.stiffness = jd.stiffness;
      js.damping = jd.damping;
      js.armature = jd.armature;
      js.max_force = jd.max_force;
      js.target_limited = jd.target_limited && jd.drive != DriveMode::None;
      js.target_lower = jd.target_lower;
      js.target_upper = jd.target_upper;
      js.source = info.source;
      info.joint = static_cast<int>(out.scene.joints.size());
      out.scene.joints.push_back(std::move(js));
    }
    if (!jd.implicit) out.joints.push_back(std::move(info));
  }

  if (root >= 0) {
    if (!desc.links[root].world) {
      out.root_body = body_of(root);
    } else {
      for (int j : child_joints[root])
        if (body_of(desc.joints[j].child) >= 0) {
          out.root_body = body_of(desc.joints[j].child);
          break;
        }
    }
  }
}

}  // namespace sim::io
