// Cloth faces against distance fields: candidate faces per shape (world boxes), face optimisation
// in fixed chunks (in parallel for large cloths; chunk order decides the output order), then one
// barycentric contact per face (see particle_faces_sdf.hpp for the constraint).
#include "collision/particle_faces_sdf.hpp"
#include "collision/contact_friction.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/cloth_edges.hpp"
#include "collision/particle_surfaces.hpp"
#include "sdf/local_optimisation.hpp"

namespace sim::detail {

namespace {

constexpr int kFaceChunk = 512;          // candidate faces per work unit
constexpr int kParallelFaces = 4096;     // from this many candidates on, chunks run in parallel

bool has_field(const SdfObject& o) { return o.kind != SdfKind::None && o.kind != SdfKind::Point; }

}  // namespace

namespace {

// The elements one pass optimises against a shape: the cloth faces (3 corners) or the free
// particles' segments (2: ParticleSurfaces::segments, distance constraints).
struct Elements {
  int corner_count = 3;
  int count = 0;
  const Model* model = nullptr;
  const std::vector<int>* segments = nullptr;  // segments: the distance constraints
  int particle(int e, int k) const {
    if (corner_count == 3) return model->particle_triangles[static_cast<std::size_t>(e)][static_cast<std::size_t>(k)];
    const auto d = static_cast<std::size_t>((*segments)[static_cast<std::size_t>(e)]);
    return k == 0 ? model->distance_particle_a[d] : model->distance_particle_b[d];
  }
};

// The candidates of one shape: elements whose grown box meets the shape's grown box (or reaches
// below a plane), their corners and reach, in sd.cloth_*.
void gather_candidates(const CollisionScratch& sc, SdfCollisionScratch& sd, int shapes, int s, const Elements& el,
                       Real dt, Real margin) {
  const CollisionObject& so = sc.objects[s];
  const Aabb& shape_box = sc.boxes[s];
  const Vec3 plane_n = so.pose.rot * Vec3::UnitZ();
  const Real plane_offset = plane_n.dot(so.pose.pos);
  sd.cloth_corners.clear();
  sd.cloth_max_sep.clear();
  sd.cloth_faces.clear();
  for (int f = 0; f < el.count; ++f) {
    const CollisionObject* p[3];
    bool all_static = so.is_static;
    Real speed = 0, radius = 0;
    Aabb box{Vec3::Constant(std::numeric_limits<Real>::max()), Vec3::Constant(-std::numeric_limits<Real>::max())};
    for (int k = 0; k < el.corner_count; ++k) {
      p[k] = &sc.objects[shapes + el.particle(f, k)];
      all_static = all_static && p[k]->is_static;
      speed = std::max(speed, p[k]->speed);
      radius += p[k]->thickness / el.corner_count;
      box.lo = box.lo.cwiseMin(p[k]->pose.pos);
      box.hi = box.hi.cwiseMax(p[k]->pose.pos);
    }
    if (all_static) continue;
    const Real grow = std::max(radius, Real(0)) + dt * speed + Real(0.5) * margin;
    box.lo -= Vec3::Constant(grow);
    box.hi += Vec3::Constant(grow);
    if (so.is_plane) {
      const Vec3 c = Real(0.5) * (box.lo + box.hi), h = Real(0.5) * (box.hi - box.lo);
      if (plane_n.dot(c) - plane_n.cwiseAbs().dot(h) - plane_offset > std::max(so.thickness, Real(0)) + Real(0.5) * margin)
        continue;
    } else if (!aabb_overlap(box, shape_box)) {
      continue;
    }
    for (int k = 0; k < el.corner_count; ++k) sd.cloth_corners.push_back(p[k]->pose.pos);
    sd.cloth_max_sep.push_back(margin + dt * (speed + so.speed) + radius + so.thickness);
    sd.cloth_faces.push_back(f);
  }
}

// Whether a hit is the element's own contact: a minimiser at a corner is the particle's; one on a
// face's edge is the edge's owner face's (a segment has no edge but itself).
bool own_hit(const Model& model, const Elements& el, const FaceHit& h) {
  int support = 0, zero = 0;
  for (int k = 0; k < el.corner_count; ++k) {
    if (h.bary[k] > kBarycentricEps) ++support;
    else zero = k;
  }
  if (support == 1) return false;
  if (el.corner_count == 3 && support == 2) {
    const auto& tri = model.particle_triangles[static_cast<std::size_t>(h.face)];
    return cloth_edge_owner(model.particle_edge_key, model.particle_edge_owner, tri[(zero + 1) % 3], tri[(zero + 2) % 3]) ==
           h.face;
  }
  return true;
}

// One contact per kept hit: side a the element's point x* = Σ w_k x_k at the minimiser's weights
// (a ParticleFace over the three corners, a ParticleSegment over the two ends), side b the
// field's surface point y = x* − φ n on the shape.
void append_hits(const Model& model, const CollisionScratch& sc, int s, const Elements& el, const std::vector<FaceHit>& hits,
                 ContactBuffer& out) {
  const int shapes = model.shape_count;
  const CollisionObject& so = sc.objects[s];
  const bool face = el.corner_count == 3;
  for (const FaceHit& h : hits) {
    if (!own_hit(model, el, h)) continue;
    const Vec3 surface = h.point - h.phi * h.normal;
    int major = 0;  // the corner with the largest weight gives the element's material
    Real thickness = 0;
    for (int k = 0; k < el.corner_count; ++k) {
      if (h.bary[k] > h.bary[major]) major = k;
      thickness += h.bary[k] * sc.objects[shapes + el.particle(h.face, k)].thickness;
    }
    const CollisionObject& po = sc.objects[shapes + el.particle(h.face, major)];
    Contact& ct = out.contacts.emplace_back();
    ct.a.kind = face ? ContactSide::ParticleFace : ContactSide::ParticleSegment;
    ct.a.index = face ? h.face : (*el.segments)[static_cast<std::size_t>(h.face)];
    ct.a.local_point = Vec3(h.bary[0], h.bary[1], face ? h.bary[2] : Real(0));
    if (so.body >= 0) {
      ct.b.kind = ContactSide::Body;
      ct.b.index = so.body;
      ct.b.local_point = sc.body_rotation_t[so.body] * (surface - sc.body_pose[so.body].pos);
    } else {
      ct.b.kind = ContactSide::World;
      ct.b.local_point = surface;
    }
    ct.normal = h.normal;
    set_contact_friction(model, po, h.point, so, surface, ct);
    ct.thickness = thickness + so.thickness;
    ct.initial_gap = h.phi - ct.thickness;
    const std::uint64_t element = (face ? 0xC0000000ull : 0xD0000000ull) | static_cast<std::uint64_t>(ct.a.index);
    ct.key = hash_combine(hash_combine(element, static_cast<std::uint64_t>(s)),
                          feature_id(face ? kTagSdfClothFace : kTagSdfSegment, static_cast<std::uint32_t>(ct.a.index), 0u));
    ct.shape_a = -1;
    ct.shape_b = s;
    ct.sdf_feature = face ? SdfFeature::ClothFace : SdfFeature::Core;
    ct.sdf_iterations = static_cast<std::uint16_t>(std::clamp(h.evaluations, 0, 65535));
  }
}

}  // namespace

void append_particle_face_contacts(const Model& model, Real dt, Real margin, CollisionScratch& sc, ContactBuffer& out) {
  SdfCollisionScratch& sd = sc.sdf;
  const SdfContactOptions& o = model.sdf;
  const bool faces = !model.particle_triangles.empty() && o.particle_faces && o.faces != SdfFaceMethod::None;
  if (sc.segments && model.particle_count > 0) update_particle_surfaces(model, sc.self_collision, sc.surfaces);
  const bool segments = sc.segments && !sc.surfaces.segments.empty();
  if (!faces && !segments) return;
  const int shapes = model.shape_count;
  Elements passes[2];
  passes[0] = Elements{3, faces ? static_cast<int>(model.particle_triangles.size()) : 0, &model, nullptr};
  passes[1] = Elements{2, segments ? static_cast<int>(sc.surfaces.segments.size()) : 0, &model, &sc.surfaces.segments};
  // The work units' hits and the candidates, sized once for every element a candidate (before any
  // comes near a field, which may be long after warm-up): a hit per element at most.
  const int most = std::max(passes[0].count, passes[1].count);
  if (static_cast<int>(sd.cloth_hits.size()) < (most + kFaceChunk - 1) / kFaceChunk) {
    sd.cloth_hits.resize((most + kFaceChunk - 1) / kFaceChunk);
    for (auto& hits : sd.cloth_hits) hits.reserve(kFaceChunk);
  }
  sd.cloth_corners.reserve(static_cast<std::size_t>(std::max(3 * passes[0].count, 2 * passes[1].count)));
  sd.cloth_max_sep.reserve(static_cast<std::size_t>(most));
  sd.cloth_faces.reserve(static_cast<std::size_t>(most));
  for (int s = 0; s < shapes; ++s) {
    const CollisionObject& so = sc.objects[s];
    if (!so.valid) continue;
    const SdfObject shape = make_sdf_shape_object(model, s, so.pose, so.size);
    if (!has_field(shape)) continue;
    for (const Elements& el : passes) {
      if (el.count == 0) continue;
      gather_candidates(sc, sd, shapes, s, el, dt, margin);
      const int candidates = static_cast<int>(sd.cloth_faces.size());
      if (candidates == 0) continue;
      const int chunks = (candidates + kFaceChunk - 1) / kFaceChunk;
      auto run_chunk = [&](int c) {
        sd.cloth_hits[c].clear();
        faces_against_field(shape, el.corner_count, sd.cloth_corners.data(), sd.cloth_max_sep.data(), sd.cloth_faces.data(),
                            c * kFaceChunk, std::min(candidates, (c + 1) * kFaceChunk), o, sd.cloth_hits[c], &sd.stats);
      };
      if (candidates < kParallelFaces) {
        for (int c = 0; c < chunks; ++c) run_chunk(c);
      } else {
        tbb::parallel_for(tbb::blocked_range<int>(0, chunks, 1), [&](const tbb::blocked_range<int>& r) {
          for (int c = r.begin(); c != r.end(); ++c) run_chunk(c);
        });
      }
      for (int c = 0; c < chunks; ++c) append_hits(model, sc, s, el, sd.cloth_hits[c], out);  // in chunk order
    }
  }
}

}  // namespace sim::detail
