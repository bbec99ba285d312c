// generate_contacts(): place every shape and particle for this step, find candidate pairs
// (sweep and prune, plus planes tested against everything), run the narrowphase per pair in
// fixed chunks (in parallel when there are many; the chunks, not the threads, decide the order)
// and turn the raw points into Contacts.
#include "collision/collide.hpp"
#include "collision/contact_friction.hpp"
#include "collision/particle_edge_contacts.hpp"
#include "collision/particle_faces_sdf.hpp"
#include "collision/particle_triangle_contacts.hpp"
#include "core/kernel_views.hpp"
#include "core/parallel.hpp"
#include "kernels/body_kernels.hpp"
#include "kernels/shape_box_kernel.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace sim {
namespace detail {
namespace {

constexpr std::size_t kChunkPairs = 256;      // pairs per narrowphase work unit

template <class T>
T value_or(const std::vector<T>& v, int i, T fallback) {
  return i >= 0 && i < static_cast<int>(v.size()) ? v[i] : fallback;
}

Real material_mu(const Model& m, int material) {
  if (material >= 0 && material < m.material_count && material < static_cast<int>(m.material_friction.size()))
    return m.material_friction[material];
  return (m.material_count > 0 && !m.material_friction.empty()) ? m.material_friction[0] : Real(0.5);
}

// The anisotropic part of an object's friction (thesis ch. 3): its material's axes and the field
// that gives its grain, the body's own before the material's, in the body frame or the world.
void set_object_structure(const Model& m, int material, const CollisionScratch& sc, CollisionObject& o) {
  if (!(material >= 0 && material < m.material_count)) material = m.material_count > 0 ? 0 : -1;
  const bool known = material >= 0 && material < static_cast<int>(m.material_friction_major.size()) &&
                     material < static_cast<int>(m.material_friction_minor.size());
  o.friction_major = known ? m.material_friction_major[material] : o.friction;
  o.friction_minor = known ? m.material_friction_minor[material] : o.friction;
  o.structure_field = value_or(m.body_structure_field, o.body, -1);
  if (o.structure_field < 0) o.structure_field = value_or(m.material_structure_field, material, -1);
  if (o.structure_field >= static_cast<int>(m.structure_fields.size())) o.structure_field = -1;
  if (o.structure_field >= 0 && o.body >= 0) o.field_frame = sc.body_pose[o.body] * value_or(m.body_frame_in_com, o.body, Pose{});
  o.surface = nullptr;
  if (o.structure_field >= 0 && o.shape >= 0 &&
      m.structure_fields[static_cast<std::size_t>(o.structure_field)].kind == StructureFieldKind::Texture) {
    const int surface = value_or(m.shape_surface, o.shape, -1);
    if (surface >= 0 && surface < static_cast<int>(m.surfaces.size())) o.surface = m.surfaces[static_cast<std::size_t>(surface)].get();
  }
}

// Bounding radius of a shape about its frame's origin, from its geometry.
Real shape_radius(const Model& m, int s) {
  switch (m.shape_type[s]) {
    case ShapeType::Plane: return 0;
    case ShapeType::Sphere: return value_or(m.shape_radius, s, Real(0));
    case ShapeType::Capsule: return value_or(m.shape_half_length, s, Real(0)) + value_or(m.shape_radius, s, Real(0));
    case ShapeType::Box: return value_or(m.shape_half_extents, s, Vec3(Vec3::Zero())).norm();
    case ShapeType::Cylinder:
      return std::hypot(value_or(m.shape_radius, s, Real(0)), value_or(m.shape_half_length, s, Real(0)));
    case ShapeType::Ellipsoid: return value_or(m.shape_half_extents, s, Vec3(Vec3::Zero())).maxCoeff();
    case ShapeType::ConvexMesh: {
      const int h = value_or(m.shape_hull, s, -1);
      Real r = 0;
      if (h >= 0 && h < static_cast<int>(m.hulls.size()))
        for (const Vec3& v : m.hulls[h].vertices) r = std::max(r, v.norm());
      return r;
    }
  }
  return 0;
}

bool skip_pair(const CollisionObject& x, const CollisionObject& y, const std::vector<std::uint64_t>& joints) {
  if (x.is_static && y.is_static) return true;
  if (x.particle >= 0 && y.particle >= 0) return true;
  if (x.is_plane && y.is_plane) return true;
  if (x.body >= 0 && x.body == y.body) return true;
  if (!(x.contype & y.conaffinity) && !(y.contype & x.conaffinity)) return true;  // MuJoCo's bit rule
  if (x.body >= 0 && y.body >= 0)
    return std::binary_search(joints.begin(), joints.end(),
                              pack_pair(std::min(x.body, y.body), std::max(x.body, y.body)));
  return false;
}

std::uint64_t object_key(const CollisionObject& o) {
  return o.particle >= 0 ? (0x80000000ull | static_cast<std::uint64_t>(o.particle))
                         : static_cast<std::uint64_t>(o.shape);
}

ContactSide make_side(const CollisionObject& o, const CollisionScratch& sc, const Vec3& p) {
  ContactSide side;
  if (o.particle >= 0) {
    side.kind = ContactSide::Particle;
    side.index = o.particle;
  } else if (o.body >= 0) {
    side.kind = ContactSide::Body;
    side.index = o.body;
    side.local_point = sc.body_rotation_t[o.body] * (p - sc.body_pose[o.body].pos);
  } else {
    side.kind = ContactSide::World;
    side.index = -1;
    side.local_point = p;
  }
  return side;
}

// Runs the narrowphase function for the colliders' kinds (a cylinder or an ellipsoid against
// anything but a plane: collide_native_convex); contacts come out with `first` as the first
// shape whatever order the function wants.
void dispatch(const Collider& first, const Collider& second, Real max_sep, NarrowScratch& s) {
  using K = ColliderKind;
  const std::size_t begin = s.contacts.size();
  bool swapped = false;
  const bool native = first.native != NativeShape::None || second.native != NativeShape::None;
  if (native && first.kind != K::Plane && second.kind != K::Plane) collide_native_convex(first, second, max_sep, s);
  else if (first.kind == K::Round && second.kind == K::Plane) collide_round_plane(first, second, max_sep, s);
  else if (first.kind == K::Plane && second.kind == K::Round) collide_round_plane(second, first, max_sep, s), swapped = true;
  else if (first.kind == K::Poly && second.kind == K::Plane) collide_poly_or_native_plane(first, second, max_sep, s);
  else if (first.kind == K::Plane && second.kind == K::Poly)
    collide_poly_or_native_plane(second, first, max_sep, s), swapped = true;
  else if (first.kind == K::Round && second.kind == K::Round) collide_round_round(first, second, max_sep, s);
  else if (first.kind == K::Round && second.kind == K::Poly) collide_round_poly(first, second, max_sep, s);
  else if (first.kind == K::Poly && second.kind == K::Round) collide_round_poly(second, first, max_sep, s), swapped = true;
  else if (first.kind == K::Poly && second.kind == K::Poly) collide_poly_poly(first, second, max_sep, s);
  if (!swapped) return;
  for (std::size_t k = begin; k < s.contacts.size(); ++k) {
    RawContact& c = s.contacts[k];
    std::swap(c.point_first, c.point_second);
    c.normal = -c.normal;
  }
}

void process_pair(const Model& model, const CollisionScratch& sc, std::uint64_t pair, Real dt, Real margin,
                  NarrowScratch& ns, std::vector<Contact>& out) {
  const PairSides sides = narrow_pair(sc, pair, dt, margin, ns);
  const CollisionObject& a = sc.objects[sides.a];
  const CollisionObject& b = sc.objects[sides.b];
  const Real thickness = sides.thickness;
  const std::uint64_t pair_key = hash_combine(object_key(a), object_key(b));
  for (const RawContact& rc : ns.contacts) {
    Contact& c = out.emplace_back();
    c.a = make_side(a, sc, rc.point_first);
    c.b = make_side(b, sc, rc.point_second);
    c.normal = rc.normal;
    set_contact_friction(model, a, rc.point_first, b, rc.point_second, c);
    c.thickness = thickness;
    c.initial_gap = rc.separation() - thickness;
    c.key = hash_combine(pair_key, rc.feature);
    c.shape_a = a.shape;
    c.shape_b = b.shape;
    c.sdf_feature = rc.sdf_feature;
    c.sdf_iterations = rc.sdf_iterations;
  }
}

void prepare_hulls(const Model& model, CollisionScratch& sc) {
  if (sc.hull_topology.size() != model.hulls.size()) sc.hull_topology.resize(model.hulls.size());
  for (std::size_t h = 0; h < model.hulls.size(); ++h)
    if (!hull_topology_matches(model.hulls[h], sc.hull_topology[h]))
      build_hull_topology(model.hulls[h], sc.hull_topology[h]);
  // The boxes' shared topology is built on first use (a function-local static): here, in the
  // first step, rather than when a box first meets another polyhedron after warm-up.
  (void)unit_box_topology();
}

// Objects, their expanded boxes and broadphase groups.
void place_objects(const Model& model, const State& state, Real dt, Real margin, CollisionScratch& sc) {
  const int shapes = model.shape_count, particles = model.particle_count;
  sc.body_pose.resize(model.body_count);
  sc.body_rotation_t.resize(model.body_count);
  const StateView at = state_view(model, state);
  parallel_for(model.body_count,
               [&](int b) { body_collision_frame(at, b, sc.body_pose.data(), sc.body_rotation_t.data()); });
  const int count = shapes + particles;
  sc.objects.resize(count);
  sc.boxes.resize(count);
  sc.groups.resize(count);
  const Real half_margin = Real(0.5) * margin;
  for (int s = 0; s < shapes; ++s) {
    CollisionObject& o = sc.objects[s];
    o = CollisionObject{};
    o.shape = s;
    o.body = value_or(model.shape_body, s, -1);
    if (o.body >= model.body_count) o.body = -1;
    const ShapeType type = model.shape_type[s];
    const int hull = value_or(model.shape_hull, s, -1);
    o.valid = !has_hull(type) || (hull >= 0 && hull < static_cast<int>(model.hulls.size()) &&
                                  model.hulls[hull].vertices.size() >= 4);
    o.is_plane = type == ShapeType::Plane;
    o.thickness = value_or(model.shape_thickness, s, Real(0));
    o.contype = value_or(model.shape_contype, s, std::uint32_t(1));
    o.conaffinity = value_or(model.shape_conaffinity, s, std::uint32_t(1));
    o.friction = material_mu(model, value_or(model.shape_material, s, -1));
    set_object_structure(model, value_or(model.shape_material, s, -1), sc, o);
    const Pose local = value_or(model.shape_local, s, Pose{});
    const Real radius = shape_radius(model, s);
    o.size = std::max(radius, Real(1e-6));
    if (o.body >= 0) {
      o.pose = sc.body_pose[o.body] * local;
      o.is_static = !(value_or(model.body_inv_mass, o.body, Real(0)) > 0);
      const Vec3 v = state.body_velocity(o.body), w = state.body_angular_velocity(o.body);
      Real reach = local.pos.norm() + std::max(radius, value_or(model.shape_bound_radius, s, Real(0)));
      const Real body_reach = value_or(model.body_bound_radius, o.body, Real(0));
      if (body_reach > 0) reach = std::min(reach, body_reach);
      o.speed = v.norm() + w.norm() * reach;
    } else {
      o.pose = local;
      o.is_static = true;
      o.speed = 0;
    }
    o.pose.rot.normalize();
    // Tight world box (kernels/shape_box_kernel.hpp), grown by the thickness, the motion bound and
    // half the margin.
    ShapeExtent extent{type, value_or(model.shape_radius, s, Real(0)), value_or(model.shape_half_length, s, Real(0)),
                       value_or(model.shape_half_extents, s, Vec3(Vec3::Zero()))};
    if (type == ShapeType::ConvexMesh && o.valid) {
      const HullTopology& t = sc.hull_topology[hull];
      extent.has_hull_box = true;
      extent.hull_center = t.aabb_center;
      extent.hull_half = t.aabb_half;
    }
    const Real grow = std::max(Real(0), std::max(o.thickness, Real(0)) + dt * o.speed + half_margin);
    sc.boxes[s] = shape_world_box(extent, o.pose, grow);
    std::uint8_t g = o.is_static ? kGroupStatic : 0;
    if (o.is_plane || !o.valid) g |= kBroadphaseExcluded;
    sc.groups[s] = g;
  }
  for (int p = 0; p < particles; ++p) {
    CollisionObject& o = sc.objects[shapes + p];
    o = CollisionObject{};
    o.particle = p;
    o.valid = true;
    o.is_static = !(value_or(model.particle_inv_mass, p, Real(0)) > 0);
    o.thickness = value_or(model.particle_radius, p, Real(0));
    o.friction = material_mu(model, value_or(model.particle_material, p, -1));
    set_object_structure(model, value_or(model.particle_material, p, -1), sc, o);
    o.size = std::max(o.thickness, Real(1e-6));
    const int c = model.particle_coord(p), d = model.particle_dof(p);
    o.pose.pos = Vec3(state.q[c], state.q[c + 1], state.q[c + 2]);
    o.speed = Vec3(state.u[d], state.u[d + 1], state.u[d + 2]).norm();
    const Real grow = std::max(Real(0), std::max(o.thickness, Real(0)) + dt * o.speed + half_margin);
    sc.boxes[shapes + p] = Aabb{o.pose.pos - Vec3::Constant(grow), o.pose.pos + Vec3::Constant(grow)};
    sc.groups[shapes + p] = static_cast<std::uint8_t>(kGroupParticle | (o.is_static ? kGroupStatic : 0));
  }
}

// Sorts sc.pairs: a counting sort on the first object, then insertion sort within each bucket
// (a handful of pairs each), O(pairs + objects).
void sort_pairs(CollisionScratch& sc) {
  const int count = static_cast<int>(sc.objects.size());
  sc.pair_bucket.assign(count + 1, 0);
  for (std::uint64_t p : sc.pairs) ++sc.pair_bucket[pair_first(p) + 1];
  for (int i = 0; i < count; ++i) sc.pair_bucket[i + 1] += sc.pair_bucket[i];
  // The two buffers trade places below: each keeps the larger capacity, so neither grows past the
  // pair count's high-water mark a second time.
  if (sc.pair_sorted.capacity() < sc.pairs.capacity()) sc.pair_sorted.reserve(sc.pairs.capacity());
  sc.pair_sorted.resize(sc.pairs.size());
  for (std::uint64_t p : sc.pairs) sc.pair_sorted[sc.pair_bucket[pair_first(p)]++] = p;
  for (int i = count; i > 0; --i) sc.pair_bucket[i] = sc.pair_bucket[i - 1];
  sc.pair_bucket[0] = 0;
  for (int i = 0; i < count; ++i) {
    const auto begin = sc.pair_sorted.begin() + sc.pair_bucket[i], end = sc.pair_sorted.begin() + sc.pair_bucket[i + 1];
    for (auto it = begin + (begin != end ? 1 : 0); it < end; ++it) {
      const std::uint64_t key = *it;
      auto hole = it;
      while (hole > begin && *(hole - 1) > key) *hole = *(hole - 1), --hole;
      *hole = key;
    }
  }
  std::swap(sc.pairs, sc.pair_sorted);
}

void find_pairs(const Model& model, Real dt, Real margin, CollisionScratch& sc) {
  sc.joint_pairs.clear();
  for (int j = 0; j < model.joint_count; ++j) {
    const int a = value_or(model.joint_body_a, j, -1), b = value_or(model.joint_body_b, j, -1);
    if (a >= 0 && b >= 0) sc.joint_pairs.push_back(pack_pair(std::min(a, b), std::max(a, b)));
  }
  for (const auto& [a, b] : model.no_collision_pairs) sc.joint_pairs.push_back(pack_pair(a, b));
  std::sort(sc.joint_pairs.begin(), sc.joint_pairs.end());

  sc.pairs.clear();
  // Room for 8 pairs per object, reserved once (sort_pairs gives pair_sorted the same): a pile
  // that settles meets new pairs after warm-up.
  sc.pairs.reserve(8 * sc.objects.size());
  sweep_and_prune(sc.boxes, sc.groups, sc.sap, sc.pairs, false);
  // Same body, joints (the sweep already left out static-static and particle-particle pairs).
  sc.pairs.erase(std::remove_if(sc.pairs.begin(), sc.pairs.end(),
                                [&](std::uint64_t p) {
                                  return skip_pair(sc.objects[pair_first(p)], sc.objects[pair_second(p)],
                                                   sc.joint_pairs);
                                }),
                 sc.pairs.end());
  // Planes against every object whose grown box reaches below the plane's grown surface.
  const int count = static_cast<int>(sc.objects.size());
  for (int s = 0; s < model.shape_count; ++s) {
    const CollisionObject& plane = sc.objects[s];
    if (!plane.is_plane) continue;
    const Vec3 n = plane.pose.rot * Vec3::UnitZ();
    const Real offset = n.dot(plane.pose.pos);
    const Real grow = std::max(plane.thickness, Real(0)) + dt * plane.speed + Real(0.5) * margin;
    for (int o = 0; o < count; ++o) {
      const CollisionObject& other = sc.objects[o];
      if (o == s || !other.valid || other.is_plane || skip_pair(plane, other, sc.joint_pairs)) continue;
      const Aabb& box = sc.boxes[o];
      const Vec3 center = Real(0.5) * (box.lo + box.hi), half = Real(0.5) * (box.hi - box.lo);
      const Real lowest = n.dot(center) - n.cwiseAbs().dot(half);
      if (lowest - offset <= grow) sc.pairs.push_back(pack_pair(std::min(s, o), std::max(s, o)));
    }
  }
  sort_pairs(sc);
}

// SDF views of the objects that appear in a pair, when the model has triangle-mesh shapes.
void build_sdf_objects(const Model& model, CollisionScratch& sc) {
  SdfCollisionScratch& sd = sc.sdf;
  sd.options = model.sdf;
  sd.stats.reset();
  sd.any_mesh = false;
  for (int m : model.shape_mesh) sd.any_mesh = sd.any_mesh || m >= 0;
  const int count = static_cast<int>(sc.objects.size());
  sd.objects.resize(count);
  for (int o = 0; o < count; ++o) {
    const CollisionObject& obj = sc.objects[o];
    if (!sd.any_mesh || !sc.used[o]) sd.objects[o] = SdfObject{};
    else if (obj.particle >= 0) sd.objects[o] = make_sdf_point_object(obj.pose.pos);
    else sd.objects[o] = make_sdf_shape_object(model, obj.shape, obj.pose, obj.size);
  }
}

// World polyhedra and colliders of the objects that appear in a pair.
void build_colliders(const Model& model, CollisionScratch& sc) {
  const int count = static_cast<int>(sc.objects.size());
  sc.used.assign(count, 0);
  for (std::uint64_t p : sc.pairs) sc.used[pair_first(p)] = sc.used[pair_second(p)] = 1;
  sc.colliders.resize(count);
  sc.polys.resize(count);
  std::size_t nv = 0, nf = 0, ne = 0, all_nv = 0, all_nf = 0, all_ne = 0;
  auto hull_of = [&](int s) -> const Model::Hull& {
    return model.shape_type[s] == ShapeType::Box ? unit_box_hull() : model.hulls[model.shape_hull[s]];
  };
  auto is_poly = [&](int o) {
    return o < model.shape_count && (model.shape_type[o] == ShapeType::Box || has_hull(model.shape_type[o]));
  };
  for (int o = 0; o < count; ++o) {
    if (!is_poly(o)) continue;
    const Model::Hull& h = hull_of(o);
    const auto v = h.vertices.size(), f = static_cast<std::size_t>(h.face_count()), e = static_cast<std::size_t>(h.edge_count());
    all_nv += v, all_nf += f, all_ne += e;
    if (sc.used[o]) nv += v, nf += f, ne += e;
  }
  // Room for every polyhedron of the model, whichever of them are in pairs this step.
  sc.poly_vertices.reserve(all_nv);
  sc.poly_normals.reserve(all_nf);
  sc.poly_offsets.reserve(all_nf);
  sc.poly_arcs.reserve(all_ne);
  sc.poly_vertices.resize(nv);
  sc.poly_normals.resize(nf);
  sc.poly_offsets.resize(nf);
  sc.poly_arcs.resize(ne);
  nv = nf = ne = 0;
  for (int o = 0; o < count; ++o) {
    if (!sc.used[o]) continue;
    const CollisionObject& obj = sc.objects[o];
    Collider& c = sc.colliders[o];
    c = Collider{};
    c.size = obj.size;
    if (obj.particle >= 0) {
      c.kind = ColliderKind::Round;
      c.p0 = c.p1 = obj.pose.pos;
      c.radius = 0;
      continue;
    }
    const int s = obj.shape;
    switch (model.shape_type[s]) {
      case ShapeType::Plane:
        c.kind = ColliderKind::Plane;
        c.normal = obj.pose.rot * Vec3::UnitZ();
        c.offset = c.normal.dot(obj.pose.pos);
        break;
      case ShapeType::Sphere:
        c.kind = ColliderKind::Round;
        c.p0 = c.p1 = obj.pose.pos;
        c.radius = value_or(model.shape_radius, s, Real(0));
        break;
      case ShapeType::Capsule: {
        c.kind = ColliderKind::Round;
        const Vec3 h = obj.pose.rot * Vec3(0, 0, value_or(model.shape_half_length, s, Real(0)));
        c.p0 = obj.pose.pos - h;
        c.p1 = obj.pose.pos + h;
        c.radius = value_or(model.shape_radius, s, Real(0));
        break;
      }
      case ShapeType::Box:
      case ShapeType::ConvexMesh:
      case ShapeType::Cylinder:
      case ShapeType::Ellipsoid: {
        const bool box = model.shape_type[s] == ShapeType::Box;
        const Model::Hull& h = hull_of(s);
        const HullTopology& t = box ? unit_box_topology() : sc.hull_topology[model.shape_hull[s]];
        const Vec3 scale = box ? Vec3(value_or(model.shape_half_extents, s, Vec3(Vec3::Zero()))
                                          .cwiseMax(Vec3::Constant(Real(1e-9))))
                               : Vec3(Vec3::Ones());
        PolyView& view = sc.polys[o];
        place_polyhedron(h, t, obj.pose, scale, sc.poly_vertices.data() + nv, sc.poly_normals.data() + nf,
                         sc.poly_offsets.data() + nf, sc.poly_arcs.data() + ne, view);
        view.is_box = box;
        view.half_extents = box ? scale : Vec3::Zero();
        nv += h.vertices.size();
        nf += static_cast<std::size_t>(h.face_count());
        ne += static_cast<std::size_t>(h.edge_count());
        c.kind = ColliderKind::Poly;
        c.poly = &view;
        // Cylinders and ellipsoids: their own shape against planes (narrowphase_native_plane.cpp)
        // and convex shapes (narrowphase_native.cpp); the hull serves the SDF narrowphase.
        if (model.shape_type[s] == ShapeType::Cylinder) {
          c.native = NativeShape::Cylinder;
          c.native_pose = obj.pose;
          c.native_size = Vec3(value_or(model.shape_radius, s, Real(0)), value_or(model.shape_half_length, s, Real(0)), 0);
        } else if (model.shape_type[s] == ShapeType::Ellipsoid) {
          c.native = NativeShape::Ellipsoid;
          c.native_pose = obj.pose;
          c.native_size = value_or(model.shape_half_extents, s, Vec3(Vec3::Zero()));
        }
        break;
      }
    }
  }
}

}  // namespace

PairSides narrow_pair(const CollisionScratch& sc, std::uint64_t pair, Real dt, Real margin, NarrowScratch& ns) {
  const int i = pair_first(pair), j = pair_second(pair);
  const CollisionObject& oi = sc.objects[i];
  const CollisionObject& oj = sc.objects[j];
  // Side a: the particle, else the side that can move, else the lower index; b is the other.
  bool i_is_a = true;
  if ((oi.particle >= 0) != (oj.particle >= 0)) i_is_a = oi.particle >= 0;
  else if (oi.is_static != oj.is_static) i_is_a = !oi.is_static;
  const int ia = i_is_a ? i : j, ib = i_is_a ? j : i;
  const CollisionObject& a = sc.objects[ia];
  const CollisionObject& b = sc.objects[ib];
  const Real thickness = a.thickness + b.thickness;
  const Real pair_margin = margin + dt * (a.speed + b.speed);
  ns.contacts.clear();
  const SdfObject &sa = sc.sdf.objects[ia], &sb = sc.sdf.objects[ib];
  if (sc.sdf.any_mesh && (sa.kind == SdfKind::Mesh || sb.kind == SdfKind::Mesh))
    collide_sdf(sa, sb, pair_margin + thickness, sc.sdf.options, ns, &sc.sdf.stats);
  else
    dispatch(sc.colliders[ia], sc.colliders[ib], pair_margin + thickness, ns);
  return {ia, ib, thickness};
}

// Sizes the chunks' narrowphase scratch from the model's hulls, so that a face-face pair of its
// largest faces, met for the first time after warm-up, allocates nothing: the incident and
// reference faces (a face's vertices), the clipped polygon (at most the incident face's vertices
// plus one per reference edge) and its contacts.
void reserve_chunks(const Model& model, std::size_t chunk_count, CollisionScratch& sc) {
  if (sc.chunks.size() >= chunk_count) return;
  sc.chunks.resize(chunk_count);
  std::size_t face = 4;
  for (const Model::Hull& hull : model.hulls)
    for (int f = 0; f < hull.face_count(); ++f)
      face = std::max(face, static_cast<std::size_t>(hull.face_first[f + 1] - hull.face_first[f]));
  // An SDF pair emits at most a contact per feature of its mesh (vertex, edge, face) before the
  // merge and the manifold reduction.
  std::size_t features = 0;
  for (const auto& mesh : model.meshes)
    if (mesh) features = std::max(features, mesh->mesh.vertices.size() + mesh->edges.size() + mesh->mesh.triangles.size());
  for (CollisionScratch::Chunk& chunk : sc.chunks) {
    NarrowScratch& ns = chunk.narrow;
    ns.contacts.reserve(features);
    for (auto* v : {&ns.clip_in, &ns.clip_out, &ns.incident, &ns.feature_first, &ns.feature_second})
      v->reserve(std::max(v->capacity(), 2 * face));
    ns.corners.reserve(std::max(ns.corners.capacity(), face));
    ns.contacts.reserve(std::max(ns.contacts.capacity(), 2 * face));
    ns.keep.reserve(std::max({ns.keep.capacity(), 2 * face, features}));
  }
}

void prepare_pairs(const Model& model, const State& state, Real dt, Real margin, CollisionScratch& scratch) {
  prepare_hulls(model, scratch);
  place_objects(model, state, dt, margin, scratch);
  find_pairs(model, dt, margin, scratch);
  build_colliders(model, scratch);
  build_sdf_objects(model, scratch);
}

// The contacts of soft-body and cloth surfaces after the pairs': their faces against shapes, then
// particle against triangle and edge against edge (the last reads the surfaces the second updates).
static void append_soft_surface_contacts(const Model& model, Real dt, Real margin, CollisionScratch& scratch, ContactBuffer& out) {
  append_particle_face_contacts(model, dt, margin, scratch, out);
  append_particle_triangle_contacts(model, dt, margin, scratch, out);
  append_edge_edge_contacts(model, dt, margin, scratch, out);
}

}  // namespace detail

void generate_contacts(const Model& model, const State& state, Real dt, Real margin,
                       detail::CollisionScratch& scratch, ContactBuffer& out) {
  using namespace detail;
  out.clear();
  if (static_cast<int>(state.q.size()) < model.coord_count() || static_cast<int>(state.u.size()) < model.dof_count())
    return;
  prepare_pairs(model, state, dt, margin, scratch);

  const std::size_t pair_count = scratch.pairs.size();
  // Below scratch.parallel_pairs the calling thread does it all, writing straight into `out`: a
  // pair costs well under a microsecond, less than the fork/join and copy overhead.
  if (pair_count < scratch.parallel_pairs) {
    reserve_chunks(model, 1, scratch);
    for (std::size_t p = 0; p < pair_count; ++p)
      process_pair(model, scratch, scratch.pairs[p], dt, margin, scratch.chunks[0].narrow, out.contacts);
    append_soft_surface_contacts(model, dt, margin, scratch, out);
    return;
  }
  // Fixed chunks of consecutive pairs in parallel, concatenated in chunk order.
  const std::size_t chunk_count = (pair_count + kChunkPairs - 1) / kChunkPairs;
  reserve_chunks(model, chunk_count, scratch);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunk_count, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      CollisionScratch::Chunk& chunk = scratch.chunks[k];
      chunk.contacts.clear();
      const std::size_t end = std::min(pair_count, (k + 1) * kChunkPairs);
      for (std::size_t p = k * kChunkPairs; p < end; ++p)
        process_pair(model, scratch, scratch.pairs[p], dt, margin, chunk.narrow, chunk.contacts);
    }
  });
  std::size_t total = 0;
  for (std::size_t k = 0; k < chunk_count; ++k) total += scratch.chunks[k].contacts.size();
  if (out.contacts.capacity() < total) out.contacts.reserve(std::max(total, 2 * out.contacts.capacity()));
  for (std::size_t k = 0; k < chunk_count; ++k)
    out.contacts.insert(out.contacts.end(), scratch.chunks[k].contacts.begin(), scratch.chunks[k].contacts.end());
  append_soft_surface_contacts(model, dt, margin, scratch, out);
}

}  // namespace sim
