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
#include "sdf/local_optimisation.hpp"

namespace sim::detail {

namespace {

constexpr int kFaceChunk = 512;          // candidate faces per work unit
constexpr int kParallelFaces = 4096;     // from this many candidates on, chunks run in parallel

bool has_field(const SdfObject& o) { return o.kind != SdfKind::None && o.kind != SdfKind::Point; }

}  // namespace

void append_particle_face_contacts(const Model& model, Real dt, Real margin, CollisionScratch& sc, ContactBuffer& out) {
  SdfCollisionScratch& sd = sc.sdf;
  const SdfContactOptions& o = model.sdf;
  if (model.particle_triangles.empty() || !o.particle_faces || o.faces == SdfFaceMethod::None) return;
  const int shapes = model.shape_count;
  const int face_count = static_cast<int>(model.particle_triangles.size());
  // The work units' hits, sized once for every face a candidate (before any face comes near a
  // field, which may be long after warm-up): a hit per face at most.
  if (static_cast<int>(sd.cloth_hits.size()) < (face_count + kFaceChunk - 1) / kFaceChunk) {
    sd.cloth_hits.resize((face_count + kFaceChunk - 1) / kFaceChunk);
    for (auto& hits : sd.cloth_hits) hits.reserve(kFaceChunk);
  }
  for (int s = 0; s < shapes; ++s) {
    const CollisionObject& so = sc.objects[s];
    if (!so.valid) continue;
    const SdfObject shape = make_sdf_shape_object(model, s, so.pose, so.size);
    if (!has_field(shape)) continue;
    const Aabb& shape_box = sc.boxes[s];
    const Vec3 plane_n = so.pose.rot * Vec3::UnitZ();
    const Real plane_offset = plane_n.dot(so.pose.pos);
    // Candidates: faces whose grown box meets the shape's grown box (or reaches below a plane).
    sd.cloth_corners.clear();
    sd.cloth_max_sep.clear();
    sd.cloth_faces.clear();
    sd.cloth_corners.reserve(3 * static_cast<std::size_t>(face_count));  // every face a candidate: once
    sd.cloth_max_sep.reserve(static_cast<std::size_t>(face_count));
    sd.cloth_faces.reserve(static_cast<std::size_t>(face_count));
    for (int f = 0; f < face_count; ++f) {
      const auto& tri = model.particle_triangles[f];
      const CollisionObject* p[3];
      bool all_static = so.is_static;
      Real speed = 0, radius = 0;
      Aabb box{Vec3::Constant(std::numeric_limits<Real>::max()), Vec3::Constant(-std::numeric_limits<Real>::max())};
      for (int k = 0; k < 3; ++k) {
        p[k] = &sc.objects[shapes + tri[k]];
        all_static = all_static && p[k]->is_static;
        speed = std::max(speed, p[k]->speed);
        radius += p[k]->thickness / 3;
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
      for (int k = 0; k < 3; ++k) sd.cloth_corners.push_back(p[k]->pose.pos);
      sd.cloth_max_sep.push_back(margin + dt * (speed + so.speed) + radius + so.thickness);
      sd.cloth_faces.push_back(f);
    }
    const int candidates = static_cast<int>(sd.cloth_faces.size());
    if (candidates == 0) continue;
    const int chunks = (candidates + kFaceChunk - 1) / kFaceChunk;
    auto run_chunk = [&](int c) {
      sd.cloth_hits[c].clear();
      faces_against_field(shape, sd.cloth_corners.data(), sd.cloth_max_sep.data(), sd.cloth_faces.data(),
                          c * kFaceChunk, std::min(candidates, (c + 1) * kFaceChunk), o, sd.cloth_hits[c], &sd.stats);
    };
    if (candidates < kParallelFaces) {
      for (int c = 0; c < chunks; ++c) run_chunk(c);
    } else {
      tbb::parallel_for(tbb::blocked_range<int>(0, chunks, 1), [&](const tbb::blocked_range<int>& r) {
        for (int c = r.begin(); c != r.end(); ++c) run_chunk(c);
      });
    }
    // Contacts, in chunk order.
    for (int c = 0; c < chunks; ++c) {
      for (const FaceHit& h : sd.cloth_hits[c]) {
        const auto& tri = model.particle_triangles[h.face];
        int support = 0;
        for (int k = 0; k < 3; ++k) support += h.bary[k] > kBarycentricEps ? 1 : 0;
        if (support == 1) continue;  // a corner: the particle's own contact
        if (support == 2) {
          int zero = 0;
          for (int k = 0; k < 3; ++k)
            if (!(h.bary[k] > kBarycentricEps)) zero = k;
          if (cloth_edge_owner(model.particle_edge_key, model.particle_edge_owner, tri[(zero + 1) % 3], tri[(zero + 2) % 3]) != h.face) continue;
        }
        // One contact for the face: side a is the face point x* = Σ w_k x_k at the minimiser's
        // barycentric weights (one row over the three corners, constraint/particle_face_contact.hpp),
        // side b the field's surface point y = x* − φ n.
        const Vec3 surface = h.point - h.phi * h.normal;
        int major = 0;  // the corner with the largest weight gives the cloth's material
        Real thickness = 0;
        for (int k = 0; k < 3; ++k) {
          if (h.bary[k] > h.bary[major]) major = k;
          thickness += h.bary[k] * sc.objects[shapes + tri[k]].thickness;
        }
        const CollisionObject& po = sc.objects[shapes + tri[major]];
        Contact& ct = out.contacts.emplace_back();
        ct.a.kind = ContactSide::ParticleFace;
        ct.a.index = h.face;
        ct.a.local_point = Vec3(h.bary[0], h.bary[1], h.bary[2]);
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
        ct.key = hash_combine(hash_combine(0xC0000000ull | static_cast<std::uint64_t>(h.face), static_cast<std::uint64_t>(s)),
                              feature_id(kTagSdfClothFace, static_cast<std::uint32_t>(h.face), 0u));
        ct.shape_a = -1;
        ct.shape_b = s;
        ct.sdf_feature = SdfFeature::ClothFace;
        ct.sdf_iterations = static_cast<std::uint16_t>(std::clamp(h.evaluations, 0, 65535));
      }
    }
  }
}

}  // namespace sim::detail
