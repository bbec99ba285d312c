// SDF narrowphase: features of one shape against the distance field of the other, both ways (see
// narrowphase_sdf.hpp for the method and the thesis sections it follows).
#include "collision/narrowphase_sdf.hpp"

#include <algorithm>
#include <cmath>

#include "collision/geometry.hpp"
#include "collision/manifold.hpp"
#include "collision/polyhedron.hpp"
#include "collision/sdf_feature_search.hpp"
#include "sdf/analytic_sdf.hpp"
#include "sdf/local_optimisation.hpp"
#include "sdf/nano_sdf.hpp"

namespace sim::detail {

namespace {

// Contacts of one pair above this many are not merged pairwise (O(n²)); reduction still applies.
constexpr std::size_t kMaxMerge = 1024;
// Normals of contacts merged as duplicates agree to this cosine.
constexpr Real kMergeCosine = Real(0.9);

struct Counts {
  std::uint64_t tested = 0, culled = 0, evaluations = 0, contacts = 0;
};

// Per-thread scratch: the placed positions and field values of a mesh's vertices (grows to the
// largest mesh once per thread, then is reused).
struct VertexScratch {
  std::vector<Vec3> pos;
  std::vector<Real> phi;
};

VertexScratch& vertex_scratch() {
  thread_local VertexScratch s;
  return s;
}

SdfFeature sdf_feature_of(std::uint32_t tag) {
  switch (tag) {
    case kTagSdfVertex: return SdfFeature::Vertex;
    case kTagSdfEdge: return SdfFeature::Edge;
    case kTagSdfFace: return SdfFeature::Face;
    case kTagSdfCore:
    case kTagSdfSegment: return SdfFeature::Core;  // a rope's segment: a round core between two particles
    case kTagSdfClothFace: return SdfFeature::ClothFace;
    default: return SdfFeature::None;
  }
}

// Writes contacts for feature points found in the field's frame.
struct Emitter {
  Mat3 rot;               // field frame -> world
  Vec3 pos;
  bool x_is_first = true; // the features belong to the pair's first shape
  Real max_sep = 0;
  std::vector<RawContact>* out = nullptr;
  Counts* counts = nullptr;

  // x: the feature point (field frame); phi, grad: the field there; radius: the feature's own
  // radius (round cores, else 0); evaluations: what the local optimisation spent on it (recorded
  // with the contact). Separation φ − radius; normal ∇φ/|∇φ| (digest §7.9: normalise).
  template <class Field>
  void emit(const Field& field, const Vec3& x, Real phi, const Vec3& grad, Real radius, std::uint32_t tag,
            std::uint32_t index, int evaluations) const {
    if (!(phi - radius < max_sep) || !field.trusted(phi)) return;
    const Real g = grad.norm();
    if (!(g > Real(1e-9))) return;  // no direction: a plateau outside the band, or a medial point
    const Vec3 n = rot * (grad / g);
    const Vec3 xw = rot * x + pos;
    const Vec3 on_field = xw - phi * n;  // closest point of the field's surface (y = x − φ n)
    const Vec3 on_feature = xw - radius * n;
    RawContact& c = out->emplace_back();
    if (x_is_first) {
      c.normal = n, c.point_first = on_feature, c.point_second = on_field;
    } else {
      c.normal = -n, c.point_first = on_field, c.point_second = on_feature;
    }
    c.feature = feature_id(tag, index, x_is_first ? 0u : 1u);
    c.sdf_feature = sdf_feature_of(tag);
    c.sdf_iterations = static_cast<std::uint16_t>(std::clamp(evaluations, 0, 65535));
    ++counts->contacts;
  }
};

struct Context {
  const SdfContactOptions* options = nullptr;
  Real slack = 0;          // cull slack of the field [m]
  bool linear = false;     // the field is linear (a plane): minima lie on vertices
  Emitter emitter;
  Counts* counts = nullptr;
};

// A feature search's counts into the pair's.
void add_counts(Counts& n, const FeatureCounts& f) {
  n.tested += std::uint64_t(f.tested);
  n.culled += std::uint64_t(f.culled);
  n.evaluations += std::uint64_t(f.evaluations);
}

// Vertices, feature edges and faces of a mesh (placed in the field frame by R, t).
template <class Field>
void mesh_against(const SdfMesh& m, const Mat3& R, const Vec3& t, Field& field, Context& cx) {
  const SdfContactOptions& o = *cx.options;
  const Emitter& em = cx.emitter;
  Counts& n = *cx.counts;
  const Real reach = em.max_sep + cx.slack;
  // The whole mesh's bounding sphere first.
  ++n.evaluations;
  if (field.eval(R * m.bound_center + t, nullptr) >= m.bound_radius + reach) {
    ++n.culled;
    return;
  }
  const auto& verts = m.mesh.vertices;
  VertexScratch& vs = vertex_scratch();
  if (vs.pos.size() < verts.size()) vs.pos.resize(verts.size()), vs.phi.resize(verts.size());
  for (std::size_t v = 0; v < verts.size(); ++v) {
    if (m.vertex_owner[v] < 0) continue;  // unused
    Vec3 g;
    vs.phi[v] = place_and_sample(field, R, t, verts[v], vs.pos[v], g);
    ++n.evaluations;
    ++n.tested;
    if (o.vertices) em.emit(field, vs.pos[v], vs.phi[v], g, 0, kTagSdfVertex, static_cast<std::uint32_t>(v), 1);
  }
  if (cx.linear) return;
  const SdfMeshView view = mesh_view(m);
  // A searched feature: its counts, and a contact where it has a hit of its own.
  auto report = [&](const FeatureHit& hit, const FeatureCounts& fc, std::uint32_t tag, int index) {
    add_counts(n, fc);
    if (hit.found)
      em.emit(field, hit.minimum.point, hit.minimum.phi, hit.minimum.grad, 0, tag, static_cast<std::uint32_t>(index),
              hit.minimum.evaluations);
  };
  if (o.edges) {
    for (int e = 0; e < view.edge_count; ++e) {
      FeatureCounts fc;
      report(edge_feature(field, view, e, vs.pos.data(), vs.phi.data(), reach, o, fc), fc, kTagSdfEdge, e);
    }
  }
  if (o.faces == SdfFaceMethod::None) return;
  for (int f = 0; f < view.triangle_count; ++f) {
    FeatureCounts fc;
    report(face_feature(field, view, f, vs.pos.data(), vs.phi.data(), reach, o, fc), fc, kTagSdfFace, f);
  }
}

// Vertices and edges of a convex polyhedron (a box: the unit box scaled by `scale`).
template <class Field>
void polytope_against(const Model::Hull& h, const Vec3& scale, const Mat3& R, const Vec3& t, Field& field,
                      Context& cx) {
  const SdfContactOptions& o = *cx.options;
  const Emitter& em = cx.emitter;
  Counts& n = *cx.counts;
  VertexScratch& vs = vertex_scratch();
  const std::size_t count = h.vertices.size();
  if (vs.pos.size() < count) vs.pos.resize(count), vs.phi.resize(count);
  for (std::size_t v = 0; v < count; ++v) {
    vs.pos[v] = R * h.vertices[v].cwiseProduct(scale) + t;
    Vec3 g;
    vs.phi[v] = field.eval(vs.pos[v], &g);
    ++n.evaluations;
    ++n.tested;
    em.emit(field, vs.pos[v], vs.phi[v], g, 0, kTagSdfVertex, static_cast<std::uint32_t>(v), 1);
  }
  if (cx.linear || !o.edges) return;
  const Real reach = em.max_sep + cx.slack;
  for (int e = 0; e < h.edge_count(); ++e) {
    const int a = h.edge_vertices[2 * e], b = h.edge_vertices[2 * e + 1];
    const Real length = (vs.pos[b] - vs.pos[a]).norm();
    if (Real(0.5) * (vs.phi[a] + vs.phi[b] - length) >= reach) {
      ++n.culled;
      continue;
    }
    ++n.tested;
    const FeatureMinimum fm = minimise_edge(field, vs.pos[a], vs.pos[b], vs.phi[a], vs.phi[b], o.iterations, o.tolerance);
    n.evaluations += static_cast<std::uint64_t>(fm.evaluations);
    if (!(fm.bary[0] > kBarycentricEps && fm.bary[1] > kBarycentricEps)) continue;  // the vertex test has it
    em.emit(field, fm.point, fm.phi, fm.grad, 0, kTagSdfEdge, static_cast<std::uint32_t>(e), fm.evaluations);
  }
}

// A round core (point, or segment p0-p1) swept by `radius`: its deepest point by golden-section
// search, and the segment's end points.
template <class Field>
void core_against(const Vec3& p0, const Vec3& p1, Real radius, Field& field, Context& cx) {
  const SdfContactOptions& o = *cx.options;
  const Emitter& em = cx.emitter;
  Counts& n = *cx.counts;
  Vec3 g0;
  const Real phi0 = field.eval(p0, &g0);
  ++n.evaluations;
  ++n.tested;
  if (p0 == p1) {
    em.emit(field, p0, phi0, g0, radius, kTagSdfCore, 0, 1);
    return;
  }
  Vec3 g1;
  const Real phi1 = field.eval(p1, &g1);
  ++n.evaluations;
  em.emit(field, p0, phi0, g0, radius, kTagSdfCore, 1, 1);
  em.emit(field, p1, phi1, g1, radius, kTagSdfCore, 2, 1);
  if (cx.linear) return;
  const Real length = (p1 - p0).norm();
  if (Real(0.5) * (phi0 + phi1 - length) - radius >= em.max_sep + cx.slack) {
    ++n.culled;
    return;
  }
  const FeatureMinimum fm = minimise_edge(field, p0, p1, phi0, phi1, o.iterations, o.tolerance);
  n.evaluations += static_cast<std::uint64_t>(fm.evaluations);
  if (fm.bary[0] > kBarycentricEps && fm.bary[1] > kBarycentricEps)
    em.emit(field, fm.point, fm.phi, fm.grad, radius, kTagSdfCore, 0, fm.evaluations);
}

// The features of x against the field `field` of y.
template <class Field>
void features_against(const SdfObject& x, const SdfObject& y, Field& field, Context& cx) {
  const Pose rel = y.pose.inverse() * x.pose;  // x frame -> y frame
  const Mat3 R = rel.rot.toRotationMatrix();
  const Vec3& t = rel.pos;
  switch (x.kind) {
    case SdfKind::Mesh: mesh_against(*x.mesh, R, t, field, cx); break;
    case SdfKind::Box: polytope_against(unit_box_hull(), x.half, R, t, field, cx); break;
    case SdfKind::Hull: polytope_against(*x.hull, Vec3(Vec3::Ones()), R, t, field, cx); break;
    case SdfKind::Sphere: core_against(t, t, x.radius, field, cx); break;
    case SdfKind::Point: core_against(t, t, Real(0), field, cx); break;
    case SdfKind::Capsule:
      core_against(Vec3(R * Vec3(0, 0, -x.half_length) + t), Vec3(R * Vec3(0, 0, x.half_length) + t), x.radius, field, cx);
      break;
    case SdfKind::Plane:
    case SdfKind::None: break;
  }
}

// Calls fn(field, slack, linear) with the distance field of y; nothing for points.
template <class Fn>
void visit_field(const SdfObject& y, const SdfContactOptions& o, Fn&& fn) {
  switch (y.kind) {
    case SdfKind::Mesh: {
      NanoSdf field(y.mesh->grid->impl());
      fn(field, field.cull_slack(o.cull_slack), false);
      break;
    }
    case SdfKind::Sphere: {
      SphereSdf field{y.radius};
      fn(field, Real(0), false);
      break;
    }
    case SdfKind::Capsule: {
      CapsuleSdf field{y.radius, y.half_length};
      fn(field, Real(0), false);
      break;
    }
    case SdfKind::Box: {
      BoxSdf field{y.half};
      fn(field, Real(0), false);
      break;
    }
    case SdfKind::Plane: {
      PlaneSdf field;
      fn(field, Real(0), true);
      break;
    }
    case SdfKind::Hull: {
      ConvexSdf field{y.hull->face_normal.data(), y.hull->face_offset.data(), y.hull->face_count()};
      fn(field, Real(0), false);
      break;
    }
    case SdfKind::Point:
    case SdfKind::None: break;
  }
}

// One direction: the features of x against the field of y.
void one_way(const SdfObject& x, const SdfObject& y, bool x_is_first, Real max_sep, const SdfContactOptions& o,
             std::vector<RawContact>& out, Counts& counts) {
  Context cx;
  cx.options = &o;
  cx.counts = &counts;
  cx.emitter.rot = y.pose.rot.toRotationMatrix();
  cx.emitter.pos = y.pose.pos;
  cx.emitter.x_is_first = x_is_first;
  cx.emitter.max_sep = max_sep;
  cx.emitter.out = &out;
  cx.emitter.counts = &counts;
  visit_field(y, o, [&](auto& field, Real slack, bool linear) {
    cx.slack = slack;
    cx.linear = linear;
    features_against(x, y, field, cx);
  });
}

void add_stats(SdfStats* stats, const Counts& counts) {
  if (stats == nullptr) return;
  stats->features_tested.fetch_add(counts.tested, std::memory_order_relaxed);
  stats->features_culled.fetch_add(counts.culled, std::memory_order_relaxed);
  stats->evaluations.fetch_add(counts.evaluations, std::memory_order_relaxed);
  stats->contacts.fetch_add(counts.contacts, std::memory_order_relaxed);
}

// Contacts closer than this (with similar normals) are one contact: a voxel for grids; for a round
// shape half its radius, since every feature of a mesh near a sphere or capsule finds a minimum of
// the sphere's field (vertices, edges, faces around one touching patch) and one per patch is
// enough: more only burden the solver with near-duplicate rows.
Real merge_distance(const SdfObject& a, const SdfObject& b) {
  Real d = Real(1e-4) * std::max(a.size, b.size);
  if (a.kind == SdfKind::Mesh) d = std::max(d, a.mesh->grid->voxel_size());
  if (b.kind == SdfKind::Mesh) d = std::max(d, b.mesh->grid->voxel_size());
  for (const SdfObject* o : {&a, &b})
    if (o->kind == SdfKind::Sphere || o->kind == SdfKind::Capsule) d = std::max(d, Real(0.5) * o->radius);
  return d;
}

// Drops every contact that has a deeper one (ties: the earlier) within `distance` whose normal
// agrees: the same touching point found from both sides, or by a vertex and an edge.
void merge_duplicates(std::vector<RawContact>& c, std::size_t begin, Real distance, std::vector<char>& keep) {
  const std::size_t count = c.size() - begin;
  if (count < 2 || count > kMaxMerge) return;
  keep.assign(count, 1);
  const Real d2 = distance * distance;
  for (std::size_t i = 0; i < count; ++i) {
    const RawContact& ci = c[begin + i];
    const Vec3 mi = Real(0.5) * (ci.point_first + ci.point_second);
    const Real si = ci.separation();
    for (std::size_t j = 0; j < count && keep[i]; ++j) {
      if (j == i) continue;
      const RawContact& cj = c[begin + j];
      const Real sj = cj.separation();
      if (!(sj < si || (sj == si && j < i))) continue;
      if (cj.normal.dot(ci.normal) < kMergeCosine) continue;
      if ((Real(0.5) * (cj.point_first + cj.point_second) - mi).squaredNorm() <= d2) keep[i] = 0;
    }
  }
  std::size_t out = begin;
  for (std::size_t i = 0; i < count; ++i)
    if (keep[i]) c[out++] = c[begin + i];
  c.resize(out);
}

}  // namespace

SdfObject make_sdf_shape_object(const Model& model, int s, const Pose& pose, Real size) {
  SdfObject o;
  o.pose = pose;
  o.size = size;
  const int mesh = s < static_cast<int>(model.shape_mesh.size()) ? model.shape_mesh[s] : -1;
  if (mesh >= 0 && mesh < static_cast<int>(model.meshes.size()) && model.meshes[mesh] && model.meshes[mesh]->grid) {
    o.kind = SdfKind::Mesh;
    o.mesh = model.meshes[mesh].get();
    return o;
  }
  switch (model.shape_type[s]) {
    case ShapeType::Plane: o.kind = SdfKind::Plane; break;
    case ShapeType::Sphere:
      o.kind = SdfKind::Sphere;
      o.radius = model.shape_radius[s];
      break;
    case ShapeType::Capsule:
      o.kind = SdfKind::Capsule;
      o.radius = model.shape_radius[s];
      o.half_length = model.shape_half_length[s];
      break;
    case ShapeType::Box:
      o.kind = SdfKind::Box;
      o.half = model.shape_half_extents[s];
      break;
    case ShapeType::ConvexMesh:
    case ShapeType::Cylinder:   // against SDF meshes through their hulls
    case ShapeType::Ellipsoid: {
      const int h = s < static_cast<int>(model.shape_hull.size()) ? model.shape_hull[s] : -1;
      if (h >= 0 && h < static_cast<int>(model.hulls.size()) && model.hulls[h].face_count() > 0) {
        o.kind = SdfKind::Hull;
        o.hull = &model.hulls[h];
      }
      break;
    }
  }
  return o;
}

SdfObject make_sdf_point_object(const Vec3& position) {
  SdfObject o;
  o.kind = SdfKind::Point;
  o.pose.pos = position;
  return o;
}

void collide_sdf(const SdfObject& first, const SdfObject& second, Real max_sep, const SdfContactOptions& options,
                 NarrowScratch& s, SdfStats* stats) {
  const std::size_t begin = s.contacts.size();
  Counts counts;
  one_way(first, second, true, max_sep, options, s.contacts, counts);
  one_way(second, first, false, max_sep, options, s.contacts, counts);
  merge_duplicates(s.contacts, begin, merge_distance(first, second), s.keep);
  const bool rigid = first.kind != SdfKind::Point && second.kind != SdfKind::Point;
  if (rigid && options.max_pair_contacts > 0 && s.contacts.size() - begin > static_cast<std::size_t>(options.max_pair_contacts))
    reduce_manifold(s.contacts, begin, options.max_pair_contacts, s.keep);
  add_stats(stats, counts);
}

void faces_against_field(const SdfObject& shape, int corner_count, const Vec3* corners, const Real* max_sep,
                         const int* face_ids, int begin, int end, const SdfContactOptions& o, std::vector<FaceHit>& hits,
                         SdfStats* stats) {
  if (corner_count == 3 && o.faces == SdfFaceMethod::None) return;
  Counts n;
  const Mat3 rot = shape.pose.rot.toRotationMatrix();
  const Mat3 rot_t = rot.transpose();
  visit_field(shape, o, [&](auto& field, Real slack, bool linear) {
    for (int f = begin; f < end; ++f) {
      Vec3 x[3];
      Real phi[3];
      for (int k = 0; k < corner_count; ++k) {
        x[k] = rot_t * (corners[corner_count * f + k] - shape.pose.pos);
        phi[k] = field.eval(x[k], nullptr);
      }
      n.evaluations += static_cast<std::uint64_t>(corner_count);
      const Real reach = max_sep[f] + slack;
      if (linear) {  // a plane: the minimum over a face or segment is at a corner, which the particles have
        ++n.culled;
        continue;
      }
      FeatureMinimum fm;
      if (corner_count == 2) {  // a segment: golden-section search, culled as a round core is
        ++n.tested;
        if (Real(0.5) * (phi[0] + phi[1] - (x[1] - x[0]).norm()) >= reach) {
          ++n.culled;
          continue;
        }
        fm = minimise_edge(field, x[0], x[1], phi[0], phi[1], o.iterations, o.tolerance);
        n.evaluations += static_cast<std::uint64_t>(fm.evaluations);
        // Only a minimum deeper inside than both ends (a link over an edge) is the segment's own:
        // along a link lying flat on a face φ ties with its ends' to rounding.
        if (!(fm.phi < std::min(phi[0], phi[1]) - kSegmentDepth)) continue;
      } else {
        FeatureCounts fc;
        const bool searched = minimise_face_within(field, x, phi, reach, o, fc, fm);
        add_counts(n, fc);
        if (!searched) continue;
      }
      if (!(fm.phi < max_sep[f]) || !field.trusted(fm.phi)) continue;
      const Real g = fm.grad.norm();
      if (!(g > Real(1e-9))) continue;
      FaceHit& h = hits.emplace_back();
      h.face = face_ids[f];
      h.phi = fm.phi;
      h.point = rot * fm.point + shape.pose.pos;
      h.normal = rot * (fm.grad / g);
      for (int k = 0; k < 3; ++k) h.bary[k] = fm.bary[k];
      h.evaluations = fm.evaluations;
      ++n.contacts;
    }
  });
  add_stats(stats, n);
}

}  // namespace sim::detail
