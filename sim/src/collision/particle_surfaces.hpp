// The surfaces of soft bodies and cloth for point–triangle proximity contacts
// (particle_triangle_contacts.hpp): the connected components of Model::particle_triangles joined
// through shared particles and tets (a soft body's boundary is one surface, a cloth sheet
// another), whether each bounds tets (closed: its triangles are wound counter-clockwise seen from
// outside, TetMesh's convention, so a particle behind one is inside), the free particles (in no
// triangle and no tet: ropes, distance-only cloth, loose particles), whether it collides with
// itself (particle ranges given by the caller), each corner's lowest-index triangle (the vertex
// hand-off), every particle's one-ring through tets, triangles and free particles' distance
// constraints (self-contact exclusions), each triangle's three edges in the model's edge table
// (edge–edge contacts) and the free particles' segments that collide with those edges, with shapes
// and with each other (ropes' links, particle_edge_contacts.hpp, particle_faces_sdf.hpp), grouped
// in ropes (connected components) that collide with themselves only with self collision.
// Kept in the collision scratch and rebuilt only when the model's triangles, tets or the
// self-collision ranges or distance constraints change (a signature over them is compared every
// step: O(triangles + tets + distances), no allocation).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/model.hpp"

namespace sim::detail {

// particle_surface of a particle that is no triangle's corner: inside a soft body (a tet's corner
// only), or free (no tet's either), which meets every surface's triangles as a point.
constexpr int kInsideParticle = -1;
constexpr int kFreeParticle = -2;

struct ParticleSurfaces {
  std::uint64_t signature = 0;              // of the data below's sources; 0: never built
  std::vector<int> particle_surface;        // surface of each triangle corner, else kInsideParticle or
                                            //   kFreeParticle (particle_count)
  std::vector<int> particle_first_triangle; // lowest-index triangle with the particle as a corner, -1 none
  std::vector<std::uint8_t> closed;         // 1: the surface bounds tets, its triangles face outwards (per surface)
  std::vector<std::uint8_t> self_collision; // 1: its particles collide with its own triangles (per surface)
  std::vector<int> ring_offset;             // CSR (particle_count + 1) over ring: the particles sharing a tet,
  std::vector<int> ring;                    //   a triangle or (free particles) a distance constraint with each,
                                            //   ascending (self-contact exclusions)
  std::vector<std::array<int, 3>> triangle_edges;  // per triangle, the index in Model::particle_edge_key of
                                                   //   its edge k, (t[k], t[k + 1 mod 3]) (edge–edge contacts)
  std::vector<std::array<int, 2>> edge_faces;      // per model edge its first two triangles, -1 where it has fewer
  std::vector<int> segments;                // distance constraints between two free particles that are a
                                            //   material line (a rope's links; not a link another particle
                                            //   halves, as a bending link is): their points meet the edges,
                                            //   the shapes and other ropes' segments (also without any triangle)
  std::vector<int> segment_rope;            // per segment, its rope: the connected component of the free
                                            //   particles' distance constraints, numbered by first segment
  std::vector<std::uint8_t> rope_self_collision;  // 1: the rope's segments meet each other (per rope)
  std::vector<int> loose_particles;         // free particles in no element (no distance constraint, membrane
                                            //   or hinge: grains, beads): they meet the segments and each other
  std::vector<int> segment_offset;          // CSR (particle_count + 1) over particle_segments: the segments
  std::vector<int> particle_segments;       //   (indices in `segments`) with each particle as an end, ascending
  int surface_count() const { return static_cast<int>(closed.size()); }
  int rope_count() const { return static_cast<int>(rope_self_collision.size()); }
  // The segments at particle p: [first, last) in particle_segments.
  const int* segments_begin(int p) const { return particle_segments.data() + segment_offset[static_cast<std::size_t>(p)]; }
  const int* segments_end(int p) const { return particle_segments.data() + segment_offset[static_cast<std::size_t>(p) + 1]; }
};

// Brings `out` up to date with the model's particle_triangles and tet_particle; the model's
// self_collision_particles (from the scene) and `self_collision` (set from code) list particle
// ranges {first, count} whose surfaces collide with themselves (a range that leaves the
// particles is clipped to them). Returns true when it rebuilt.
bool update_particle_surfaces(const Model& model, const std::vector<std::array<int, 2>>& self_collision,
                              ParticleSurfaces& out);

// Whether particle b is in particle a's one-ring (shares a tet, a triangle or a free link with it).
bool in_particle_ring(const ParticleSurfaces& surfaces, int a, int b);

}  // namespace sim::detail
