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
constexpr std::uint32_t kTagEdgeEdge = 61;      // contact-key feature tags (after particle_triangle_contacts'):
constexpr std::uint32_t kTagSegmentCross = 62;  //   two segments crossing inside both,
constexpr std::uint32_t kTagSegmentEnd = 63;    //   + 2 k + j: end j of segment k (0: a, 1: b) against the other,
constexpr std::uint32_t kTagParticlePair = 67;  //   + 2 i + j: end i of a against end j of b,
constexpr std::uint32_t kTagLoose = 71;         //   + j: a loose particle against a point or end j of a segment
constexpr Real kParallelSine2 = Real(1e-8);     // sin² of the angle below which two edges count as parallel
constexpr Real kFlatCosine = Real(0.985);       // cos 10°: an edge whose two faces are closer than this is flat

// The stage's elements: the model's surface edges [0, edges), then the free particles' segments
// (ParticleSurfaces::segments, distance constraints) [edges, edges + segments), then the loose
// particles (ParticleSurfaces::loose_particles) as points.
int edge_count(const Model& m) { return static_cast<int>(m.particle_edge_key.size()); }
int segment_count(const ParticleSurfaces& surfaces) { return static_cast<int>(surfaces.segments.size()); }
bool is_point(const Model& m, const ParticleSurfaces& surfaces, int e) { return e >= edge_count(m) + segment_count(surfaces); }
bool is_segment(const Model& m, const ParticleSurfaces& surfaces, int e) {
  return e >= edge_count(m) && !is_point(m, surfaces, e);
}
int segment_distance(const Model& m, const ParticleSurfaces& surfaces, int e) {
  return surfaces.segments[static_cast<std::size_t>(e - edge_count(m))];
}
int loose_particle(const Model& m, const ParticleSurfaces& surfaces, int e) {
  return surfaces.loose_particles[static_cast<std::size_t>(e - edge_count(m) - segment_count(surfaces))];
}

// Corner k of element e: an edge's lower (0) or higher (1) particle, a segment's particle a or b,
// a point's particle (both).
int edge_corner(const Model& m, const ParticleSurfaces& surfaces, int e, int k) {
  if (is_point(m, surfaces, e)) return loose_particle(m, surfaces, e);
  if (is_segment(m, surfaces, e)) {
    const int d = segment_distance(m, surfaces, e);
    return k == 0 ? m.distance_particle_a[static_cast<std::size_t>(d)] : m.distance_particle_b[static_cast<std::size_t>(d)];
  }
  const std::uint64_t key = m.particle_edge_key[static_cast<std::size_t>(e)];
  return static_cast<int>(k == 0 ? key >> 32 : key & 0xffffffffu);
}

std::uint64_t element_key(const Model& m, const ParticleSurfaces& surfaces, int e) {
  return e >= edge_count(m) ? cloth_edge_key(edge_corner(m, surfaces, e, 0), edge_corner(m, surfaces, e, 1))
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
  if (e >= edge_count(model)) return false;
  const auto& faces = sc.surfaces.edge_faces[static_cast<std::size_t>(e)];
  if (faces[0] < 0 || faces[1] < 0) return false;
  return sc.surface_triangles.normal[static_cast<std::size_t>(faces[0])].dot(
             sc.surface_triangles.normal[static_cast<std::size_t>(faces[1])]) > kFlatCosine;
}

// Side `side` as the point (1 − s) x_0 + s x_1 of element e: a face point on an edge's owner
// triangle, a segment point on a segment's distance constraint, a loose particle itself.
void set_edge_side(const Model& model, const ParticleSurfaces& surfaces, int e, Real s, ContactSide& side) {
  if (is_point(model, surfaces, e)) {
    side.kind = ContactSide::Particle;
    side.index = loose_particle(model, surfaces, e);
    return;
  }
  if (is_segment(model, surfaces, e)) {
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

// A point (1 − s) x_0 + s x_1 = y of element e.
struct ElementPoint {
  int element;
  Real s;
  Vec3 y;
};

// Appends the contact of point pa of element a against point pb of element b (a < b), frozen with
// normal n (from b to a), thickness d and gap C_n, keyed by the two elements and `tag`.
void append_contact(const Model& model, const CollisionScratch& sc, const ElementPoint& pa, const ElementPoint& pb,
                    const Vec3& n, Real thickness, Real gap, std::uint32_t tag, std::vector<Contact>& out) {
  const int shapes = model.shape_count;
  const CollisionObject& oa = sc.objects[shapes + edge_corner(model, sc.surfaces, pa.element, pa.s < Real(0.5) ? 0 : 1)];
  const CollisionObject& ob = sc.objects[shapes + edge_corner(model, sc.surfaces, pb.element, pb.s < Real(0.5) ? 0 : 1)];
  Contact& c = out.emplace_back();
  set_edge_side(model, sc.surfaces, pa.element, pa.s, c.a);
  set_edge_side(model, sc.surfaces, pb.element, pb.s, c.b);
  c.normal = n;
  set_contact_friction(model, oa, pa.y, ob, pb.y, c);  // the nearer corners' materials
  c.thickness = thickness;
  c.initial_gap = gap;
  const std::uint64_t ka = element_key(model, sc.surfaces, pa.element), kb = element_key(model, sc.surfaces, pb.element);
  c.key = hash_combine(hash_combine(ka, kb),
                       feature_id(tag, static_cast<std::uint32_t>(pa.element), static_cast<std::uint32_t>(pb.element)));
  c.shape_a = c.shape_b = -1;
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
    if (!is_segment(model, sc.surfaces, b) || corner_edge(model, sc.surfaces, s < Real(0.5) ? a0 : a1) != a) return;
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
  append_contact(model, sc, {a, s, ya}, {b, t, yb}, n, thickness, gap, kTagEdgeEdge, out);
}

// The contact of point s of segment or point a against point t of segment or point b (a < b), if
// within reach: its thickness the radii there, n = δ/|δ| from b to a; where the centre lines
// meet, their common normal, else a normal to the longer one, else up (two coincident points),
// turned from b's middle towards a's.
void touch_elements(const Model& model, const CollisionScratch& sc, Real reach, int a, Real s, int b, Real t,
                    std::uint32_t tag, std::vector<Contact>& out) {
  const int shapes = model.shape_count;
  const CollisionObject* o[2][2];
  for (int k = 0; k < 2; ++k)
    o[0][k] = &sc.objects[shapes + edge_corner(model, sc.surfaces, a, k)], o[1][k] = &sc.objects[shapes + edge_corner(model, sc.surfaces, b, k)];
  auto point = [&](int i, Real w) { return Vec3((1 - w) * o[i][0]->pose.pos + w * o[i][1]->pose.pos); };
  auto radius = [&](int i, Real w) { return (1 - w) * o[i][0]->thickness + w * o[i][1]->thickness; };
  const Vec3 ya = point(0, s), yb = point(1, t);
  const Real thickness = radius(0, s) + radius(1, t);
  const Vec3 delta = ya - yb;
  const Real dist = delta.norm();
  if (!(dist < thickness + reach)) return;
  const Real tiny = Real(1e-12) * std::max(Real(1), sc.surface_edges.boxes[static_cast<std::size_t>(a)].hi.cwiseAbs().maxCoeff());
  Vec3 n;
  if (dist > tiny) {
    n = delta / dist;
  } else {
    const Vec3 da = o[0][1]->pose.pos - o[0][0]->pose.pos, db = o[1][1]->pose.pos - o[1][0]->pose.pos;
    const Vec3 cross = da.cross(db);
    const Vec3& along = da.squaredNorm() >= db.squaredNorm() ? da : db;
    n = cross.squaredNorm() > kParallelSine2 * da.squaredNorm() * db.squaredNorm() && cross.squaredNorm() > 0
            ? Vec3(cross.normalized())
            : along.squaredNorm() > 0 ? any_perpendicular(along.normalized()) : Vec3(Vec3::UnitZ());
    if (n.dot(point(0, Real(0.5)) - point(1, Real(0.5))) < 0) n = -n;
  }
  append_contact(model, sc, {a, s, ya}, {b, t, yb}, n, thickness, dist - thickness, tag, out);
}

// The contacts of segments a < b (two ropes' links, or one self-colliding rope's): where they cross
// inside both (not nearly parallel), and each end against the other segment, kept only through the
// lowest-index segment at that particle that may meet the other segment, so that a rope's particle
// lying on another rope counts once, not once per link at it; an end nearest another end is one
// particle–particle contact, kept through the first pair of their segments that may meet. Parallel
// links (two ropes side by side) touch through their ends. The normal: touch_elements.
void segment_against_segment(const Model& model, const CollisionScratch& sc, Real dt, Real margin, int a, int b,
                             std::vector<Contact>& out) {
  const CollisionScratch::ProximityElements& elements = sc.surface_edges;
  if (elements.fixed[a] && elements.fixed[b]) return;
  const int shapes = model.shape_count;
  const int corner[2][2] = {{edge_corner(model, sc.surfaces, a, 0), edge_corner(model, sc.surfaces, a, 1)},
                            {edge_corner(model, sc.surfaces, b, 0), edge_corner(model, sc.surfaces, b, 1)}};
  const CollisionObject* o[2][2];
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k) o[i][k] = &sc.objects[shapes + corner[i][k]];
  const Vec3 da = o[0][1]->pose.pos - o[0][0]->pose.pos, db = o[1][1]->pose.pos - o[1][0]->pose.pos;
  const Real reach = margin + dt * (elements.speed[a] + elements.speed[b]);
  auto touch = [&](Real s, Real t, std::uint32_t tag) { touch_elements(model, sc, reach, a, s, b, t, tag, out); };
  auto inside = [](Real s) { return s > kBarycentricEps && s < 1 - kBarycentricEps; };
  const ParticleSurfaces& surfaces = sc.surfaces;
  const int edges = edge_count(model);
  auto allowed = [&](int c, int e) { return edge_pair_allowed(model, surfaces, edges + c, edges + e); };
  const int own[2] = {a - edges, b - edges};  // indices in ParticleSurfaces::segments
  // Whether end k of segment i is kept against the other segment here: this is the lowest-index
  // segment at that particle that may meet the other one.
  auto keeps_end = [&](int i, int k) {
    const int p = corner[i][k];
    for (const int* c = surfaces.segments_begin(p); c != surfaces.segments_end(p); ++c) {
      if (*c == own[i]) return true;
      if (allowed(*c, own[1 - i])) return false;
    }
    return false;
  };
  // Whether the particle pair of a's end k and b's end j is kept here: (a, b) is the first pair
  // that may meet, in the order (segments at the lower-index particle, segments at the other).
  auto keeps_pair = [&](int k, int j) {
    const bool a_lower = corner[0][k] < corner[1][j];
    const int lower = a_lower ? corner[0][k] : corner[1][j], higher = a_lower ? corner[1][j] : corner[0][k];
    for (const int* c = surfaces.segments_begin(lower); c != surfaces.segments_end(lower); ++c)
      for (const int* e = surfaces.segments_begin(higher); e != surfaces.segments_end(higher); ++e)
        if (allowed(*c, *e)) return a_lower ? *c == own[0] && *e == own[1] : *c == own[1] && *e == own[0];
    return false;
  };
  const Vec3 cross = da.cross(db);
  if (cross.squaredNorm() > kParallelSine2 * da.squaredNorm() * db.squaredNorm()) {
    Real s = 0, t = 0;
    Vec3 ya, yb;
    closest_points_segments(o[0][0]->pose.pos, o[0][1]->pose.pos, o[1][0]->pose.pos, o[1][1]->pose.pos, s, t, ya, yb);
    if (inside(s) && inside(t)) touch(s, t, kTagSegmentCross);
  }
  for (int i = 0; i < 2; ++i)      // segment i's ends ...
    for (int k = 0; k < 2; ++k) {  // ... end k against the other segment
      if (!keeps_end(i, k)) continue;
      Real u = 0;
      closest_point_on_segment(o[i][k]->pose.pos, o[1 - i][0]->pose.pos, o[1 - i][1]->pose.pos, u);
      const std::uint32_t tag = kTagSegmentEnd + static_cast<std::uint32_t>(2 * i + k);
      if (inside(u)) {
        if (i == 0) touch(Real(k), u, tag);
        else touch(u, Real(k), tag);
      } else if (i == 0) {  // nearest an end of b: one particle–particle contact
        const int j = u < Real(0.5) ? 0 : 1;
        if (keeps_pair(k, j)) touch(Real(k), Real(j), kTagParticlePair + static_cast<std::uint32_t>(2 * k + j));
      }
    }
}

// The contacts of a loose particle b against segment or loose particle a < b (a grain on a rope,
// two grains): the closest point of a; at an end of segment a, one particle pair, kept through the
// lowest-index segment at that end (a loose particle may meet every segment).
void point_against_element(const Model& model, const CollisionScratch& sc, Real dt, Real margin, int a, int b,
                           std::vector<Contact>& out) {
  const CollisionScratch::ProximityElements& elements = sc.surface_edges;
  if (elements.fixed[a] && elements.fixed[b]) return;
  const Real reach = margin + dt * (elements.speed[a] + elements.speed[b]);
  if (is_point(model, sc.surfaces, a)) return touch_elements(model, sc, reach, a, 0, b, 0, kTagLoose, out);
  const int shapes = model.shape_count;
  const int a0 = edge_corner(model, sc.surfaces, a, 0), a1 = edge_corner(model, sc.surfaces, a, 1);
  Real u = 0;
  closest_point_on_segment(sc.objects[shapes + edge_corner(model, sc.surfaces, b, 0)].pose.pos,
                           sc.objects[shapes + a0].pose.pos, sc.objects[shapes + a1].pose.pos, u);
  if (u > kBarycentricEps && u < 1 - kBarycentricEps) return touch_elements(model, sc, reach, a, u, b, 0, kTagLoose, out);
  const int j = u < Real(0.5) ? 0 : 1, end = j == 0 ? a0 : a1;
  if (*sc.surfaces.segments_begin(end) == a - edge_count(model))
    touch_elements(model, sc, reach, a, Real(j), b, 0, kTagLoose + 1 + static_cast<std::uint32_t>(j), out);
}

// The contacts of the edges of chunk `chunk` against the edges of higher index near them.
void run_chunk(const Model& model, const CollisionScratch& sc, Real dt, Real margin, int count, int chunk,
               CollisionScratch::ProximityChunk& ch) {
  run_proximity_queries(
      sc.surface_edges.hash, static_cast<std::size_t>(count), chunk, kEdgeChunk, count,
      ch, [&](int a) { return sc.surface_edges.boxes[static_cast<std::size_t>(a)]; },
      [&](int a, int b, std::vector<Contact>& out) {
        if (!(b > a && edge_pair_allowed(model, sc.surfaces, a, b))) return;
        if (is_point(model, sc.surfaces, b)) point_against_element(model, sc, dt, margin, a, b, out);
        else if (a >= edge_count(model)) segment_against_segment(model, sc, dt, margin, a, b, out);
        else edge_against_edge(model, sc, dt, margin, a, b, out);
      });
}

}  // namespace

bool edge_pair_allowed(const Model& model, const ParticleSurfaces& surfaces, int a, int b) {
  // A loose particle meets every segment and every other loose particle (a surface's triangles
  // hold it against edges: particle_triangle_contacts.hpp).
  if (is_point(model, surfaces, a) || is_point(model, surfaces, b)) return a != b && a >= edge_count(model) && b >= edge_count(model);
  const bool segment_a = is_segment(model, surfaces, a), segment_b = is_segment(model, surfaces, b);
  if (segment_a != segment_b) return true;  // a segment meets every surface edge
  // Two segments: of different ropes, or of one rope with self collision; two edges: of different
  // surfaces, or of one surface with self collision.
  const int own = segment_a ? surfaces.segment_rope[static_cast<std::size_t>(a - edge_count(model))]
                            : surfaces.particle_surface[static_cast<std::size_t>(edge_corner(model, surfaces, a, 0))];
  const int other = segment_b ? surfaces.segment_rope[static_cast<std::size_t>(b - edge_count(model))]
                              : surfaces.particle_surface[static_cast<std::size_t>(edge_corner(model, surfaces, b, 0))];
  if (own < 0 || other < 0) return false;
  if (own != other) return true;
  if (!(segment_a ? surfaces.rope_self_collision : surfaces.self_collision)[static_cast<std::size_t>(own)]) return false;
  // ... and then no corner in the other's one-ring (a shared particle, tet, triangle or link).
  for (int i : {edge_corner(model, surfaces, a, 0), edge_corner(model, surfaces, a, 1)})
    for (int j : {edge_corner(model, surfaces, b, 0), edge_corner(model, surfaces, b, 1)})
      if (i == j || in_particle_ring(surfaces, i, j)) return false;
  return true;
}

void append_edge_edge_contacts(const Model& model, Real dt, Real margin, CollisionScratch& sc, ContactBuffer& out) {
  const int edges = edge_count(model);
  const int segments = sc.segments ? segment_count(sc.surfaces) : 0;
  const int points = sc.segments ? static_cast<int>(sc.surfaces.loose_particles.size()) : 0;
  const int count = edges + segments + points;
  if (count == 0 || !sc.edge_edge || sc.surfaces.triangle_edges.size() != model.particle_triangles.size()) return;
  // A lone surface without self collision (a soft body, a cloth), no segment, or a lone rope
  // without self collision: no pair can be kept.
  auto any_self = [](const std::vector<std::uint8_t>& flags) {
    return std::any_of(flags.begin(), flags.end(), [](std::uint8_t f) { return f != 0; });
  };
  const bool surface_pairs = edges > 0 && (sc.surfaces.surface_count() > 1 || any_self(sc.surfaces.self_collision));
  const bool segment_pairs = segments > 0 && (sc.surfaces.rope_count() > 1 || any_self(sc.surfaces.rope_self_collision));
  const bool point_pairs = points > 1 || (points > 0 && segments > 0);
  if (!surface_pairs && !segment_pairs && !point_pairs && !(edges > 0 && segments > 0)) return;
  place_edges(model, dt, margin, count, sc);
  build_box_hash(sc.surface_edges.boxes.data(), count, sc.surface_edges.hash);
  run_proximity_chunks(
      sc.surface_edges.chunks, (count + kEdgeChunk - 1) / kEdgeChunk, count >= 3 * sc.proximity_parallel,
      [&](int c, CollisionScratch::ProximityChunk& ch) { run_chunk(model, sc, dt, margin, count, c, ch); }, out);
}

}  // namespace sim::detail
