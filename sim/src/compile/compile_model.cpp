// SceneSpec -> Model: validation, materials, convex hulls, mass properties and principal frames,
// joints re-expressed in centre-of-mass frames. Errors name file, line and element.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "collision/cloth_edges.hpp"
#include "collision/convex_hull.hpp"
#include "collision/structure_field.hpp"
#include "compile/body_inertia.hpp"
#include "compile/compile_shells.hpp"
#include "compile/initial_overlap_filter.hpp"
#include "compile/mass_properties.hpp"
#include "compile/scene_ranges.hpp"
#include "compile/visual_shapes.hpp"
#include "io/generated_geometry.hpp"
#include "sdf/mesh_shape.hpp"
#include "sdf/sdf_band_estimate.hpp"
#include "sim/compile.hpp"
#include "sim/field_table.hpp"
#include "sim/load_limits.hpp"
#include "sim/sdf.hpp"
#include "sim/soft_body.hpp"
#include "sim/soft_render_mesh.hpp"

namespace sim {

namespace {

using detail::where;

bool finite(const Vec3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

const char* shape_element(ShapeType t) {
  switch (t) {
    case ShapeType::Plane: return "plane";
    case ShapeType::Sphere: return "sphere";
    case ShapeType::Capsule: return "capsule";
    case ShapeType::Box: return "box";
    case ShapeType::ConvexMesh: return "convex";
    case ShapeType::Cylinder: return "cylinder";
    case ShapeType::Ellipsoid: return "ellipsoid";
  }
  return "shape";
}

// Checks a shape's dimensions; returns an error message or "".
std::string validate_shape(const ShapeSpec& s) {
  const std::string w = where(s.source, shape_element(s.type));
  switch (s.type) {
    case ShapeType::Sphere:
      if (!(s.radius > 0)) return w + ": radius must be > 0";
      break;
    case ShapeType::Capsule:
      if (!(s.radius > 0) || !(s.half_length >= 0)) return w + ": radius must be > 0 and half_length >= 0";
      break;
    case ShapeType::Box:
      if (!(s.half_extents.minCoeff() > 0)) return w + ": half extents must be > 0";
      break;
    case ShapeType::Cylinder:
      if (!(s.radius > 0) || !(s.half_length > 0)) return w + ": radius and half_length must be > 0";
      break;
    case ShapeType::Ellipsoid:
      if (!(s.half_extents.minCoeff() > 0)) return w + ": radii must be > 0";
      break;
    default: break;
  }
  if (!(s.thickness >= 0)) return w + ": thickness must be >= 0";
  if (!(s.density > 0)) return w + ": density must be > 0";
  return {};
}

// The grid a triangle mesh's SDF is baked on (sdf/mesh_shape.cpp: spacing sdf_voxel or 1/64 of
// the largest extent, band widened by sdf_shape_band) must stay within sim/load_limits.hpp before
// the bake starts: an sdf_band of 1e9 voxels never finished (issue 13).
std::string check_sdf_grid_size(const ShapeSpec& s, Real contact_margin) {
  if (s.vertices.empty()) return {};
  Vec3 lo = s.vertices[0], hi = s.vertices[0];
  for (const Vec3& v : s.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  const Vec3 size = hi - lo;
  const Real extent = size.maxCoeff();
  if (!std::isfinite(extent) || !(s.sdf_voxel_size >= 0) || !(s.sdf_band >= 0)) return {};  // add_mesh_shape reports these
  const std::string w = where(s.source, "mesh");
  const auto g = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return std::string(buf);
  };
  if (s.sdf_band > limits::kMaxSdfBand)
    return w + ": sdf_band " + g(s.sdf_band) + " voxels is above the limit of " +
           std::to_string(static_cast<int>(limits::kMaxSdfBand));
  const Real voxel = s.sdf_voxel_size > 0 ? s.sdf_voxel_size : extent / Real(64);
  if (!(voxel > 0)) return {};
  const double resolution = double(extent / voxel);
  if (resolution > limits::kMaxSdfResolution)
    return w + ": sdf_voxel " + g(voxel) + " m gives " + std::to_string(std::llround(resolution)) +
           " voxels along the mesh's " + g(extent) + " m extent (at most " +
           std::to_string(limits::kMaxSdfResolution) + ")";
  const double band = double(sdf_shape_band(s.sdf_band, voxel, s.thickness, contact_margin));
  double voxels = 1;
  for (int k = 0; k < 3; ++k) voxels *= double(size[k] / voxel) + 2 * band + 1;
  if (!(voxels <= limits::kMaxSdfGridVoxels))
    return w + ": the SDF grid would span " + g(voxels) + " voxels (band " + g(band) +
           " voxels, spacing " + g(voxel) + " m; at most " + g(limits::kMaxSdfGridVoxels) +
           "): raise sdf_voxel or lower the contact margin";
  // The band's own voxels, estimated from the surface area: a small mesh in a wide band stays
  // far inside the box bound above and still baked for a minute (issue 13).
  const double band_voxels = estimate_sdf_band_voxels(s.vertices, s.triangles, voxel, Real(band));
  if (!(band_voxels <= limits::kMaxSdfBandVoxels))
    return w + ": an SDF band of " + g(band) + " voxels (sdf_band " + g(s.sdf_band) + ", spacing " + g(voxel) +
           " m) would hold about " + g(band_voxels) + " voxels around this mesh (at most " +
           g(limits::kMaxSdfBandVoxels) + "): lower sdf_band or raise sdf_voxel";
  // And the interior a scene's (signed, filled) bake makes active.
  const double interior_voxels = estimate_sdf_interior_voxels(s.vertices, s.triangles, voxel);
  if (!(interior_voxels <= limits::kMaxSdfInteriorVoxels))
    return w + ": the SDF's filled interior would hold about " + g(interior_voxels) + " voxels (spacing " + g(voxel) +
           " m; at most " + g(limits::kMaxSdfInteriorVoxels) + "): raise sdf_voxel";
  return {};
}

Real shape_bound(const Model& m, int s) {
  switch (m.shape_type[s]) {
    case ShapeType::Plane: return std::numeric_limits<Real>::infinity();
    case ShapeType::Sphere: return m.shape_radius[s];
    case ShapeType::Capsule: return m.shape_radius[s] + m.shape_half_length[s];
    case ShapeType::Box: return m.shape_half_extents[s].norm();
    case ShapeType::Cylinder: return std::hypot(m.shape_radius[s], m.shape_half_length[s]);
    case ShapeType::Ellipsoid: return m.shape_half_extents[s].maxCoeff();
    case ShapeType::ConvexMesh: {
      Real r = 0;
      for (const Vec3& v : m.hulls[m.shape_hull[s]].vertices) r = std::max(r, v.norm());
      return r;
    }
  }
  return 0;
}

// "<where>: <field> must be >= 0" for the first of the item's table fields outside its range.
template <class Spec>
std::string check_fields(const Spec& spec, const std::string& w) {
  const Field<Spec>* f = field_out_of_range(spec);
  if (!f) return {};
  std::string message = w + ": " + std::string(f->name) + " " + std::string(f->range_text());
  if (f->has_unset()) message += " (or " + std::to_string(static_cast<int>(f->unset)) + ")";
  return message;
}

// Appends the item's copied table fields to their Model arrays.
template <class Spec>
void push_fields(const Spec& spec, Model& m) {
  for (const Field<Spec>& f : fields_of<Spec>())
    if (f.model) (m.*f.model).push_back(spec.*f.spec);
}

}  // namespace

std::string check_joint(const JointSpec& j, int body_count) {
  const std::string w = where(j.source, "joint") + " '" + j.name + "'";
  if (j.body_b < 0 || j.body_b >= body_count || j.body_a >= body_count || j.body_a < -1)
    return w + ": child must be a body and parent a body or the world";
  if (j.body_a == j.body_b) return w + ": joins a body to itself";
  if (!(j.axis.norm() > 0)) return w + ": axis must be non-zero";
  if (j.limited && !(j.lower <= j.upper)) return w + ": lower limit above upper limit";
  if (j.target_limited && !(j.target_lower <= j.target_upper))
    return w + ": control range lower bound above the upper one (or not a number)";
  if (std::string e = check_fields(j, w); !e.empty()) return e;
  if (j.drive != DriveMode::None && !(j.stiffness > 0 || j.damping > 0))
    return w + ": a drive needs stiffness >= 0 and damping >= 0, not both 0";
  if (j.drive == DriveMode::Position && !(j.stiffness > 0)) return w + ": a position drive needs stiffness > 0";
  // A velocity drive's compliance is e = 1/kd (its stiffness plays no part): kd = 0 would make
  // e infinite and the drive row NaN.
  if (j.drive == DriveMode::Velocity && !(j.damping > 0))
    return w + ": a velocity drive needs damping > 0 (its compliance is 1/damping)";
  // Armature (compile/body_inertia.hpp): rotor inertia about an axis; a prismatic joint's would be
  // a mass along one axis, which the scalar body mass cannot hold.
  if (j.armature > 0 && (j.type == JointType::Prismatic || j.type == JointType::Fixed))
    return w + ": armature is supported on revolute and ball joints only (a prismatic joint's would need an "
               "anisotropic body mass; a fixed joint has no motion)";
  return {};
}

std::string check_material(const MaterialSpec& mat) { return check_fields(mat, where(mat.source, "material")); }

std::string check_particle(const ParticleSpec& p) { return check_fields(p, where(p.source, "particle")); }

Result<Model> compile_model(const SceneSpec& spec) {
  Model m;
  m.gravity = spec.gravity;
  m.dt = spec.dt;
  m.solver = spec.solver;
  if (!(spec.dt > 0) || !std::isfinite(spec.dt))
    return Error{where({spec.source_file, 0}, "scene") + ": dt must be > 0"};
  if (std::string e = detail::check_scene_ranges(spec); !e.empty()) return Error{e};
  if (std::string e = check_solver_counts(spec.solver); !e.empty())
    return Error{where({spec.source_file, 0}, "solver") + ": " + e};

  // Materials; -1 ("default") maps to a material named "default" (μ 0.5) appended when needed.
  for (const MaterialSpec& mat : spec.materials) {
    if (std::string e = check_material(mat); !e.empty()) return Error{e};
    m.material_name.push_back(mat.name);
    push_fields(mat, m);
  }
  int default_material = -1;
  auto material_index = [&](int authored) {
    if (authored >= 0) return authored;
    if (default_material < 0) {
      for (int i = 0; i < static_cast<int>(m.material_name.size()); ++i)
        if (m.material_name[i] == "default") default_material = i;
      if (default_material < 0) {
        default_material = static_cast<int>(m.material_name.size());
        m.material_name.push_back("default");
        push_fields(MaterialSpec{}, m);
      }
    }
    return default_material;
  };

  // Adds one shape in the given frame (body com frame, or world); returns an error or "".
  auto add_shape = [&](const ShapeSpec& s, int body, const Pose& frame_in_owner) -> std::string {
    if (std::string e = validate_shape(s); !e.empty()) return e;
    if (s.material >= static_cast<int>(spec.materials.size()))
      return where(s.source, shape_element(s.type)) + ": unknown material index";
    if (s.type == ShapeType::Plane && body >= 0)
      return where(s.source, "plane") + ": planes are world geometry only (put it in <world>)";
    int hull = -1;
    if (has_hull(s.type)) {
      auto built = s.type != ShapeType::ConvexMesh
                       ? build_convex_hull(io::native_shape_points(s.type, s.radius, s.half_length, s.half_extents),
                                           where(s.source, shape_element(s.type)))
                   : s.triangles.empty() ? build_convex_hull(s.vertices, where(s.source, "convex"))
                                         : detail::mesh_shape_hull(s, where(s.source, "mesh"));
      if (!built) return built.error();
      hull = static_cast<int>(m.hulls.size());
      m.hulls.push_back(std::move(built.value()));
    }
    int mesh = -1;  // triangle meshes collide through their baked SDF (sdf/mesh_shape.hpp)
    if (!s.triangles.empty()) {
      if (std::string e = check_sdf_grid_size(s, spec.solver.contact_margin); !e.empty()) return e;
      auto added = detail::add_mesh_shape(s, spec.solver.contact_margin, m.meshes, where(s.source, "mesh"));
      if (!added) return added.error();
      mesh = added.value();
    }
    int surface = -1;  // UVs: the surface coordinates texture grains are looked up in
    if (!s.uvs.empty()) {
      if (s.triangles.empty() || s.uvs.size() != 3 * s.triangles.size())
        return where(s.source, "mesh") + ": uvs must give 3 texture coordinates per triangle (" +
               std::to_string(s.uvs.size()) + " for " + std::to_string(s.triangles.size()) + " triangles)";
      for (const Vec2& uv : s.uvs)
        if (!uv.allFinite()) return where(s.source, "mesh") + ": non-finite texture coordinates";
      surface = static_cast<int>(m.surfaces.size());
      m.surfaces.push_back(std::make_shared<const MeshSurface>(make_mesh_surface(s.vertices, s.triangles, s.uvs)));
    }
    m.shape_type.push_back(s.type);
    m.shape_body.push_back(body);
    m.shape_local.push_back(frame_in_owner * s.local);
    m.shape_radius.push_back(s.radius);
    m.shape_half_length.push_back(s.half_length);
    m.shape_half_extents.push_back(s.half_extents);
    m.shape_hull.push_back(hull);
    m.shape_mesh.push_back(mesh);
    m.shape_surface.push_back(surface);
    m.shape_material.push_back(material_index(s.material));
    m.shape_thickness.push_back(s.thickness);
    m.shape_contype.push_back(s.contype);
    m.shape_conaffinity.push_back(s.conaffinity);
    ++m.shape_count;
    m.shape_bound_radius.push_back(shape_bound(m, m.shape_count - 1));
    return {};
  };

  for (const ShapeSpec& s : spec.world_shapes)
    if (std::string e = add_shape(s, -1, Pose{}); !e.empty()) return Error{e};

  // Bodies: mass properties from shapes (or authored), principal com frame.
  m.body_count = static_cast<int>(spec.bodies.size());
  for (int b = 0; b < m.body_count; ++b) {
    const BodySpec& body = spec.bodies[b];
    const std::string w = where(body.source, "body") + " '" + body.name + "'";
    if (!finite(body.pose.pos) || !finite(body.linear_velocity) || !finite(body.angular_velocity))
      return Error{w + ": non-finite pose or velocity"};
    if (std::string e = check_fields(body, w); !e.empty()) return Error{e};
    for (const ShapeSpec& s : body.shapes)
      if (std::string e = validate_shape(s); !e.empty()) return Error{e};
    auto mass_properties = detail::body_mass_properties(spec, b);
    if (!mass_properties) return Error{mass_properties.error()};
    const Real mass = mass_properties->mass;
    const Vec3 moments = mass_properties->moments;
    const Pose com_in_body = mass_properties->com_in_body;
    const Vec3 com = com_in_body.pos;
    const Pose body_in_com = com_in_body.inverse();
    const bool dynamic = !body.fixed;
    m.body_name.push_back(body.name);
    m.body_inv_mass.push_back(dynamic ? Real(1) / mass : Real(0));
    m.body_inertia.push_back(moments);
    Vec3 inv = Vec3::Zero();
    if (dynamic)
      for (int k = 0; k < 3; ++k) inv[k] = moments[k] > 0 ? Real(1) / moments[k] : Real(0);
    m.body_inv_inertia.push_back(inv);
    Pose initial = body.pose * com_in_body;
    initial.rot.normalize();
    m.body_initial_pose.push_back(initial);
    m.body_frame_in_com.push_back(body_in_com);
    // Velocity of the com: v_com = v_frame + ω × (com offset in world).
    const Vec3 offset = body.pose.rot * com;
    m.body_initial_velocity.push_back(body.linear_velocity + body.angular_velocity.cross(offset));
    m.body_initial_angular_velocity.push_back(body.angular_velocity);
    Real bound = 0;
    for (const ShapeSpec& s : body.shapes) {
      if (std::string e = add_shape(s, b, body_in_com); !e.empty()) return Error{e};
      const int id = m.shape_count - 1;
      bound = std::max(bound, m.shape_local[id].pos.norm() + m.shape_bound_radius[id]);
    }
    m.body_bound_radius.push_back(bound);
  }

  // Particles.
  m.particle_count = static_cast<int>(spec.particles.size());
  for (const ParticleSpec& p : spec.particles) {
    const std::string w = where(p.source, "particle");
    if (std::string e = check_particle(p); !e.empty()) return Error{e};
    if (!finite(p.position) || !finite(p.velocity)) return Error{w + ": non-finite position or velocity"};
    m.particle_inv_mass.push_back(p.mass > 0 ? Real(1) / p.mass : Real(0));
    push_fields(p, m);
    m.particle_material.push_back(material_index(p.material));
    m.particle_initial_position.push_back(p.position);
    m.particle_initial_velocity.push_back(p.velocity);
  }

  // Distance constraints.
  for (const DistanceSpec& d : spec.distances) {
    const std::string w = where(d.source, "distance");
    if (d.particle_a < 0 || d.particle_a >= m.particle_count || d.particle_b < 0 ||
        d.particle_b >= m.particle_count || d.particle_a == d.particle_b)
      return Error{w + ": needs two different existing particles"};
    if (!(d.compliance >= 0)) return Error{w + ": compliance must be >= 0"};
    const Real initial = (spec.particles[d.particle_a].position - spec.particles[d.particle_b].position).norm();
    m.distance_particle_a.push_back(d.particle_a);
    m.distance_particle_b.push_back(d.particle_b);
    m.distance_rest.push_back(d.rest_length >= 0 ? d.rest_length : initial);
    m.distance_compliance.push_back(d.compliance);
    ++m.distance_count;
  }

  // FEM soft bodies: each tet's rest shape (D_m⁻¹, V) and material (paper §9.2).
  for (const SoftBodySpec& b : spec.soft_bodies) {
    const std::string w = where(b.source, "softbody") + (b.name.empty() ? "" : " '" + b.name + "'");
    Real mu = 0, lambda = 0;
    if (std::string e = soft_body_lame(b.material, mu, lambda); !e.empty()) return Error{w + ": " + e};
    if (!(b.material.damping >= 0) || !std::isfinite(b.material.damping)) return Error{w + ": damping must be >= 0"};
    for (std::size_t t = 0; t < b.tets.size(); ++t) {
      const auto& k = b.tets[t];
      for (int c = 0; c < 4; ++c)
        if (k[c] < 0 || k[c] >= m.particle_count)
          return Error{w + ": tet " + std::to_string(t) + " names particle " + std::to_string(k[c]) + " of " +
                       std::to_string(m.particle_count)};
      Mat3 dm;
      for (int c = 0; c < 3; ++c) dm.col(c) = spec.particles[k[c + 1]].position - spec.particles[k[0]].position;
      const Real volume = dm.determinant() / 6;
      const Real edge = std::max({dm.col(0).norm(), dm.col(1).norm(), dm.col(2).norm()});
      if (!(volume > Real(1e-9) * edge * edge * edge))
        return Error{w + ": tet " + std::to_string(t) + " is inverted or degenerate at rest (volume " +
                     std::to_string(volume) + " m^3)"};
      for (int c = 0; c < 4; ++c) m.tet_particle.push_back(k[c]);
      m.tet_rest_inverse.push_back(dm.inverse());
      m.tet_volume.push_back(volume);
      m.tet_mu.push_back(mu);
      m.tet_lambda.push_back(lambda);
      m.tet_damping.push_back(b.material.damping);
      m.tet_model.push_back(b.material.model);
      m.tet_compliance.push_back(b.material.compliance);
      ++m.tet_count;
    }
    // Active-pressure groups of the tets (issue 14 item 5).
    if (!b.tet_group.empty() && b.tet_group.size() != b.tets.size())
      return Error{w + ": " + std::to_string(b.tet_group.size()) + " tet groups for " + std::to_string(b.tets.size()) + " tets"};
    for (std::size_t t = 0; t < b.tets.size(); ++t) {
      const int g = b.tet_group.empty() ? -1 : b.tet_group[t];
      if (g < -1 || g >= static_cast<int>(spec.soft_groups.size()))
        return Error{w + ": tet " + std::to_string(t) + " names soft group " + std::to_string(g) + " of " +
                     std::to_string(spec.soft_groups.size())};
      m.tet_group.push_back(g);
    }
  }
  for (const SoftGroupSpec& g : spec.soft_groups) {
    if (!std::isfinite(g.pressure)) return Error{where(g.source, "group") + " '" + g.name + "': pressure must be finite"};
    m.soft_group_name.push_back(g.name);
    m.soft_group_pressure.push_back(g.pressure);
    ++m.soft_group_count;
  }

  // Self contact (collision/particle_surfaces.hpp): the spec's particle ranges, and each
  // self_collision soft body's particles as runs of consecutive indices.
  for (const auto& [first, count] : spec.self_collision_particles) {
    if (first < 0 || count < 1 || first > m.particle_count - count)
      return Error{where({spec.source_file, 0}, "self_collision") + ": particles " + std::to_string(first) + ".." +
                   std::to_string(first + count - 1) + " are not all among the " + std::to_string(m.particle_count)};
    m.self_collision_particles.push_back({first, count});
  }
  for (const SoftBodySpec& b : spec.soft_bodies) {
    if (b.render_mesh) {  // drawn only; its particles must exist (make_soft_render_mesh bound them)
      for (const auto& nodes : b.render_mesh->embedding.nodes)
        for (int p : nodes)
          if (p < 0 || p >= m.particle_count)
            return Error{where(b.source, "softbody") + ": its render mesh names particle " + std::to_string(p) + " of " +
                         std::to_string(m.particle_count)};
      m.soft_render_meshes.push_back(b.render_mesh);
    }
    if (!b.self_collision) continue;
    std::vector<int> particles;
    for (const auto& t : b.tets) particles.insert(particles.end(), t.begin(), t.end());
    std::sort(particles.begin(), particles.end());
    particles.erase(std::unique(particles.begin(), particles.end()), particles.end());
    for (std::size_t i = 0; i < particles.size();) {
      std::size_t j = i + 1;
      while (j < particles.size() && particles[j] == particles[j - 1] + 1) ++j;
      m.self_collision_particles.push_back({particles[i], static_cast<int>(j - i)});
      i = j;
    }
  }

  // Particle attachments: the body-local point re-expressed in the body's com frame.
  for (const ParticleAttachmentSpec& a : spec.attachments) {
    const std::string w = where(a.source, "attach");
    if (a.particle < 0 || a.particle >= m.particle_count)
      return Error{w + ": names particle " + std::to_string(a.particle) + " of " + std::to_string(m.particle_count)};
    if (a.body < -1 || a.body >= m.body_count)
      return Error{w + ": names body " + std::to_string(a.body) + " of " + std::to_string(m.body_count)};
    if (!(a.compliance >= 0) || !std::isfinite(a.compliance)) return Error{w + ": compliance must be >= 0"};
    if (!a.local_point.allFinite()) return Error{w + ": the point is not finite"};
    m.attachment_particle.push_back(a.particle);
    m.attachment_body.push_back(a.body);
    m.attachment_local.push_back(a.body >= 0 ? m.body_frame_in_com[a.body].apply(a.local_point) : a.local_point);
    m.attachment_compliance.push_back(a.compliance);
    ++m.attachment_count;
  }

  // Shells: membrane triangles and bending hinges (compile/compile_shells.cpp).
  if (std::string e = compile_shells(spec, m); !e.empty()) return Error{e};

  // Cloth faces for face-vs-SDF contacts.
  for (const auto& t : spec.particle_triangles) {
    for (int k = 0; k < 3; ++k)
      if (t[k] < 0 || t[k] >= m.particle_count || t[k] == t[(k + 1) % 3])
        return Error{where({spec.source_file, 0}, "particle_triangle") + ": needs three different existing particles"};
    m.particle_triangles.push_back(t);
  }
  detail::build_cloth_edges(m.particle_triangles, m.particle_edge_key, m.particle_edge_owner);
  m.sdf = spec.sdf;

  // Joints, with frames re-expressed in the bodies' com frames.
  for (const JointSpec& j : spec.joints) {
    if (std::string e = check_joint(j, m.body_count); !e.empty()) return Error{e};
    m.joint_name.push_back(j.name);
    m.joint_type.push_back(j.type);
    m.joint_body_a.push_back(j.body_a);
    m.joint_body_b.push_back(j.body_b);
    m.joint_frame_a.push_back(j.body_a >= 0 ? m.body_frame_in_com[j.body_a] * j.frame_a : j.frame_a);
    m.joint_frame_b.push_back(m.body_frame_in_com[j.body_b] * j.frame_b);
    m.joint_axis.push_back(j.axis.normalized());
    m.joint_limited.push_back(j.limited ? 1 : 0);
    m.joint_lower.push_back(j.lower);
    m.joint_upper.push_back(j.upper);
    m.joint_drive.push_back(j.drive);
    push_fields(j, m);
    m.joint_target_limited.push_back(j.target_limited ? 1 : 0);
    m.joint_target_lower.push_back(j.target_lower);
    m.joint_target_upper.push_back(j.target_upper);
    ++m.joint_count;
  }

  for (const RobotIncludeSpec& r : spec.robots)
    for (const auto& [a, b] : r.no_collision_pairs) {
      if (a < 0 || b < 0 || a >= r.body_count || b >= r.body_count)
        return Error{where(r.source, "robot") + ": a no-collision body pair is out of range"};
      m.no_collision_pairs.push_back({r.first_body + a, r.first_body + b});
    }
  for (const RobotIncludeSpec& r : spec.robots) {
    if (r.self_collision) continue;
    if (r.first_body < 0 || r.first_body + r.body_count > m.body_count)
      return Error{where(r.source, "robot") + ": its bodies are out of range (" + std::to_string(r.first_body) + " + " +
                   std::to_string(r.body_count) + " of " + std::to_string(m.body_count) + ")"};
    for (int a = r.first_body; a < r.first_body + r.body_count; ++a)
      for (int b = a + 1; b < r.first_body + r.body_count; ++b) m.no_collision_pairs.push_back({a, b});
  }

  m.material_count = static_cast<int>(m.material_name.size());
  if (std::string e = refresh_friction(spec, m); !e.empty()) return Error{e};
  if (std::string e = detail::add_visual_shapes(spec, m); !e.empty()) return Error{e};
  detail::filter_initial_overlaps(spec, m);
  return m;
}

std::string refresh_friction(const SceneSpec& spec, Model& m) {
  // Compiles a field into m.structure_fields: its index, -1 for kind None.
  auto add_field = [&m](const StructureFieldSpec& field_spec, const std::string& where_text) -> Result<int> {
    if (field_spec.kind == StructureFieldKind::None) return -1;
    auto field = detail::compile_structure_field(field_spec, where_text);
    if (!field) return Error{field.error()};
    m.structure_fields.push_back(std::move(field.value()));
    return static_cast<int>(m.structure_fields.size()) - 1;
  };
  const std::size_t materials = static_cast<std::size_t>(m.material_count);
  if (m.material_friction.size() != materials) return "refresh_friction: the model's materials do not match";
  m.structure_fields.clear();
  m.material_friction_major = m.material_friction;  // materials the spec does not have ("default"): isotropic
  m.material_friction_minor = m.material_friction;
  m.material_structure_field.assign(materials, -1);
  for (std::size_t i = 0; i < spec.materials.size() && i < materials; ++i) {
    const MaterialSpec& mat = spec.materials[i];
    if (std::string e = check_material(mat); !e.empty()) return e;
    m.material_friction[i] = mat.friction;
    m.material_friction_major[i] = mat.major();
    m.material_friction_minor[i] = mat.minor();
    auto field = add_field(mat.structure, where(mat.source, "material") + " '" + mat.name + "' <grain>");
    if (!field) return field.error();
    m.material_structure_field[i] = field.value();
  }
  m.body_structure_field.assign(static_cast<std::size_t>(m.body_count), -1);
  for (std::size_t b = 0; b < spec.bodies.size() && b < static_cast<std::size_t>(m.body_count); ++b) {
    const BodySpec& body = spec.bodies[b];
    auto field = add_field(body.structure, where(body.source, "body") + " '" + body.name + "' <grain>");
    if (!field) return field.error();
    m.body_structure_field[b] = field.value();
  }
  // A texture grain is looked up through UVs: every shape it covers needs them (no silent drop).
  for (int s = 0; s < m.shape_count; ++s) {
    const int body = s < static_cast<int>(m.shape_body.size()) ? m.shape_body[s] : -1;
    const int material = s < static_cast<int>(m.shape_material.size()) ? m.shape_material[s] : -1;
    int field = body >= 0 && body < m.body_count ? m.body_structure_field[static_cast<std::size_t>(body)] : -1;
    if (field < 0 && material >= 0 && material < m.material_count)
      field = m.material_structure_field[static_cast<std::size_t>(material)];
    if (field < 0 || m.structure_fields[static_cast<std::size_t>(field)].kind != StructureFieldKind::Texture) continue;
    const bool has_uvs = s < static_cast<int>(m.shape_surface.size()) && m.shape_surface[s] >= 0;
    if (has_uvs) continue;
    const std::string owner = body >= 0 && body < static_cast<int>(m.body_name.size())
                                  ? "body '" + m.body_name[static_cast<std::size_t>(body)] + "'"
                                  : std::string("the world");
    return "shape " + std::to_string(s) + " (" + owner + ") has a texture grain but no UVs: a texture is looked up "
           "through texture coordinates (a <mesh> with uvs, or a mesh file that has them); give this shape "
           "another material or body grain";
  }
  return {};
}

}  // namespace sim
