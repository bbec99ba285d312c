// Opening a robot description as a scene: description_kind() and robot_scene() (scene_io.hpp).
#include <tinyxml2.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "io/robot_import_common.hpp"
#include "io/xml_element.hpp"
#include "sim/scene_io.hpp"

namespace sim {

namespace {

// The lowest world z of a shape of body `b` (planes: +inf, they bound nothing).
Real lowest_point(const BodySpec& b, const ShapeSpec& s) {
  const Pose pose = b.pose * s.local;
  auto z = [&](const Vec3& local) { return pose.apply(local).z(); };
  switch (s.type) {
    case ShapeType::Plane: return std::numeric_limits<Real>::infinity();
    case ShapeType::Sphere: return pose.pos.z() - s.radius;
    case ShapeType::Capsule:
      return std::min(z(Vec3(0, 0, s.half_length)), z(Vec3(0, 0, -s.half_length))) - s.radius;
    case ShapeType::Box: {
      Real lowest = std::numeric_limits<Real>::infinity();
      for (int corner = 0; corner < 8; ++corner)
        lowest = std::min(lowest, z(s.half_extents.cwiseProduct(
                                      Vec3(corner & 1 ? 1 : -1, corner & 2 ? 1 : -1, corner & 4 ? 1 : -1))));
      return lowest;
    }
    case ShapeType::Cylinder: {
      // The lower cap's rim: its centre less r sqrt(1 - a_z²), a the axis in the world.
      const Vec3 a = pose.rot * Vec3::UnitZ();
      return pose.pos.z() - s.half_length * std::abs(a.z()) - s.radius * std::sqrt(std::max(Real(0), 1 - a.z() * a.z()));
    }
    case ShapeType::Ellipsoid: {
      const Mat3 r = pose.rot.toRotationMatrix();
      return pose.pos.z() - r.row(2).cwiseProduct(s.half_extents.transpose()).norm();
    }
    case ShapeType::ConvexMesh: {
      Real lowest = std::numeric_limits<Real>::infinity();
      for (const Vec3& v : s.vertices) lowest = std::min(lowest, z(v));
      return lowest;
    }
  }
  return std::numeric_limits<Real>::infinity();
}

std::string scene_text(const std::string& robot_path, DescriptionKind kind, Real lift, bool ground, bool fixed_base) {
  tinyxml2::XMLPrinter x;  // escapes attribute values
  x.OpenElement("scene");
  x.PushAttribute("name", std::filesystem::path(robot_path).stem().string().c_str());
  if (ground) {
    x.OpenElement("material");
    x.PushAttribute("name", "ground");
    x.PushAttribute("friction", "0.8");
    x.CloseElement();
    x.OpenElement("world");
    x.PushAttribute("material", "ground");
    x.OpenElement("plane");
    x.CloseElement();
    x.CloseElement();
  }
  x.OpenElement("robot");
  x.PushAttribute("file", robot_path.c_str());
  x.PushAttribute("format", kind == DescriptionKind::Urdf ? "urdf" : "mjcf");
  x.PushAttribute("pos", ("0 0 " + std::to_string(double(lift))).c_str());
  x.PushAttribute("fixed_base", fixed_base ? "true" : "false");
  if (kind == DescriptionKind::Urdf) {
    x.PushAttribute("drive", "position");
    x.PushAttribute("stiffness", "5000");
    x.PushAttribute("damping", "100");
  }
  x.CloseElement();
  x.CloseElement();
  return x.CStr();
}

}  // namespace

Result<DescriptionKind> description_kind(const std::string& path) {
  std::string why;
  const auto text = io::read_text_file(path, io::kMaxTextFileBytes, why);
  if (!text) return Error{io::format_error(path, 0, "", "cannot read the file (" + why + ")")};
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text->data(), text->size()) != tinyxml2::XML_SUCCESS || !doc.RootElement())
    return Error{io::format_error(path, doc.ErrorLineNum(), "", "not an XML scene, URDF or MJCF file (malformed XML)")};
  const std::string root = doc.RootElement()->Name();
  if (root == "scene") return DescriptionKind::Scene;
  if (root == "robot") return DescriptionKind::Urdf;
  if (root == "mujoco") return DescriptionKind::Mjcf;
  return Error{io::format_error(path, doc.RootElement()->GetLineNum(), root,
                                "expected a <scene>, a URDF <robot> or an MJCF <mujoco> root element")};
}

Result<SceneSpec> robot_scene(const std::string& robot_path, DescriptionKind kind, const DescriptionOptions& options) {
  if (kind == DescriptionKind::Scene) return Error{robot_path + ": a scene, not a robot description"};
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(robot_path, ec).lexically_normal().string();
  // The messages name a scene beside the robot file (it is not written).
  const std::string scene_name = (std::filesystem::path(absolute).parent_path() /
                                  (std::filesystem::path(absolute).stem().string() + "_scene.xml")).string();
  const bool fixed_base = kind == DescriptionKind::Urdf && !options.urdf_free_base;
  // First where it stands (joints inside their limits: the <robot> element sees to that), to find
  // how far it reaches down; then lifted onto the ground. An MJCF model with a floor of its own (a
  // plane in its worldbody) keeps its floor and its placement.
  auto probe = parse_scene_xml(scene_text(absolute, kind, 0, false, fixed_base), scene_name);
  if (!probe) return Error{probe.error()};
  const bool own_floor = std::any_of(probe->world_shapes.begin(), probe->world_shapes.end(),
                                     [](const ShapeSpec& s) { return s.type == ShapeType::Plane; });
  Real lowest = std::numeric_limits<Real>::infinity();
  for (const BodySpec& b : probe->bodies)
    for (const ShapeSpec& s : b.shapes) lowest = std::min(lowest, lowest_point(b, s));
  const Real lift = !own_floor && std::isfinite(lowest) ? Real(0.001) - lowest : Real(0);
  auto scene = parse_scene_xml(scene_text(absolute, kind, lift, !own_floor, fixed_base), scene_name);
  if (!scene) return Error{scene.error()};
  scene->source_file.clear();
  // The model's own <option timestep gravity> (a <robot> in a scene keeps the scene's).
  if (!scene->robots.empty()) {
    const RobotIncludeSpec& r = scene->robots.front();
    if (r.has_timestep) scene->dt = r.file_dt;
    if (r.has_gravity) scene->gravity = r.file_gravity;
  }
  return scene;
}

Result<SceneSpec> load_description(const std::string& path, const DescriptionOptions& options) {
  auto kind = description_kind(path);
  if (!kind) return Error{kind.error()};
  return *kind == DescriptionKind::Scene ? load_scene_file(path) : robot_scene(path, *kind, options);
}

}  // namespace sim
