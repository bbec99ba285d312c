#include "gui/scene_properties.hpp"

#include "gui/friction_properties.hpp"
#include "gui/soft_body_properties.hpp"
#include "sim/compile.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "sim/field_table.hpp"
#include "sim/recompile.hpp"
#include "sim/recording.hpp"
#include "sim/solver_options.hpp"

namespace coulomb::gui {

namespace {

using sim::Real;
using sim::Vec3;

constexpr double kBig = 1e12;

const char* const kComponents[] = {"x", "y", "z"};

// "pos.y" -> ("pos", 1); "mass" -> ("mass", -1).
std::pair<std::string, int> split_component(const std::string& name) {
  const auto dot = name.rfind('.');
  if (dot == std::string::npos) return {name, -1};
  const std::string tail = name.substr(dot + 1);
  for (int i = 0; i < 3; ++i)
    if (tail == kComponents[i]) return {name.substr(0, dot), i};
  return {name, -1};
}

PropertyInfo real(const ItemRef& item, std::string name, std::string label, double value, double lo, double hi,
                  std::string unit, bool structural, int decimals = 4, double step = 0.01) {
  PropertyInfo p;
  p.key = {item, std::move(name)};
  p.label = std::move(label);
  p.type = PropertyType::Real;
  p.value = value;
  p.minimum = lo;
  p.maximum = hi;
  p.unit = std::move(unit);
  p.structural = structural;
  p.decimals = decimals;
  p.step = step;
  return p;
}

PropertyInfo integer(const ItemRef& item, std::string name, std::string label, double value, double lo, double hi) {
  PropertyInfo p = real(item, std::move(name), std::move(label), value, lo, hi, "", false, 0, 1);
  p.type = PropertyType::Integer;
  return p;
}

PropertyInfo boolean(const ItemRef& item, std::string name, std::string label, bool value, bool structural) {
  PropertyInfo p;
  p.key = {item, std::move(name)};
  p.label = std::move(label);
  p.type = PropertyType::Bool;
  p.value = value;
  p.structural = structural;
  return p;
}

PropertyInfo choice(const ItemRef& item, std::string name, std::string label, std::string value,
                    std::vector<std::string> choices, bool structural) {
  PropertyInfo p;
  p.key = {item, std::move(name)};
  p.label = std::move(label);
  p.type = PropertyType::Choice;
  p.value = std::move(value);
  p.choices = std::move(choices);
  p.structural = structural;
  return p;
}

void vec3_properties(std::vector<PropertyInfo>& out, const ItemRef& item, const std::string& name,
                     const std::string& label, const Vec3& v, double lo, double hi, const std::string& unit,
                     bool structural) {
  for (int i = 0; i < 3; ++i)
    out.push_back(real(item, name + "." + kComponents[i], label + " " + kComponents[i], v[i], lo, hi, unit, structural));
}

// The property of a table field (sim/spec_fields.hpp): range, unit, step and tooltip from its entry.
template <class Spec>
PropertyInfo field_property(const ItemRef& item, const sim::Field<Spec>& f, const Spec& owner, bool linear = false) {
  double lo = f.range == sim::FieldRange::Any ? -kBig : f.range == sim::FieldRange::Positive ? 1e-9 : 0;
  if (f.has_unset()) lo = std::min(lo, static_cast<double>(f.unset));
  const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(static_cast<double>(f.step)))) + 3, 3, 10);
  PropertyInfo p = real(item, std::string(f.name), std::string(f.label), owner.*f.spec, lo, kBig,
                        std::string(linear ? f.linear_unit : f.unit), false, decimals, f.step);
  p.tooltip = std::string(f.doc);
  return p;
}

// The table fields of `owner` that `shown` accepts, in table order.
template <class Spec, class Shown>
void field_properties(std::vector<PropertyInfo>& out, const ItemRef& item, const Spec& owner, bool linear, Shown&& shown) {
  for (const sim::Field<Spec>& f : sim::fields_of<Spec>())
    if (shown(f)) out.push_back(field_property(item, f, owner, linear));
}

template <class Spec>
void field_properties(std::vector<PropertyInfo>& out, const ItemRef& item, const Spec& owner) {
  field_properties(out, item, owner, false, [](const sim::Field<Spec>&) { return true; });
}

// Sets table field `name` of `owner` when it is one: nullopt when it is not, else "" or why not.
template <class Spec>
std::optional<std::string> set_field(Spec& owner, const std::string& name, sim::Real value) {
  const sim::Field<Spec>* f = sim::find_field<Spec>(name);
  if (!f) return std::nullopt;
  if (!f->accepts(value))
    return std::string(f->range_text()) + (f->has_unset() ? " (or " + std::to_string(static_cast<int>(f->unset)) + ")" : std::string());
  owner.*f->spec = value;
  return std::string();
}

std::string material_choice(const sim::SceneSpec& spec, int material) {
  if (material >= 0 && material < static_cast<int>(spec.materials.size()))
    return spec.materials[static_cast<std::size_t>(material)].name;
  return "(default)";
}

std::vector<std::string> material_choices(const sim::SceneSpec& spec) {
  std::vector<std::string> out{"(default)"};
  for (const sim::MaterialSpec& m : spec.materials) out.push_back(m.name);
  return out;
}

const char* drive_name(sim::DriveMode d) {
  switch (d) {
    case sim::DriveMode::None: return "none";
    case sim::DriveMode::Position: return "position";
    case sim::DriveMode::Velocity: return "velocity";
  }
  return "none";
}

const char* joint_type_name(sim::JointType t) {
  switch (t) {
    case sim::JointType::Fixed: return "fixed";
    case sim::JointType::Revolute: return "revolute";
    case sim::JointType::Prismatic: return "prismatic";
    case sim::JointType::Ball: return "ball";
  }
  return "?";
}

const char* shape_type_name(sim::ShapeType t) {
  switch (t) {
    case sim::ShapeType::Plane: return "plane";
    case sim::ShapeType::Sphere: return "sphere";
    case sim::ShapeType::Capsule: return "capsule";
    case sim::ShapeType::Box: return "box";
    case sim::ShapeType::ConvexMesh: return "convex";
    case sim::ShapeType::Cylinder: return "cylinder";
    case sim::ShapeType::Ellipsoid: return "ellipsoid";
  }
  return "?";
}

bool has_axis(const sim::JointSpec& j) {
  return j.type == sim::JointType::Revolute || j.type == sim::JointType::Prismatic;
}

std::string number_text(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("0");
}

const sim::ShapeSpec* find_shape(const sim::SceneSpec& spec, const ItemRef& item) {
  if (item.kind != ItemKind::Shape || item.sub < 0) return nullptr;
  if (item.index < 0) {
    return item.sub < static_cast<int>(spec.world_shapes.size()) ? &spec.world_shapes[static_cast<std::size_t>(item.sub)]
                                                                  : nullptr;
  }
  if (item.index >= static_cast<int>(spec.bodies.size())) return nullptr;
  const auto& shapes = spec.bodies[static_cast<std::size_t>(item.index)].shapes;
  return item.sub < static_cast<int>(shapes.size()) ? &shapes[static_cast<std::size_t>(item.sub)] : nullptr;
}

sim::ShapeSpec* find_shape(sim::SceneSpec& spec, const ItemRef& item) {
  return const_cast<sim::ShapeSpec*>(find_shape(static_cast<const sim::SceneSpec&>(spec), item));
}

template <class T>
bool in_range(const std::vector<T>& v, int i) {
  return i >= 0 && i < static_cast<int>(v.size());
}

// Reads a double from the value (bools as 0/1); nullopt for strings.
std::optional<double> as_number(const PropertyValue& v) {
  if (const double* d = std::get_if<double>(&v)) return *d;
  if (const bool* b = std::get_if<bool>(&v)) return *b ? 1.0 : 0.0;
  return std::nullopt;
}

std::optional<bool> as_bool(const PropertyValue& v) {
  if (const bool* b = std::get_if<bool>(&v)) return *b;
  if (const double* d = std::get_if<double>(&v)) return *d != 0;
  return std::nullopt;
}

std::optional<std::string> as_text(const PropertyValue& v) {
  if (const std::string* s = std::get_if<std::string>(&v)) return *s;
  return std::nullopt;
}

}  // namespace

bool item_exists(const sim::SceneSpec& spec, const ItemRef& item) {
  switch (item.kind) {
    case ItemKind::None: return false;
    case ItemKind::Scene:
    case ItemKind::Solver: return true;
    case ItemKind::Material: return in_range(spec.materials, item.index);
    case ItemKind::Body: return in_range(spec.bodies, item.index);
    case ItemKind::Shape: return find_shape(spec, item) != nullptr;
    case ItemKind::Joint: return in_range(spec.joints, item.index);
    case ItemKind::Particle: return in_range(spec.particles, item.index);
    case ItemKind::SoftBody: return in_range(spec.soft_bodies, item.index);
  }
  return false;
}

std::string item_label(const sim::SceneSpec& spec, const ItemRef& item) {
  if (!item_exists(spec, item)) return "(nothing)";
  const auto i = static_cast<std::size_t>(item.index);
  switch (item.kind) {
    case ItemKind::None: return "(nothing)";
    case ItemKind::Scene: return "scene '" + spec.name + "'";
    case ItemKind::Solver: return "solver";
    case ItemKind::Material: return "material '" + spec.materials[i].name + "'";
    case ItemKind::Body: return "body '" + spec.bodies[i].name + "'";
    case ItemKind::Shape: {
      const std::string type = shape_type_name(find_shape(spec, item)->type);
      if (item.index < 0) return "world " + type + " " + std::to_string(item.sub);
      return type + " " + std::to_string(item.sub) + " of '" + spec.bodies[i].name + "'";
    }
    case ItemKind::Joint: return std::string(joint_type_name(spec.joints[i].type)) + " joint '" + spec.joints[i].name + "'";
    case ItemKind::Particle: return "particle " + std::to_string(item.index);
    case ItemKind::SoftBody: return "soft body '" + spec.soft_bodies[i].name + "'";
  }
  return "?";
}

std::vector<PropertyInfo> describe_item(const sim::SceneSpec& spec, const ItemRef& item) {
  std::vector<PropertyInfo> out;
  if (!item_exists(spec, item)) return out;
  const auto i = static_cast<std::size_t>(item.index);
  switch (item.kind) {
    case ItemKind::None: break;
    case ItemKind::Scene:
      out.push_back(real(item, "dt", "time step", spec.dt, 1e-5, 1.0, "s", false, 5, 0.001));
      vec3_properties(out, item, "gravity", "gravity", spec.gravity, -100, 100, "m/s²", false);
      break;
    case ItemKind::Solver: {
      const sim::SolverOptions& o = spec.solver;
      std::vector<std::string> kinds;
      for (sim::SolverKind k : sim::kSolverKinds) kinds.emplace_back(sim::to_string(k));
      out.push_back(choice(item, "kind", "solver", std::string(sim::to_string(o.kind)), kinds, false));
      out.push_back(choice(item, "ncp", "NCP function", std::string(sim::to_string(o.ncp)),
                           {"fischer_burmeister", "min_map"}, false));
      out.push_back(choice(item, "preconditioner", "preconditioner", std::string(sim::to_string(o.preconditioner)),
                           {"identity", "h2", "effective_mass"}, false));
      out.push_back(choice(item, "linear_solver", "linear solver", std::string(sim::to_string(o.linear_solver)),
                           {"pcr", "pcg", "jacobi", "gauss_seidel", "direct", "auto"}, false));
      out.push_back(integer(item, "newton_iterations", "Newton iterations", o.newton_iterations, 1, 10000));
      out.push_back(integer(item, "linear_iterations", "linear iterations", o.linear_iterations, 1, 100000));
      out.push_back(real(item, "newton_tolerance", "Newton tolerance", o.newton_tolerance, 0, kBig, "m", false, 9, 1e-6));
      out.push_back(real(item, "newton_velocity_tolerance", "Newton velocity tolerance", o.newton_velocity_tolerance, 0,
                         kBig, "m/s", false, 9, 1e-6));
      out.push_back(boolean(item, "line_search", "line search", o.line_search, false));
      out.push_back(real(item, "linear_tolerance", "linear tolerance", o.linear_tolerance, 0, kBig, "", false, 9, 1e-6));
      out.push_back(real(item, "linear_forcing_max", "linear forcing max", o.linear_forcing_max, 0, 0.99, "", false, 3, 0.01));
      out.push_back(choice(item, "elastic_factorization", "elastic factorisation",
                           std::string(sim::to_string(o.elastic_factorization)), {"simplicial", "supernodal", "auto"},
                           false));
      out.push_back(real(item, "damping", "damping t", o.damping, 1e-6, 1, "", false, 3, 0.05));
      out.push_back(real(item, "regularization", "regularization ε", o.regularization, 0, kBig, "", false, 10, 1e-7));
      out.push_back(boolean(item, "warm_start", "warm start", o.warm_start, false));
      out.push_back(boolean(item, "geometric_stiffness", "geometric stiffness", o.geometric_stiffness, false));
      out.push_back(boolean(item, "element_geometric_stiffness", "exact element geometric stiffness",
                            o.element_geometric_stiffness, false));
      out.push_back(boolean(item, "rope_geometric_stiffness", "exact rope-link geometric stiffness",
                            o.rope_geometric_stiffness, false));
      out.push_back(boolean(item, "project_friction", "project friction", o.project_friction, false));
      out.push_back(boolean(item, "friction_merit_natural_map", "friction merit: natural map",
                            o.friction_merit_natural_map, false));
      out.push_back(boolean(item, "implicit_gyroscopic", "implicit gyroscopic term", o.implicit_gyroscopic, false));
      out.push_back(real(item, "jacobi_weight", "Jacobi weight", o.jacobi_weight, 1e-6, 1, "", false, 3, 0.05));
      out.push_back(integer(item, "pgs_iterations", "PGS sweeps", o.pgs_iterations, 1, 100000));
      out.push_back(real(item, "pgs_relaxation", "PGS relaxation ω", o.pgs_relaxation, 1e-6, 1.999, "", false, 3, 0.05));
      out.push_back(integer(item, "dual_iterations", "dual iterations", o.dual_iterations, 1, 100000));
      out.push_back(real(item, "dual_relaxation", "dual step ω", o.dual_relaxation, 1e-6, 1.999, "", false, 3, 0.05));
      out.push_back(boolean(item, "dual_gauss_seidel", "dual Gauss-Seidel order", o.dual_gauss_seidel, false));
      out.push_back(boolean(item, "dual_consistent", "dual consistent velocity", o.dual_consistent, false));
      out.push_back(integer(item, "primal_iterations", "primal iterations", o.primal_iterations, 1, 100000));
      out.push_back(real(item, "primal_step", "primal step α", o.primal_step, 1e-6, 1.999, "", false, 3, 0.05));
      out.push_back(real(item, "primal_stiffness", "primal joint stiffness", o.primal_stiffness, 1e-6, kBig, "N/m", false, 0, 1e6));
      out.push_back(real(item, "primal_contact_stiffness", "primal contact stiffness", o.primal_contact_stiffness, 1e-6, kBig,
                         "N/m", false, 0, 1e6));
      out.push_back(real(item, "primal_friction_stiffness", "primal friction stiffness", o.primal_friction_stiffness, 1e-6,
                         kBig, "N/m", false, 0, 1e6));
      out.push_back(integer(item, "substeps", "substeps", o.substeps, 1, 1000));
      out.push_back(integer(item, "step_retries", "retries of a failed step", o.step_retries, 0, 4));
      out.push_back(real(item, "contact_margin", "contact margin", o.contact_margin, 0, 10, "m", false, 4, 0.001));
      out.push_back(real(item, "max_depenetration_velocity", "max depenetration velocity", o.max_depenetration_velocity,
                         0, kBig, "m/s", false, 3, 0.1));
      out.push_back(real(item, "divergence_limit", "divergence limit", o.divergence_limit, 0, kBig, "", false, 0, 1e6));
      out.push_back(real(item, "joint_angle_error_limit", "joint angle error limit", o.joint_angle_error_limit, 0, kBig,
                         "rad", false, 3, 0.01));
      out.push_back(real(item, "joint_position_error_limit", "joint position error limit", o.joint_position_error_limit,
                         0, kBig, "x bound radius", false, 3, 0.05));
      out.push_back(real(item, "world_bound", "world bound", o.world_bound, 1e-6, kBig, "m", false, 0, 100));
      out.push_back(real(item, "speed_limit", "speed limit", o.speed_limit, 1e-6, kBig, "m/s", false, 0, 10));
      out.push_back(real(item, "angular_speed_limit", "angular speed limit", o.angular_speed_limit, 1e-6, kBig, "rad/s",
                         false, 0, 100));
      break;
    }
    case ItemKind::Material: {
      const sim::MaterialSpec& m = spec.materials[i];
      field_properties(out, item, m);
      describe_grain(m.structure, item, out);
      break;
    }
    case ItemKind::Body: {
      const sim::BodySpec& b = spec.bodies[i];
      field_properties(out, item, b);
      describe_grain(b.structure, item, out);
      out.push_back(boolean(item, "fixed", "fixed", b.fixed, true));
      vec3_properties(out, item, "pos", "position", b.pose.pos, -kBig, kBig, "m", true);
      vec3_properties(out, item, "velocity", "velocity", b.linear_velocity, -kBig, kBig, "m/s", true);
      break;
    }
    case ItemKind::Shape: {
      const sim::ShapeSpec& s = *find_shape(spec, item);
      switch (s.type) {
        case sim::ShapeType::Plane:
        case sim::ShapeType::ConvexMesh: break;
        case sim::ShapeType::Sphere:
          out.push_back(real(item, "radius", "radius", s.radius, 1e-6, kBig, "m", true));
          break;
        case sim::ShapeType::Capsule:
        case sim::ShapeType::Cylinder:
          out.push_back(real(item, "radius", "radius", s.radius, 1e-6, kBig, "m", true));
          out.push_back(real(item, "half_length", "half length", s.half_length,
                             s.type == sim::ShapeType::Cylinder ? 1e-6 : 0, kBig, "m", true));
          break;
        case sim::ShapeType::Ellipsoid:
          vec3_properties(out, item, "half_extents", "radius", s.half_extents, 1e-6, kBig, "m", true);
          break;
        case sim::ShapeType::Box:
          vec3_properties(out, item, "half_extents", "half extent", s.half_extents, 1e-6, kBig, "m", true);
          break;
      }
      if (!s.triangles.empty()) {  // a triangle mesh collided through its SDF (thesis ch. 6)
        PropertyInfo voxel = real(item, "sdf_voxel_size", "SDF voxel size", s.sdf_voxel_size, 0, 10, "m", true, 5, 0.001);
        voxel.tooltip = "0: 1/64 of the mesh's largest extent. Rebakes (cached); the SDF baker panel bakes in the background";
        out.push_back(voxel);
        out.push_back(real(item, "sdf_band", "SDF band", s.sdf_band, 0, 1000, "voxels", true, 2, 0.5));
      }
      out.push_back(real(item, "thickness", "thickness d", s.thickness, 0, 10, "m", false, 4, 0.001));
      PropertyInfo material = choice(item, "material", "material", material_choice(spec, s.material),
                                     material_choices(spec), false);
      material.tooltip = "(default): the material named 'default', μ 0.5";
      out.push_back(material);
      if (item.index >= 0) out.push_back(real(item, "density", "density", s.density, 1e-6, kBig, "kg/m³", true, 1, 100));
      vec3_properties(out, item, "pos", "position", s.local.pos, -kBig, kBig, "m", true);
      break;
    }
    case ItemKind::Joint: {
      const sim::JointSpec& j = spec.joints[i];
      const bool prismatic = j.type == sim::JointType::Prismatic;
      if (has_axis(j)) {
        const std::string unit = prismatic ? "m" : "rad";
        out.push_back(boolean(item, "limited", "limited", j.limited, false));
        out.push_back(real(item, "lower", "lower limit", j.lower, -kBig, kBig, unit, false));
        out.push_back(real(item, "upper", "upper limit", j.upper, -kBig, kBig, unit, false));
        out.push_back(choice(item, "drive", "drive", drive_name(j.drive), {"none", "position", "velocity"}, false));
      }
      // The table's joint fields: the drive's only where there is a drive (an axis), armature
      // where compile_model takes it (revolute and ball joints).
      field_properties(out, item, j, prismatic, [&](const sim::Field<sim::JointSpec>& f) {
        if (f.element == "drive") return has_axis(j);
        if (f.name == "armature") return j.type == sim::JointType::Revolute || j.type == sim::JointType::Ball;
        return true;
      });
      break;
    }
    case ItemKind::Particle: {
      const sim::ParticleSpec& p = spec.particles[i];
      field_properties(out, item, p);
      out.push_back(choice(item, "material", "material", material_choice(spec, p.material), material_choices(spec), false));
      vec3_properties(out, item, "pos", "position", p.position, -kBig, kBig, "m", true);
      break;
    }
    case ItemKind::SoftBody: soft_body_properties(out, item, spec.soft_bodies[i].material); break;
  }
  // Structural flags follow is_parameter_only (the material choice depends on the value).
  for (PropertyInfo& p : out) p.structural = !is_parameter_only(spec, p.key);
  return out;
}

std::optional<PropertyValue> get_property(const sim::SceneSpec& spec, const PropertyKey& key) {
  for (const PropertyInfo& p : describe_item(spec, key.item))
    if (p.key.name == key.name) return p.value;
  return std::nullopt;
}

std::string set_property(sim::SceneSpec& spec, const PropertyKey& key, const PropertyValue& value) {
  const ItemRef& item = key.item;
  if (!item_exists(spec, item)) return "no such item (" + item_label(spec, item) + ")";
  std::optional<PropertyInfo> info;
  for (PropertyInfo& p : describe_item(spec, item))
    if (p.key.name == key.name) info = std::move(p);
  if (!info) return "no property '" + key.name + "' on " + item_label(spec, item);

  const std::string where = item_label(spec, item) + ": " + info->label;
  std::optional<double> number;
  std::optional<bool> flag;
  std::optional<std::string> text;
  switch (info->type) {
    case PropertyType::Real:
    case PropertyType::Integer:
      number = as_number(value);
      if (!number || !std::isfinite(*number)) return where + ": expected a finite number";
      if (*number < info->minimum || *number > info->maximum)
        return where + ": " + number_text(*number) + " is outside " + number_text(info->minimum) + " .. " +
               number_text(info->maximum);
      if (info->type == PropertyType::Integer && std::floor(*number) != *number) return where + ": expected an integer";
      break;
    case PropertyType::Bool:
      flag = as_bool(value);
      if (!flag) return where + ": expected true or false";
      break;
    case PropertyType::Choice:
      text = as_text(value);
      if (!text) return where + ": expected one of the choices";
      {
        bool known = false;
        for (const std::string& c : info->choices) known |= c == *text;
        if (!known) return where + ": unknown choice '" + *text + "'";
      }
      break;
  }
  const Real r = number ? static_cast<Real>(*number) : Real(0);
  const auto [base, component] = split_component(key.name);
  const auto i = static_cast<std::size_t>(item.index);
  auto material_index = [&](const std::string& name) {
    for (std::size_t m = 0; m < spec.materials.size(); ++m)
      if (spec.materials[m].name == name) return static_cast<int>(m);
    return -1;
  };

  switch (item.kind) {
    case ItemKind::None: break;
    case ItemKind::Scene:
      if (base == "dt") spec.dt = r;
      else if (base == "gravity") spec.gravity[component] = r;
      break;
    case ItemKind::Solver: {
      const std::string v = text ? *text : flag ? (*flag ? "true" : "false")
                                         : info->type == PropertyType::Integer ? std::to_string(static_cast<long long>(*number))
                                                                               : number_text(*number);
      sim::SolverOptions o = spec.solver;
      if (std::string e = sim::set_solver_option(o, key.name, v); !e.empty()) return e;
      spec.solver = o;
      break;
    }
    case ItemKind::Material: {
      sim::MaterialSpec& m = spec.materials[i];
      if (is_grain_property(base)) {
        if (std::string e = set_grain_property(m.structure, base, component, number, text); !e.empty())
          return where + ": " + e;
      } else if (auto e = set_field(m, base, r); e && !e->empty()) {
        return where + ": " + *e;
      }
      break;
    }
    case ItemKind::Body: {
      sim::BodySpec& b = spec.bodies[i];
      if (is_grain_property(base)) {
        if (std::string e = set_grain_property(b.structure, base, component, number, text); !e.empty())
          return where + ": " + e;
      } else if (base == "mass" && r == -1 && b.shapes.empty() && !b.fixed) {
        return where + ": a body without shapes needs a mass";
      } else if (auto e = set_field(b, base, r)) {
        if (!e->empty()) return where + ": " + *e;
      } else if (base == "fixed") {
        b.fixed = *flag;
      } else if (base == "pos") {
        b.pose.pos[component] = r;
      } else if (base == "velocity") {
        b.linear_velocity[component] = r;
      }
      break;
    }
    case ItemKind::Shape: {
      sim::ShapeSpec& s = *find_shape(spec, item);
      if (base == "radius") s.radius = r;
      else if (base == "half_length") s.half_length = r;
      else if (base == "half_extents") s.half_extents[component] = r;
      else if (base == "thickness") s.thickness = r;
      else if (base == "material") s.material = material_index(*text);
      else if (base == "density") s.density = r;
      else if (base == "pos") s.local.pos[component] = r;
      else if (base == "sdf_voxel_size") s.sdf_voxel_size = r;
      else if (base == "sdf_band") s.sdf_band = r;
      break;
    }
    case ItemKind::Joint: {
      sim::JointSpec& j = spec.joints[i];
      if (base == "limited") j.limited = *flag;
      else if (base == "lower") j.lower = r;
      else if (base == "upper") j.upper = r;
      else if (base == "drive") j.drive = *text == "position" ? sim::DriveMode::Position
                                        : *text == "velocity" ? sim::DriveMode::Velocity
                                                              : sim::DriveMode::None;
      else if (auto e = set_field(j, base, r); e && !e->empty()) return where + ": " + *e;
      break;
    }
    case ItemKind::Particle: {
      sim::ParticleSpec& p = spec.particles[i];
      if (base == "material") p.material = material_index(*text);
      else if (base == "pos") p.position[component] = r;
      else if (auto e = set_field(p, base, r); e && !e->empty()) return where + ": " + *e;
      break;
    }
    case ItemKind::SoftBody:
      if (std::string e = set_soft_body_property(spec, item.index, base, r); !e.empty()) return where + ": " + e;
      break;
  }
  return {};
}

std::optional<sim::SpecEdit> spec_edit(const PropertyKey& key) {
  sim::SpecEdit edit;
  switch (key.item.kind) {
    case ItemKind::None: return std::nullopt;
    case ItemKind::Scene: edit.kind = sim::SpecItemKind::Scene; break;
    case ItemKind::Solver: edit.kind = sim::SpecItemKind::Solver; break;
    case ItemKind::Material: edit.kind = sim::SpecItemKind::Material; break;
    case ItemKind::Body: edit.kind = sim::SpecItemKind::Body; break;
    case ItemKind::Shape: edit.kind = sim::SpecItemKind::Shape; break;
    case ItemKind::Joint: edit.kind = sim::SpecItemKind::Joint; break;
    case ItemKind::Particle: edit.kind = sim::SpecItemKind::Particle; break;
    case ItemKind::SoftBody: return std::nullopt;  // recompiled (soft_body_properties.hpp)
  }
  edit.index = key.item.index;
  edit.sub = key.item.sub;
  edit.field = key.name;
  return edit;
}

bool is_parameter_only(const sim::SceneSpec& spec, const PropertyKey& key) {
  const auto edit = spec_edit(key);
  return edit && sim::is_value_edit(spec, *edit);
}

ItemRef shape_item(const sim::SceneSpec& spec, int model_shape) {
  if (model_shape < 0) return {};
  if (model_shape < static_cast<int>(spec.world_shapes.size())) return {ItemKind::Shape, -1, model_shape};
  int first = static_cast<int>(spec.world_shapes.size());
  for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
    const int count = static_cast<int>(spec.bodies[b].shapes.size());
    if (model_shape < first + count) return {ItemKind::Shape, static_cast<int>(b), model_shape - first};
    first += count;
  }
  return {};
}

int model_shape_index(const sim::SceneSpec& spec, int body, int shape) {
  if (body < 0) return shape;
  int index = static_cast<int>(spec.world_shapes.size());
  for (int b = 0; b < body && b < static_cast<int>(spec.bodies.size()); ++b)
    index += static_cast<int>(spec.bodies[static_cast<std::size_t>(b)].shapes.size());
  return index + shape;
}

bool patch_model(sim::Model& model, const sim::SceneSpec& spec, const PropertyKey& key) {
  const auto edit = spec_edit(key);
  return edit && item_exists(spec, key.item) && sim::patch_model(model, spec, *edit).outcome == sim::PatchOutcome::Patched;
}

std::string to_display(const PropertyValue& value) {
  if (const double* d = std::get_if<double>(&value)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", *d);
    return buf;
  }
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  return std::get<std::string>(value);
}

bool same_value(const PropertyValue& a, const PropertyValue& b) { return a == b; }

int soft_body_of_particle(const sim::SceneSpec& spec, int particle) {
  for (std::size_t b = 0; b < spec.soft_bodies.size(); ++b)
    for (const auto& t : spec.soft_bodies[b].tets)
      if (std::find(t.begin(), t.end(), particle) != t.end()) return static_cast<int>(b);
  return -1;
}

}  // namespace coulomb::gui
