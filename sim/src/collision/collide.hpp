// Collision detection, once per step from the state at the step's start (paper §10): broadphase
// over AABBs grown by each shape's motion bound over the step, narrowphase per pair, and the
// Contacts (eq. 9: C_n = n·(p_a - p_b) - d) the solver freezes for the step.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "collision/box_hash.hpp"
#include "collision/broadphase.hpp"
#include "collision/geometry.hpp"
#include "collision/narrowphase.hpp"
#include "collision/narrowphase_sdf.hpp"
#include "collision/particle_surfaces.hpp"
#include "collision/polyhedron.hpp"
#include "sim/contact.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

namespace sim {
namespace detail {

// A shape (object index = shape index) or a particle (object index = shape_count + particle).
struct CollisionObject {
  int shape = -1;         // -1 for particles
  int particle = -1;      // -1 for shapes
  int body = -1;          // owning body, -1 for world shapes and particles
  bool is_static = true;  // cannot move: world shape, fixed body, fixed particle
  bool is_plane = false;
  bool valid = false;     // false: left out (bad model data)
  Real thickness = 0;     // shape thickness, or the particle radius [m]
  Real speed = 0;         // bound on the speed of any of its points [m/s]
  Real friction = 0;      // μ of its material
  Real friction_major = 0, friction_minor = 0;  // its material's anisotropic axes (= μ if isotropic)
  int structure_field = -1;  // index into Model::structure_fields: the body's, else the material's
  Pose field_frame;       // the field's frame in the world: the authored body frame, or the world
  const MeshSurface* surface = nullptr;  // texture grain: the mesh's UVs (looked up in the shape frame, `pose`)
  Real size = 0;          // bounding radius, for tolerances [m]
  std::uint32_t contype = 1, conaffinity = 1;  // collision filter bits (ShapeSpec)
  Pose pose;              // shape frame in the world (particles: position only)
};

// Scratch kept in the Workspace: every buffer is reused, so a step allocates nothing once the
// scene's pair and contact counts stop growing.
struct CollisionScratch {
  std::vector<HullTopology> hull_topology;   // per model hull
  std::vector<Pose> body_pose;               // com frames at the step's start (body_count)
  std::vector<Mat3> body_rotation_t;         // their inverse rotations, for local points
  std::vector<CollisionObject> objects;      // shapes, then particles
  std::vector<Aabb> boxes;                   // expanded world boxes (object count)
  std::vector<std::uint8_t> groups;          // broadphase group bits (object count)
  std::vector<std::uint64_t> joint_pairs;    // sorted (lower body, higher body) of joints and no_collision_pairs
  SweepAndPrune sap;
  std::vector<std::uint64_t> pairs;          // candidate object pairs (i < j), sorted
  std::vector<char> used;                    // object appears in a pair (object count)
  std::vector<Collider> colliders;           // per object, for the used ones
  std::vector<PolyView> polys;               // per object (boxes and convex meshes)
  std::vector<Vec3> poly_vertices, poly_normals, poly_arcs;
  std::vector<Real> poly_offsets;
  struct Chunk {
    NarrowScratch narrow;
    std::vector<Contact> contacts;
  };
  std::vector<Chunk> chunks;                 // narrowphase work units of consecutive pairs
  // From this many pairs on, the narrowphase runs in parallel chunks (tests lower it to compare
  // with the serial path; the output is identical either way).
  std::size_t parallel_pairs = 4096;
  SdfCollisionScratch sdf;                   // pairs with a triangle-mesh shape (narrowphase_sdf.hpp)
  std::vector<int> pair_bucket;              // counting sort of pairs by first object
  std::vector<std::uint64_t> pair_sorted;
  // The proximity contacts' queries and elements: particle against triangle
  // (particle_triangle_contacts.cpp) and edge against edge (particle_edge_contacts.cpp). Per
  // element at the step's start its box grown by its largest corner radius, its fastest corner's
  // motion over dt and half the margin; that speed; its unit normal (an edge: outward, the sum of
  // its faces'); whether all its corners are fixed; the hash over the boxes; per chunk of queries
  // (surface particles, edges) the candidates the hash returned for the one in hand and the contacts.
  struct ProximityChunk {
    std::vector<int> candidates;
    std::vector<Contact> contacts;
  };
  struct ProximityElements {
    std::vector<Aabb> boxes;
    std::vector<Real> speed;
    std::vector<Vec3> normal;
    std::vector<char> fixed;
    BoxHash hash;
    std::vector<ProximityChunk> chunks;
  };
  ProximityElements surface_triangles, surface_edges;
  std::vector<int> surface_particles;
  int proximity_parallel = 2048;             // surface particles from which the chunks run in parallel
                                             //   (edges: from 3× as many)
  bool edge_edge = true;                     // edge–edge contacts on (tests turn them off to compare)
  bool free_particle_points = true;          // free particles (ropes) against triangles on (tests compare)
  bool segments = true;                      // free particles' segments (ropes' links) against edges, shapes
                                             //   and each other, and loose particles against segments and
                                             //   each other, on (tests compare)
  ParticleSurfaces surfaces;                 // the model's surfaces (particle_surfaces.hpp), rebuilt when they change
  // Particle ranges {first, count} whose surfaces collide with themselves (off by default). Set by
  // the caller (tests, benchmarks) until the scene format carries the switch.
  std::vector<std::array<int, 2>> self_collision;
};

// The first stages of generate_contacts: objects placed at `state` with their boxes grown by
// the motion over `dt` and half the margin, candidate pairs (sweep and prune, planes, the skip
// rules below) sorted in scratch.pairs, and the colliders and SDF views of the objects in them.
void prepare_pairs(const Model& model, const State& state, Real dt, Real margin, CollisionScratch& scratch);

// The narrowphase of one candidate pair of scratch.pairs: its raw points in ns.contacts (each
// RawContact::separation() below margin + dt (s_a + s_b) + thickness), sides as in the Contacts.
struct PairSides {
  int a = -1, b = -1;  // object indices: a is the particle, else the side that can move, else the lower
  Real thickness = 0;  // the sum of both sides' thicknesses [m]; the gap is separation - thickness
};
PairSides narrow_pair(const CollisionScratch& scratch, std::uint64_t pair, Real dt, Real margin, NarrowScratch& ns);

}  // namespace detail

// Clears `out` and fills it with the contacts of this step: for every pair of shapes (and of a
// particle and a shape) whose gap n·(p_a - p_b) - d is below margin + dt (s_a + s_b), with
// s = |v| + |ω| r the speed bound of each side. Skipped: shapes of the same body, pairs where
// neither side can move, bodies joined directly by a joint or listed in
// Model::no_collision_pairs, particle-particle pairs (surface particles meet other surfaces' and,
// with self collision, their own triangles instead: particle_triangle_contacts.hpp, after the
// cloth-face contacts of particle_faces_sdf.hpp). The order is deterministic (sorted pairs),
// whatever the thread count.
void generate_contacts(const Model& model, const State& state, Real dt, Real margin,
                       detail::CollisionScratch& scratch, ContactBuffer& out);

}  // namespace sim
