#include "compile/body_inertia.hpp"

#include <cmath>

#include "collision/convex_hull.hpp"
#include "compile/mass_properties.hpp"
#include "sdf/mesh_shape.hpp"

namespace sim::detail {

std::string where(const SourceLocation& s, const std::string& element) {
  std::string out = s.file.empty() ? std::string("<scene>") : s.file;
  if (s.line > 0) {
    out += ':';
    out += std::to_string(s.line);
  }
  out.append(": <").append(element).append(">");
  return out;
}

Mat3 joint_armature_inertia(const SceneSpec& spec, int body) {
  Mat3 added = Mat3::Zero();
  for (const JointSpec& j : spec.joints) {
    if (j.body_b != body || !(j.armature > 0)) continue;
    if (j.type == JointType::Revolute) {
      const Vec3 a = j.frame_b.rot.normalized() * j.axis.normalized();  // the axis in the body frame
      added += j.armature * a * a.transpose();
    } else if (j.type == JointType::Ball) {
      added += j.armature * Mat3::Identity();
    }
  }
  return added;
}

Result<BodyMassProperties> body_mass_properties(const SceneSpec& spec, int b) {
  const BodySpec& body = spec.bodies[static_cast<std::size_t>(b)];
  const std::string w = where(body.source, "body") + " '" + body.name + "'";
  ShapeMass total;
  for (const ShapeSpec& s : body.shapes) {
    if (s.type == ShapeType::Plane) return Error{where(s.source, "plane") + ": planes are world geometry only"};
    Model::Hull hull;
    const Model::Hull* hp = nullptr;
    if (s.type == ShapeType::ConvexMesh) {
      auto built = s.triangles.empty() ? build_convex_hull(s.vertices, where(s.source, "convex"))
                                       : mesh_shape_hull(s, where(s.source, "mesh"));
      if (!built) return Error{built.error()};
      hull = std::move(built.value());
      if (!s.triangles.empty()) hull = mesh_mass_polyhedron(s, std::move(hull));
      hp = &hull;
    }
    total = combine(total, shape_mass(s, hp));
  }
  Vec3 com = total.center;
  Mat3 inertia = total.inertia;
  Real mass = total.mass;
  if (body.mass > 0) {
    if (mass > 0) inertia *= body.mass / mass;
    else inertia = Mat3::Identity() * (Real(0.4) * body.mass * Real(0.05 * 0.05));
    mass = body.mass;
    if (total.mass <= 0) com = body.com;
  }
  if (body.inertia.minCoeff() > 0) {
    // Moments about the axes of inertia_frame: I = R diag(moments) R^T in the body frame.
    const Mat3 r = body.inertia_frame.normalized().toRotationMatrix();
    inertia = r * body.inertia.asDiagonal() * r.transpose();
    com = body.com;
  }
  if (!body.fixed && !(mass > 0)) return Error{w + ": has no mass (give mass= or shapes)"};
  if (!body.fixed) inertia += joint_armature_inertia(spec, b);
  BodyMassProperties out;
  out.mass = mass;
  Quat axes = Quat::Identity();
  const Real off = std::abs(inertia(0, 1)) + std::abs(inertia(0, 2)) + std::abs(inertia(1, 2));
  if (off > Real(1e-12) * std::max(inertia.trace(), Real(1e-30))) principal_axes(inertia, out.moments, axes);
  else out.moments = inertia.diagonal();
  out.com_in_body = Pose{com, axes};
  return out;
}

}  // namespace sim::detail
