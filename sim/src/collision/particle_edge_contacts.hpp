// Edge–edge contacts between the surface triangles of soft bodies and cloth (issue 14 item 4):
// two coarse surfaces whose edges cross with no corner near the other surface (two soft cubes
// meeting edge on edge, a cloth fold across a tet edge) touch nowhere the point–triangle contacts
// (particle_triangle_contacts.hpp) look, and pass through each other until a corner reaches a face.
//
// Every edge of Model::particle_triangles (the model's edge table, collision/cloth_edges.hpp) is
// tested against the edges whose grown boxes meet its own (a spatial hash over the edges' boxes,
// collision/box_hash.hpp, in reused buffers). With the closest points y_a = (1 − s) a_0 + s a_1
// and y_b = (1 − t) b_0 + t b_1 of the two segments (Ericson 5.1.9) and δ = y_a − y_b, one
// contact with both sides a point of an edge, each a ContactSide::ParticleFace on the edge's owner
// triangle with weights (1 − s, s) on the edge's corners and 0 on the third (the row's block there
// is zero), frozen for the step with the normal (§10):
//     C_n = n·(y_a − y_b) − d,   ∇_{a_0} C_n = (1 − s) nᵀ, ∇_{a_1} C_n = s nᵀ,
//                                ∇_{b_0} C_n = −(1 − t) nᵀ, ∇_{b_1} C_n = −t nᵀ   (eq. 9)
// with d = (1 − s) r_a0 + s r_a1 + (1 − t) r_b0 + t r_b1 and n = δ/|δ|; the friction rows are
// eqs. 11–12 over the same four particles, with the nearer corners' materials (contact_friction).
// Only crossings interior to both edges (s, t in (ε, 1 − ε)) are kept: a closest point at a corner
// is a point–triangle contact already (the corner against the face that owns the other edge), and
// nearly parallel edges (sin of the angle below 1e-4) are left to their overlap's corners, and so
// are two flat edges (each one's two faces within 10° of each other: two faces lying on each other,
// where the surfaces are planar around the crossing and the corners' point–triangle contacts keep
// them apart as well; without this rule a face-on-face contact doubles its rows).
// Closed surfaces (that bound tets) are one-sided: edge a's point behind edge b's surface (behind
// both faces' planes at a convex edge, either at a concave one), and b's behind a's where a is
// closed too, has crossed into b's body: n = −δ/|δ|, C_n = −|δ| − d, within reach; when the two
// readings disagree the pair is skipped, and within one surface a crossed reading is too (near a
// convex rim two edges of one body read as crossed although they are not). A cloth is two-sided
// (n from the side it is on). When |δ| vanishes, n is ±(e_a × e_b)/|e_a × e_b| oriented by a
// closed side's outward normal (the sum of its faces'; skipped between cloths).
// Pairs kept: edges of different surfaces; of the same surface only with self collision, and then
// never two edges with a corner in each other's one-ring (a shared corner, tet or triangle). Each
// unordered pair once (the lower edge index is side a); contacts in edge order (fixed chunks, in
// parallel for large surfaces), keyed by the two edges for warm starts.
//
// Segments: free particles (ropes, distance cloth: particle_surfaces.hpp) meet faces as points
// (particle_triangle_contacts.hpp), but a rope whose particles lie on either side of a soft body's
// edge or corner would pass through it between them. So the material links between free particles
// (ParticleSurfaces::segments: distance constraints, not bending links) join the stage as elements
// after the edges, each a capsule of its ends' radii, and meet every surface edge. Side b is then
// a ContactSide::ParticleSegment on the distance constraint with weights (1 − t, t), the same rows over its two particles. A segment
// against a surface corner (the closest point at an end of the edge, t inside the segment: a rope
// over a soft body's apex) is kept too, through one edge of the corner's (the edge from it in its
// lowest-index triangle), since no triangle of the rope's holds it; its crossed reading is that
// edge's faces'. A segment's own ends are its particles' point–triangle contacts, as before.
//
// Rope against rope: two segments meet when they belong to different ropes
// (ParticleSurfaces::segment_rope), or to one rope with self collision and then never two with a
// corner in each other's one-ring (a shared particle or a link between them). They touch where
// they cross inside both (as two edges; not nearly parallel), and at each end against the other
// segment, kept only through the lowest-index segment at that particle that may meet the other
// (so a rope's particle lying on a rope is one contact, not one per link at it); an end nearest
// the other's end is one particle–particle contact, kept through the first pair of their segments
// that may meet. Parallel segments (two ropes side by side) touch through their ends. All sides
// are ParticleSegment (an end with weight 1 on its particle); n = δ/|δ| from b to a, or where the
// centre lines meet the common normal turned from b's middle towards a's.
//
// Loose particles (free particles in no element: ParticleSurfaces::loose_particles, grains and
// beads) join the stage as points after the segments and meet every segment and every
// other loose particle (never a surface edge: the surface's triangles hold them). Against a
// segment, the segment's closest point; at one of its ends, one particle pair kept through the
// lowest-index segment at that end. Side b is the loose particle (ContactSide::Particle).
#pragma once

#include "collision/collide.hpp"

namespace sim::detail {

// Appends the edge–edge contacts; call after append_particle_triangle_contacts, which brings
// scratch.surfaces up to date.
void append_edge_edge_contacts(const Model& model, Real dt, Real margin, CollisionScratch& scratch, ContactBuffer& out);

// Whether elements a and b (indices in Model::particle_edge_key, then edge count + index in
// ParticleSurfaces::segments, then those + index in ParticleSurfaces::loose_particles) may touch
// at all (surfaces, ropes, self collision, exclusions above).
bool edge_pair_allowed(const Model& model, const ParticleSurfaces& surfaces, int a, int b);

}  // namespace sim::detail
