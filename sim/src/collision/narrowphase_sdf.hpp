// SDF narrowphase (thesis ch. 6): contacts for pairs where at least one shape is a triangle mesh
// with a baked distance field. Each shape's features are run against the other shape's field, both
// ways (§6.4.2, digest §5.6):
//   - vertices: one sample each (Guendelman et al.);
//   - edges: golden-section search along every feature edge (§6.3.1);
//   - faces: projected gradient descent or Frank-Wolfe per triangle (§6.2), switchable;
//   - spheres, capsules and particles: their core point or segment (GSS) against the field.
// Fields: the mesh's NanoVDB grid, or the closed forms of spheres, capsules, boxes, planes and
// convex hulls (sdf/analytic_sdf.hpp), so primitive-vs-mesh takes the same path.
// A feature is culled by its bounding sphere with a margin (φ(centre) >= r + max_sep + slack);
// a minimiser on a lower-dimensional feature that has its own test (a face's edge or vertex, an
// edge's end point) is left to that test, otherwise to the feature's representative triangle.
// Contacts within a voxel of a deeper one with a similar normal are merged, and rigid pairs keep
// at most SdfContactOptions::max_pair_contacts (deepest point and extent, reduce_manifold).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "collision/narrowphase.hpp"
#include "sim/contact.hpp"
#include "sim/model.hpp"
#include "sim/sdf.hpp"

namespace sim::detail {

enum class SdfKind : std::uint8_t { None, Mesh, Sphere, Capsule, Box, Plane, Hull, Point };

// One object of a pair as the SDF narrowphase sees it.
struct SdfObject {
  SdfKind kind = SdfKind::None;
  Pose pose;                          // shape frame in the world (particles: position)
  const SdfMesh* mesh = nullptr;      // Mesh
  const Model::Hull* hull = nullptr;  // Hull (a convex mesh without triangles), Box (unit box)
  Vec3 half = Vec3::Zero();           // Box half extents [m]
  Real radius = 0;                    // Sphere, Capsule [m]
  Real half_length = 0;               // Capsule [m]
  Real size = 1;                      // bounding radius [m]
};

// Feature tags of SDF contact keys (after narrowphase.hpp's FeatureTag values).
enum SdfFeatureTag : std::uint32_t {
  kTagSdfVertex = 40,
  kTagSdfEdge,
  kTagSdfFace,
  kTagSdfCore,
  kTagSdfClothFace,
  kTagSdfSegment,
};

// Counters of the last generate_contacts() call (for tests, benchmarks and the stats panel).
// Added to from the narrowphase's parallel chunks (relaxed atomics: counts, not order).
struct SdfStats {
  std::atomic<std::uint64_t> features_tested{0};  // vertices, edges, faces, cores that reached a field
  std::atomic<std::uint64_t> features_culled{0};  // rejected by the bounding-sphere test
  std::atomic<std::uint64_t> evaluations{0};      // field evaluations (samples) spent
  std::atomic<std::uint64_t> contacts{0};         // raw contacts before merging and reduction
  void reset() { features_tested = 0, features_culled = 0, evaluations = 0, contacts = 0; }
};

// A free triangle (cloth face) optimised against a shape's field: the minimiser in the world.
struct FaceHit {
  int face = -1;                 // caller's face id
  Real phi = 0;                  // field value at the minimiser [m]
  Vec3 point = Vec3::Zero();     // minimiser x* (world) [m]
  Vec3 normal = Vec3::UnitZ();   // unit field gradient there (world)
  Real bary[3] = {1, 0, 0};      // x* = Σ bary_k corner_k
  int evaluations = 0;           // field evaluations the face optimisation spent
};

// The SdfObject of every collision object (shapes, then particles), rebuilt each step.
struct SdfCollisionScratch {
  std::vector<SdfObject> objects;
  bool any_mesh = false;              // the model has triangle-mesh shapes
  SdfContactOptions options;
  mutable SdfStats stats;             // counted from const narrowphase calls (atomics)
  // Cloth faces: candidates of the shape in hand and per-chunk output.
  std::vector<Vec3> cloth_corners;              // candidate faces (segments) of one shape: 3 (2) world corners each
  std::vector<Real> cloth_max_sep;              // their contact reach (margin + motion + thickness)
  std::vector<int> cloth_faces;                 // their triangle (segment) indices
  std::vector<std::vector<FaceHit>> cloth_hits; // per chunk of candidates
};

// The SdfObject of shape s placed at `pose`, or of a particle at `position`.
SdfObject make_sdf_shape_object(const Model& model, int s, const Pose& pose, Real size);
SdfObject make_sdf_point_object(const Vec3& position);

// Optimises elements [begin, end) of `corners` (corner_count world points per element: 3, a face;
// 2, a segment) against the field of `shape` (a face by PGD or Frank-Wolfe as options.faces, with
// the sphere cull; a segment by golden-section search, culled by its ends' φ and length, kept only
// where its minimum lies kSegmentDepth deeper than both ends'), appending to `hits` those whose
// minimum is below max_sep[f] and inside the field's trusted band.
inline constexpr Real kSegmentDepth = Real(1e-9);  // [m]
void faces_against_field(const SdfObject& shape, int corner_count, const Vec3* corners, const Real* max_sep,
                         const int* face_ids, int begin, int end, const SdfContactOptions& options,
                         std::vector<FaceHit>& hits, SdfStats* stats);

// Appends the contacts of the pair (first, second) to s.contacts, normal from second to first,
// separation below max_sep. `stats` may be null.
void collide_sdf(const SdfObject& first, const SdfObject& second, Real max_sep, const SdfContactOptions& options,
                 NarrowScratch& s, SdfStats* stats);

}  // namespace sim::detail
