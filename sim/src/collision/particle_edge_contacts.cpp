// Edge–edge contacts between soft-body and cloth surfaces (see particle_edge_contacts.hpp for the
// constraint and the rules).
#include "collision/particle_edge_contacts.hpp"

#include <algorithm>
#include <cmath>

#include "collision/cloth_edges.hpp"
#include "collision/contact_friction.hpp"
#include "collision/particle_surfaces.hpp"
#include "collision/proximity_chunks.hpp"
#include "sdf/local_optimisation.hpp"

namespace sim::detail {

namespace {

constexpr int kEdgeChunk = 512;                 // edges per work unit
constexpr std::uint32_t kTagEdgeEdge = 61;      // contact-key feature tag (after particle_triangle_contacts')
constexpr Real kParallelSine2 = Real(1e-8);     // sin² of the angle below which two edges count as parallel
constexpr Real kFlatCosine = Real(0.985);       // cos 10°: an edge whose two faces are closer than this is flat

// The stage's elements: the model's surface edges [0, edges), then the free particles' segments
// (ParticleSurfaces::segments, distance constraints) [edges, edges + segments).
int edge_count(const Model& m) { return static_cast<int>(m.particle_edge_key.size()); }
bool is_segment(const Model& m, int e) { return e >= edge_count(m); }
int segment_distance(const Model& m, const ParticleSurfaces& surfaces, int e) {
  return surfaces.segments[static_cast<std::size_t>(e - edge_count(m))];
}

// Corner k of element e: an edge's lower (0) or higher (1) particle, a segment's particle a or b.
int edge_corner(const Model& m, const ParticleSurfaces& surfaces, int e, int k) {
  if (is_segment(m, e)) {
    const int d = segment_distance(m, surfaces, e);
    return k == 0 ? m.distance_particle_a[static_cast<std::size_t>(d)] : m.distance_particle_b[static_cast<std::size_t>(d)];
  }
  const std::uint64_t key = m.particle_edge_key[static_cast<std::size_t>(e)];
  return static_cast<int>(k == 0 ? key >> 32 : key & 0xffffffffu);
}

std::uint64_t element_key(const Model& m, const ParticleSurfaces& surfaces, int e) {
  return is_segment(m, e) ? cloth_edge_key(edge_corner(m, surfaces, e, 0), edge_corner(m, surfaces, e, 1))
                          : m.particle_edge_key[static_cast<std::size_t>(e)];
}

// The edge through which a segment meets surface corner p (the closest points at p, so every edge
// at p finds it): the edge from p in p's lowest-index triangle, so that only one of them keeps it.
int corner_edge(const Model& m, const ParticleSurfaces& surfaces, int p) {
  const int f = surfaces.particle_first_triangle[static_cast<std::size_t>(p)];
  if (f < 0) return -1;
  const auto& tri = m.particle_triangles[static_cast<std::size_t>(f)];
  for (int k = 0; k < 3; ++k)
    if (tri[static_cast<std::size_t>(k)] == p) return surfaces.triangle_edges[static_cast<std::size_t>(f)][static_cast<std::size_t>(k)];
  return -1;
}

// Per edge at the step's start: its box grown by the larger corner radius, the faster corner's
// motion over dt and half the margin; whether both corners are fixed; the outward normal from the
// triangles' unit normals (place_triangles ran before, for the point–triangle contacts).
void place_edges(const Model& model, Real dt, Real margin, int count, CollisionScratch& sc) {
  const int shapes = model.shape_count;
  CollisionScratch::ProximityElements& edges = sc.surface_edges;
  edges.boxes.resize(count);
  edges.speed.resize(count);
  edges.fixed.resize(count);
  edges.normal.assign(count, Vec3::Zero());
  for (int e = 0; e < count; ++e) {
    const CollisionObject& a = sc.objects[shapes + edge_corner(model, sc.surfaces, e, 0)];
    const CollisionObject& b = sc.objects[shapes + edge_corner(model, sc.surfaces, e, 1)];
    const Real grow = std::max({a.thickness, b.thickness, Real(0)}) + dt * std::max(a.speed, b.speed) + Real(0.5) * margin;
    edges.boxes[e] = Aabb{a.pose.pos.cwiseMin(b.pose.pos) - Vec3::Constant(grow), a.pose.pos.cwiseMax(b.pose.pos) + Vec3::Constant(grow)};
    edges.speed[e] = std::max(a.speed, b.speed);
    edges.fixed[e] = a.is_static && b.is_static ? 1 : 0;
  }
  for (std::size_t f = 0; f < sc.surfaces.triangle_edges.size(); ++f)
    for (int e : sc.surfaces.triangle_edges[f])
      if (e >= 0) edges.normal[e] += sc.surface_triangles.normal[f];
  for (Vec3& n : edges.normal) {
    const Real len = n.norm();
    n = len > 0 ? Vec3(n / len) : Vec3::Zero();
  }
}

bool surface_closed(const ParticleSurfaces& surfaces, int particle) {
  const int s = surfaces.particle_surface[static_cast<std::size_t>(particle)];
  return s >= 0 && surfaces.closed[static_cast<std::size_t>(s)];
}

// Whether the point at v from a point of edge e lies behind e's surface there: behind both faces'
// planes at a convex edge, behind either at a concave one, behind the one face of a boundary edge
// (v ⊥ e, so only the faces' normals matter).
bool behind_edge(const Model& model, const CollisionScratch& sc, int e, const Vec3& v) {
  const auto& faces = sc.surfaces.edge_faces[static_cast<std::size_t>(e)];
  if (faces[0] < 0) return false;
  const Vec3& n0 = sc.surface_triangles.normal[static_cast<std::size_t>(faces[0])];
  const bool behind0 = v.dot(n0) < 0;
  if (faces[1] < 0) return behind0;
  const Vec3& n1 = sc.surface_triangles.normal[static_cast<std::size_t>(faces[1])];
  const bool behind1 = v.dot(n1) < 0;
  // Convex when the second face's far corner lies behind the first face's plane.
  const auto& tri = model.particle_triangles[static_cast<std::size_t>(faces[1])];
  const int p0 = edge_corner(model, sc.surfaces, e, 0), p1 = edge_corner(model, sc.surfaces, e, 1);
  int far = tri[0];
  for (int k : tri)
    if (k != p0 && k != p1) far = k;
  const int shapes = model.shape_count;
  const bool convex = (sc.objects[shapes + far].pose.pos - sc.objects[shapes + p0].pose.pos).dot(n0) <= 0;
  return convex ? behind0 && behind1 : behind0 || behind1;
}

// Whether edge e's two faces are within 10° of each other (a boundary edge or a segment is not flat).
bool flat_edge(const Model& model, const CollisionScratch& sc, int e) {
  if (is_segment(model, e)) return false;
  const auto& faces = sc.surfaces.edge_faces[static_cast<std::size_t>(e)];
  if (faces[0] < 0 || faces[1] < 0) return false;
  return sc.surface_triangles.normal[static_cast<std::size_t>(faces[0])].dot(
             sc.surface_triangles.normal[static_cast<std::size_t>(faces[1])]) > kFlatCosine;
}

// Side `side` as the point (1 − s) x_0 + s x_1 of element e: a face point on an edge's owner
// triangle, a segment point on a segment's distance constraint.
void set_edge_side(const Model& model, const ParticleSurfaces& surfaces, int e, Real s, ContactSide& side) {
  if (is_segment(model, e)) {
    side.kind = ContactSide::ParticleSegment;
    side.index = segment_distance(model, surfaces, e);
    side.local_point = Vec3(1 - s, s, 0);
    return;
  }
  const int owner = model.particle_edge_owner[static_cast<std::size_t>(e)];
  const auto& tri = model.particle_triangles[static_cast<std::size_t>(owner)];
  const int p0 = edge_corner(model, surfaces, e, 0), p1 = edge_corner(model, surfaces, e, 1);
  side.kind = ContactSide::ParticleFace;
  side.index = owner;
  for (int k = 0; k < 3; ++k) side.local_point[k] = tri[k] == p0 ? 1 - s : tri[k] == p1 ? s : Real(0);
}

// The contact of edges a < b, if any (appended to `out`).
void edge_against_edge(const Model& model, const CollisionScratch& sc, Real dt, Real margin, int a, int b,
                       std::vector<Contact>& out) {
  const CollisionScratch::ProximityElements& edges = sc.surface_edges;
  if (edges.fixed[a] && edges.fixed[b]) return;
  if (flat_edge(model, sc, a) && flat_edge(model, sc, b)) return;  // planar on both sides: the corners' contacts hold it
  const int shapes = model.shape_count;
  const int a0 = edge_corner(model, sc.surfaces, a, 0), a1 = edge_corner(model, sc.surfaces, a, 1);
  const int b0 = edge_corner(model, sc.surfaces, b, 0), b1 = edge_corner(model, sc.surfaces, b, 1);
  const CollisionObject *oa0 = &sc.objects[shapes + a0], *oa1 = &sc.objects[shapes + a1];
  const CollisionObject *ob0 = &sc.objects[shapes + b0], *ob1 = &sc.objects[shapes + b1];
  const Vec3 da = oa1->pose.pos - oa0->pose.pos, db = ob1->pose.pos - ob0->pose.pos;
  const Vec3 cross = da.cross(db);
  const Real cross2 = cross.squaredNorm();
  if (!(cross2 > kParallelSine2 * da.squaredNorm() * db.squaredNorm())) return;  // parallel (or a zero-length edge)
  Real s = 0, t = 0;
  Vec3 ya, yb;
  closest_points_segments(oa0->pose.pos, oa1->pose.pos, ob0->pose.pos, ob1->pose.pos, s, t, ya, yb);
  if (!(t > kBarycentricEps && t < 1 - kBarycentricEps)) return;  // at b's corner: a point–triangle contact
  if (!(s > kBarycentricEps && s < 1 - kBarycentricEps)) {
    // At a's corner: a point–triangle contact already, unless b is a segment (a rope's link over a
    // soft body's corner), which no triangle of b's holds: kept by one edge of the corner's.
    if (!is_segment(model, b) || corner_edge(model, sc.surfaces, s < Real(0.5) ? a0 : a1) != a) return;
  }
  const Real thickness = (1 - s) * oa0->thickness + s * oa1->thickness + (1 - t) * ob0->thickness + t * ob1->thickness;
  const Real reach = margin + dt * (edges.speed[a] + edges.speed[b]);
  const Vec3 delta = ya - yb;
  const Real dist = delta.norm();
  if (!(dist < thickness + reach)) return;  // too far on either reading below
  // One-sided closed surfaces: has edge a crossed into b's body (or b into a's)? Within one
  // surface (self collision) a pair near a convex rim reads as crossed from both sides although it
  // is not (the faces' planes know nothing of the rim), so there only facing pairs are kept.
  const bool closed_a = surface_closed(sc.surfaces, a0), closed_b = surface_closed(sc.surfaces, b0);
  const int inside_b = closed_b ? (behind_edge(model, sc, b, delta) ? 1 : 0) : -1;  // -1: no reading (cloth)
  const int inside_a = closed_a ? (behind_edge(model, sc, a, -delta) ? 1 : 0) : -1;
  if (inside_a >= 0 && inside_b >= 0 && inside_a != inside_b) return;  // the two sides disagree
  const bool crossed = inside_a == 1 || inside_b == 1;
  if (crossed && sc.surfaces.particle_surface[static_cast<std::size_t>(a0)] == sc.surfaces.particle_surface[static_cast<std::size_t>(b0)])
    return;
  const Vec3 &na = edges.normal[a], &nb = edges.normal[b];
  const Real tiny = Real(1e-12) * std::max(Real(1), edges.boxes[a].hi.cwiseAbs().maxCoeff());
  Vec3 n;
  if (dist > tiny) {
    n = crossed ? Vec3(-delta / dist) : Vec3(delta / dist);
  } else {  // touching: the edges' common normal, pointing out of the closed side
    if (!closed_a && !closed_b) return;
    n = cross / std::sqrt(cross2);
    if ((closed_b && n.dot(nb) < 0) || (!closed_b && n.dot(na) > 0)) n = -n;
  }
  const Real gap = crossed ? -dist - thickness : dist - thickness;
  Contact& c = out.emplace_back();
  set_edge_side(model, sc.surfaces, a, s, c.a);
  set_edge_side(model, sc.surfaces, b, t, c.b);
  c.normal = n;
  set_contact_friction(model, s < Real(0.5) ? *oa0 : *oa1, ya, t < Real(0.5) ? *ob0 : *ob1, yb, c);
  c.thickness = thickness;
  c.initial_gap = gap;
  const std::uint64_t ka = element_key(model, sc.surfaces, a), kb = element_key(model, sc.surfaces, b);
  c.key = hash_combine(hash_combine(ka, kb), feature_id(kTagEdgeEdge, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)));
  c.shape_a = c.shape_b = -1;
}

// The contacts of the edges of chunk `chunk` against the edges of higher index near them.
void run_chunk(const Model& model, const CollisionScratch& sc, Real dt, Real margin, int count, int chunk,
               CollisionScratch::ProximityChunk& ch) {
  run_proximity_queries(
      sc.surface_edges.hash, static_cast<std::size_t>(count), chunk, kEdgeChunk, count,
      ch, [&](int a) { return sc.surface_edges.boxes[static_cast<std::size_t>(a)]; },
      [&](int a, int b, std::vector<Contact>& out) {
        if (b > a && edge_pair_allowed(model, sc.surfaces, a, b)) edge_against_edge(model, sc, dt, margin, a, b, out);
      });
}

}  // namespace

bool edge_pair_allowed(const Model& model, const ParticleSurfaces& surfaces, int a, int b) {
  // A segment meets every surface edge, never another segment (particles never meet particles).
  if (is_segment(model, a) || is_segment(model, b)) return is_segment(model, a) != is_segment(model, b);
  const int ea[2] = {edge_corner(model, surfaces, a, 0), edge_corner(model, surfaces, a, 1)};
  const int eb[2] = {edge_corner(model, surfaces, b, 0), edge_corner(model, surfaces, b, 1)};
  const int own = surfaces.particle_surface[static_cast<std::size_t>(ea[0])];
  const int other = surfaces.particle_surface[static_cast<std::size_t>(eb[0])];
  if (own < 0 || other < 0) return false;
  if (own != other) return true;
  if (!surfaces.self_collision[static_cast<std::size_t>(own)]) return false;
  for (int i : ea)
    for (int j : eb)
      if (i == j || in_particle_ring(surfaces, i, j)) return false;
  return true;
}

void append_edge_edge_contacts(const Model& model, Real dt, Real margin, CollisionScratch& sc, ContactBuffer& out) {
  const int edges = edge_count(model);
  if (edges == 0 || !sc.edge_edge || sc.surfaces.triangle_edges.size() != model.particle_triangles.size()) return;
  const int segments = sc.segments ? static_cast<int>(sc.surfaces.segments.size()) : 0;
  const int count = edges + segments;
  // One surface without self collision (a lone soft body, a cloth) and no segment: no pair can be kept.
  bool pairs_possible = sc.surfaces.surface_count() > 1 || segments > 0;
  for (std::uint8_t self : sc.surfaces.self_collision) pairs_possible = pairs_possible || self != 0;
  if (!pairs_possible) return;
  place_edges(model, dt, margin, count, sc);
  build_box_hash(sc.surface_edges.boxes.data(), count, sc.surface_edges.hash);
  run_proximity_chunks(
      sc.surface_edges.chunks, (count + kEdgeChunk - 1) / kEdgeChunk, count >= 3 * sc.proximity_parallel,
      [&](int c, CollisionScratch::ProximityChunk& ch) { run_chunk(model, sc, dt, margin, count, c, ch); }, out);
}

}  // namespace sim::detail
