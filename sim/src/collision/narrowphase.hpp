// Narrowphase: contact points between two shapes placed in the world. Shapes come in three
// kinds: planes (half-spaces), round shapes (a core point or segment swept by a radius: spheres,
// capsules, particles with radius 0) and convex polyhedra (boxes, convex meshes); cylinders and
// ellipsoids are polyhedra (their hulls, for the SDF narrowphase) marked native, and collide by
// their own closed-form geometry against everything else.
//
// Every collide_<first>_<second> function appends RawContacts with the normal pointing from the
// second shape towards the first and keeps only points whose separation
// n·(point_first - point_second) is below max_sep (the pair's margin plus its thickness), so
// separated shapes within the margin get contacts too, with their exact gap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "collision/manifold.hpp"
#include "collision/polyhedron.hpp"
#include "sim/math.hpp"

namespace sim::detail {

constexpr int kMaxClipManifold = 8;    // face-face manifolds keep at most this many points
constexpr int kMaxPlaneManifold = 32;  // vertices of one polyhedron against a plane
constexpr int kMaxNativeManifold = 4;  // a cylinder's or ellipsoid's manifold against a convex shape

// Round-off allowance for lengths computed from world coordinates of magnitude `magnitude` on
// shapes of length scale `size` (GJK distances and SAT separations agree to within this).
inline Real roundoff_tolerance(Real size, Real magnitude) {
  constexpr Real eps = std::numeric_limits<Real>::epsilon();
  return std::max(Real(1e-6) * size, Real(256) * eps * (size + magnitude));
}

enum class ColliderKind : std::uint8_t { Plane, Round, Poly };
// A Poly collider that stands for a cylinder or an ellipsoid (its hull serves only the SDF pairs).
enum class NativeShape : std::uint8_t { None, Cylinder, Ellipsoid };

// One shape of a pair, in the world.
struct Collider {
  ColliderKind kind = ColliderKind::Round;
  Vec3 normal = Vec3::UnitZ();  // plane: outward normal; the solid is n·x <= offset
  Real offset = 0;
  Vec3 p0 = Vec3::Zero();       // round: the core segment p0-p1 (p0 == p1 for a point core)
  Vec3 p1 = Vec3::Zero();
  Real radius = 0;              // round: radius about the core (0 for particles)
  const PolyView* poly = nullptr;  // poly: the placed polyhedron
  Real size = 1;                // a length scale of the shape (bounding radius) for tolerances [m]
  NativeShape native = NativeShape::None;
  Pose native_pose;             // native: the shape frame in the world
  Vec3 native_size = Vec3::Zero();  // cylinder (radius, half length, 0); ellipsoid semi-axes [m]
  bool segment() const { return kind == ColliderKind::Round && p0 != p1; }
};

// Scratch of one narrowphase worker (one per chunk of pairs), reused across steps.
struct NarrowScratch {
  std::vector<RawContact> contacts;
  std::vector<ClipVertex> clip_in, clip_out;
  std::vector<ClipVertex> incident;  // the incident face before clipping
  std::vector<Vec3> corners;         // the reference face's corners
  std::vector<ClipVertex> feature_first, feature_second;  // native pairs: the facing features
  std::vector<char> keep;
};

// Tags of feature ids (contact keys), one per kind of feature pair.
enum FeatureTag : std::uint32_t {
  kTagRoundPlane = 1,
  kTagPolyPlane,
  kTagRoundRound,
  kTagRoundPolyFace,
  kTagRoundPolyEdge,
  kTagRoundPolyPoint,
  kTagPolyFaceFirst,
  kTagPolyFaceSecond,
  kTagPolyEdge,
  kTagPolyPoint,
  kTagNativePlane,
  kTagNativePoint,
  kTagNativeFace,
};

// Sphere / capsule / particle against a plane: one contact per core end point.
void collide_round_plane(const Collider& round, const Collider& plane, Real max_sep, NarrowScratch& s);
// Polyhedron against a plane: every vertex within max_sep (reduced to kMaxPlaneManifold).
void collide_poly_plane(const Collider& poly, const Collider& plane, Real max_sep, NarrowScratch& s);
// Cylinder against a plane: per cap, the rim point deepest along -n and the three at quarter
// turns from it, those within max_sep (standing: four on the bottom rim; lying: one per cap).
// Ellipsoid against a plane: its support point along -n, x = c - R A² Rᵀn / |A Rᵀn|. Exact gaps.
void collide_native_plane(const Collider& native, const Collider& plane, Real max_sep, NarrowScratch& s);
// collide_native_plane for a native collider, collide_poly_plane otherwise.
inline void collide_poly_or_native_plane(const Collider& poly, const Collider& plane, Real max_sep, NarrowScratch& s) {
  if (poly.native != NativeShape::None) collide_native_plane(poly, plane, max_sep, s);
  else collide_poly_plane(poly, plane, max_sep, s);
}
// A cylinder or an ellipsoid against a round shape, a polyhedron or another native shape
// (narrowphase_native.cpp): GJK on the exact support mappings for separated cores, EPA for
// overlapping ones; where both shapes face each other with a flat feature (a cap, a cylinder's
// side line, a polyhedron face, a capsule's segment) the features are clipped into a manifold of
// at most kMaxNativeManifold points, else one contact at the closest (deepest) points.
void collide_native_convex(const Collider& first, const Collider& second, Real max_sep, NarrowScratch& s);
// Round against round: closest points of the cores; parallel capsules get two points.
void collide_round_round(const Collider& a, const Collider& b, Real max_sep, NarrowScratch& s);
// Round against polyhedron: GJK closest points of the core, a capsule lying on a face gets the
// clipped segment's two ends; a core inside the polyhedron falls back to SAT.
void collide_round_poly(const Collider& round, const Collider& poly, Real max_sep, NarrowScratch& s);
// Polyhedron against polyhedron: SAT over face normals and Gauss-map-pruned edge pairs, reference
// face clipping (Sutherland-Hodgman) or an edge-edge point; GJK closest points for separated
// shapes whose closest features are not a face or an edge pair.
void collide_poly_poly(const Collider& a, const Collider& b, Real max_sep, NarrowScratch& s);

}  // namespace sim::detail
