// Point–triangle proximity contacts between soft bodies and cloth, and of a surface with itself
// (see particle_triangle_contacts.hpp for the constraint and the rules).
#include "collision/particle_triangle_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/cloth_edges.hpp"
#include "collision/contact_friction.hpp"
#include "collision/particle_surfaces.hpp"
#include "collision/proximity_chunks.hpp"
#include "sdf/local_optimisation.hpp"

namespace sim::detail {

namespace {

constexpr int kParticleChunk = 256;                // surface particles per work unit
constexpr std::uint32_t kTagParticleTriangle = 60;  // contact-key feature tag (after narrowphase_sdf.hpp's)

// Per triangle at the step's start: its box grown by the largest corner radius, the fastest
// corner's motion over dt and half the margin; its unit normal; whether nothing of it can move.
void place_triangles(const Model& model, Real dt, Real margin, CollisionScratch& sc) {
  const int shapes = model.shape_count;
  const int count = static_cast<int>(model.particle_triangles.size());
  CollisionScratch::ProximityElements& tris = sc.surface_triangles;
  tris.boxes.resize(count);
  tris.speed.resize(count);
  tris.normal.resize(count);
  tris.fixed.resize(count);
  for (int t = 0; t < count; ++t) {
    const auto& tri = model.particle_triangles[t];
    const CollisionObject* c[3] = {&sc.objects[shapes + tri[0]], &sc.objects[shapes + tri[1]], &sc.objects[shapes + tri[2]]};
    Real speed = 0, radius = 0;
    bool fixed = true;
    Aabb box{c[0]->pose.pos, c[0]->pose.pos};
    for (int k = 0; k < 3; ++k) {
      speed = std::max(speed, c[k]->speed);
      radius = std::max(radius, c[k]->thickness);
      fixed = fixed && c[k]->is_static;
      box.lo = box.lo.cwiseMin(c[k]->pose.pos);
      box.hi = box.hi.cwiseMax(c[k]->pose.pos);
    }
    const Real grow = std::max(radius, Real(0)) + dt * speed + Real(0.5) * margin;
    box.lo -= Vec3::Constant(grow);
    box.hi += Vec3::Constant(grow);
    tris.boxes[t] = box;
    tris.speed[t] = speed;
    tris.fixed[t] = fixed ? 1 : 0;
    const Vec3 n = (c[1]->pose.pos - c[0]->pose.pos).cross(c[2]->pose.pos - c[0]->pose.pos);
    const Real len = n.norm();
    tris.normal[t] = len > 0 ? Vec3(n / len) : Vec3(Vec3::UnitZ());
  }
}

// The contact of particle p with triangle t, if any (appended to `out`).
void particle_against_triangle(const Model& model, const CollisionScratch& sc, Real dt, Real margin, int p, int t,
                               std::vector<Contact>& out) {
  const int shapes = model.shape_count;
  const CollisionObject& po = sc.objects[shapes + p];
  if (po.is_static && sc.surface_triangles.fixed[t]) return;
  const auto& tri = model.particle_triangles[t];
  const Vec3& x = po.pose.pos;
  Real w[3];
  const Vec3 y = closest_point_on_triangle(x, sc.objects[shapes + tri[0]].pose.pos, sc.objects[shapes + tri[1]].pose.pos,
                                           sc.objects[shapes + tri[2]].pose.pos, w);
  int support = 0;
  for (int k = 0; k < 3; ++k) support += w[k] > kBarycentricEps ? 1 : 0;
  if (support == 1) {  // a vertex: its first triangle has it
    int v = 0;
    for (int k = 0; k < 3; ++k)
      if (w[k] > w[v]) v = k;
    if (sc.surfaces.particle_first_triangle[tri[v]] != t) return;
  } else if (support == 2) {  // an edge: its owner triangle has it
    int zero = 0;
    for (int k = 0; k < 3; ++k)
      if (!(w[k] > kBarycentricEps)) zero = k;
    if (cloth_edge_owner(model.particle_edge_key, model.particle_edge_owner, tri[(zero + 1) % 3], tri[(zero + 2) % 3]) != t)
      return;
  }
  Real thickness = po.thickness;
  int major = 0;  // the corner with the largest weight gives the face's material
  for (int k = 0; k < 3; ++k) {
    thickness += w[k] * sc.objects[shapes + tri[k]].thickness;
    if (w[k] > w[major]) major = k;
  }
  const Real reach = margin + dt * (po.speed + sc.surface_triangles.speed[t]);
  const Vec3 delta = x - y;
  const Real dist = delta.norm();
  const Vec3& face_n = sc.surface_triangles.normal[t];
  const int surface = sc.surfaces.particle_surface[tri[0]];
  const bool closed = surface >= 0 && sc.surfaces.closed[static_cast<std::size_t>(surface)];
  const Real tiny = Real(1e-12) * std::max(Real(1), sc.surface_triangles.boxes[t].hi.cwiseAbs().maxCoeff());
  Vec3 n;
  Real gap;
  if (closed && delta.dot(face_n) < 0) {  // behind a one-sided face: inside the body
    if (support != 3 || !(dist < thickness + reach)) return;
    n = dist > tiny ? Vec3(-delta / dist) : face_n;
    gap = -dist - thickness;
  } else {
    if (!(dist - thickness < reach)) return;
    n = dist > tiny ? Vec3(delta / dist) : face_n;
    gap = dist - thickness;
  }
  Contact& c = out.emplace_back();
  c.a.kind = ContactSide::Particle;
  c.a.index = p;
  c.b.kind = ContactSide::ParticleFace;
  c.b.index = t;
  c.b.local_point = Vec3(w[0], w[1], w[2]);
  c.normal = n;
  set_contact_friction(model, po, x, sc.objects[shapes + tri[major]], y, c);
  c.thickness = thickness;
  c.initial_gap = gap;
  c.key = hash_combine(hash_combine(0x80000000ull | static_cast<std::uint64_t>(p), 0xC0000000ull | static_cast<std::uint64_t>(t)),
                       feature_id(kTagParticleTriangle, static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(t)));
  c.shape_a = c.shape_b = -1;
}

// The contacts of the points (surface and free particles) of chunk `chunk` against the triangles near them.
void run_chunk(const Model& model, const CollisionScratch& sc, Real dt, Real margin, int chunk,
               CollisionScratch::ProximityChunk& ch) {
  const int shapes = model.shape_count;
  const Real half_margin = Real(0.5) * margin;
  run_proximity_queries(
      sc.surface_triangles.hash, model.particle_triangles.size(), chunk, kParticleChunk,
      static_cast<int>(sc.surface_particles.size()), ch,
      [&](int i) {
        const CollisionObject& po = sc.objects[shapes + sc.surface_particles[static_cast<std::size_t>(i)]];
        const Real grow = std::max(po.thickness, Real(0)) + dt * po.speed + half_margin;
        return Aabb{po.pose.pos - Vec3::Constant(grow), po.pose.pos + Vec3::Constant(grow)};
      },
      [&](int i, int t, std::vector<Contact>& out) {
        const int p = sc.surface_particles[static_cast<std::size_t>(i)];
        if (particle_triangle_allowed(model, sc.surfaces, p, t)) particle_against_triangle(model, sc, dt, margin, p, t, out);
      });
}

}  // namespace

bool particle_triangle_allowed(const Model& model, const ParticleSurfaces& surfaces, int p, int t) {
  const auto& tri = model.particle_triangles[static_cast<std::size_t>(t)];
  if (tri[0] == p || tri[1] == p || tri[2] == p) return false;
  const int own = surfaces.particle_surface[static_cast<std::size_t>(p)];
  const int other = surfaces.particle_surface[static_cast<std::size_t>(tri[0])];
  if (own == kInsideParticle) return false;
  if (own == kFreeParticle || own != other) return true;
  if (!surfaces.self_collision[static_cast<std::size_t>(own)]) return false;
  if (surfaces.closed[static_cast<std::size_t>(own)])
    for (int k = 0; k < 3; ++k)
      if (in_particle_ring(surfaces, tri[k], p)) return false;
  return true;
}

void append_particle_triangle_contacts(const Model& model, Real dt, Real margin, CollisionScratch& sc, ContactBuffer& out) {
  if (model.particle_triangles.empty()) return;
  update_particle_surfaces(model, sc.self_collision, sc.surfaces);
  place_triangles(model, dt, margin, sc);
  CollisionScratch::ProximityElements& tris = sc.surface_triangles;
  build_box_hash(tris.boxes.data(), static_cast<int>(tris.boxes.size()), tris.hash);
  sc.surface_particles.clear();  // the surfaces' corners and, unless switched off, the free particles
  for (int p = 0; p < model.particle_count; ++p) {
    const int own = sc.surfaces.particle_surface[static_cast<std::size_t>(p)];
    if (own >= 0 || (own == kFreeParticle && sc.free_particle_points)) sc.surface_particles.push_back(p);
  }
  const int count = static_cast<int>(sc.surface_particles.size());
  run_proximity_chunks(
      tris.chunks, (count + kParticleChunk - 1) / kParticleChunk, count >= sc.proximity_parallel,
      [&](int c, CollisionScratch::ProximityChunk& ch) { run_chunk(model, sc, dt, margin, c, ch); }, out);
}

}  // namespace sim::detail
