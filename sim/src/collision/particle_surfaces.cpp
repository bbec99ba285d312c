// Surfaces of soft bodies and cloth: union-find over triangles and tets (see particle_surfaces.hpp).
#include "collision/particle_surfaces.hpp"

#include <algorithm>
#include <numeric>

#include "collision/cloth_edges.hpp"
#include "collision/geometry.hpp"

namespace sim::detail {

namespace {

int find_root(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

void unite(std::vector<int>& parent, int a, int b) {
  a = find_root(parent, a), b = find_root(parent, b);
  if (a != b) parent[std::max(a, b)] = std::min(a, b);
}

std::uint64_t surfaces_signature(const Model& m, const std::vector<std::array<int, 2>>& self_collision) {
  std::uint64_t h = hash_combine(0x5u, static_cast<std::uint64_t>(m.particle_count));
  for (const auto& t : m.particle_triangles)
    h = hash_combine(h, (static_cast<std::uint64_t>(t[0]) << 42) ^ (static_cast<std::uint64_t>(t[1]) << 21) ^
                            static_cast<std::uint64_t>(t[2]));
  for (int d = 0; d < m.distance_count; ++d)
    h = hash_combine(h, (static_cast<std::uint64_t>(static_cast<std::uint32_t>(m.distance_particle_a[d])) << 32) ^
                            static_cast<std::uint32_t>(m.distance_particle_b[d]));
  h = hash_combine(h, static_cast<std::uint64_t>(m.tet_count));
  for (int k : m.tet_particle) h = hash_combine(h, static_cast<std::uint64_t>(k));
  for (const auto* ranges : {&m.self_collision_particles, &self_collision})
    for (const auto& [first, count] : *ranges)
      h = hash_combine(h, (static_cast<std::uint64_t>(static_cast<std::uint32_t>(first)) << 32) ^
                              static_cast<std::uint32_t>(count));
  return h | 1u;  // never 0 (0 marks "never built")
}

// Calls f(p) for every particle p in the scene's, then the caller's self-collision ranges {first,
// count}, clipped to the particles.
template <class F>
void for_self_colliding(const Model& m, const std::vector<std::array<int, 2>>& self_collision, F f) {
  for (const auto* ranges : {&m.self_collision_particles, &self_collision})
    for (const auto& [first, count] : *ranges)
      for (int p = std::max(first, 0); p < std::min(first + std::max(count, 0), m.particle_count); ++p) f(p);
}

// The distance constraints between two free particles that are material lines: all but a link
// (a, b) that a third particle c halves, linked to both with L_ac + L_cb = L_ab (a bending link over
// two of a rope's or a distance cloth's links, which lie along it already), and but repeats of a
// pair. O(distances × links per particle).
void find_segments(const Model& m, ParticleSurfaces& out) {
  out.segments.clear();
  const int n = m.particle_count;
  auto is_free = [&](int p) { return out.particle_surface[static_cast<std::size_t>(p)] == kFreeParticle; };
  std::vector<int> offset(static_cast<std::size_t>(n) + 1, 0), link;  // CSR: the free links of each particle
  for (int d = 0; d < m.distance_count; ++d)
    if (is_free(m.distance_particle_a[d]) && is_free(m.distance_particle_b[d]))
      ++offset[m.distance_particle_a[d] + 1], ++offset[m.distance_particle_b[d] + 1];
  for (int p = 0; p < n; ++p) offset[p + 1] += offset[p];
  link.resize(static_cast<std::size_t>(offset[n]));
  std::vector<int> fill(offset.begin(), offset.end() - 1);
  for (int d = 0; d < m.distance_count; ++d)
    if (is_free(m.distance_particle_a[d]) && is_free(m.distance_particle_b[d]))
      link[fill[m.distance_particle_a[d]]++] = d, link[fill[m.distance_particle_b[d]]++] = d;
  auto other = [&](int d, int p) { return m.distance_particle_a[d] == p ? m.distance_particle_b[d] : m.distance_particle_a[d]; };
  for (int d = 0; d < m.distance_count; ++d) {
    const int a = m.distance_particle_a[d], b = m.distance_particle_b[d];
    if (a == b || !is_free(a) || !is_free(b)) continue;
    bool keep = true;
    for (int i = offset[a]; keep && i < offset[a + 1]; ++i) {
      const int ac = link[i];
      const int c = other(ac, a);
      if (c == b && ac < d) keep = false;  // a repeat of an earlier link between a and b
      if (c == b) continue;
      for (int j = offset[b]; keep && j < offset[b + 1]; ++j) {
        const int cb = link[j];
        if (other(cb, b) != c) continue;
        const Real through = m.distance_rest[ac] + m.distance_rest[cb];
        if (through <= m.distance_rest[d] * (1 + Real(1e-6))) keep = false;  // c lies on (a, b): halved
      }
    }
    if (keep) out.segments.push_back(d);
  }
}

// The surfaces: union-find over triangles and tets, numbered in the order their first triangle
// appears; which bound tets and which collide with themselves; each triangle's edges.
void find_surfaces(const Model& m, const std::vector<std::array<int, 2>>& self_collision, ParticleSurfaces& out) {
  const int n = m.particle_count;
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const auto& t : m.particle_triangles) unite(parent, t[0], t[1]), unite(parent, t[0], t[2]);
  for (int t = 0; t < m.tet_count; ++t)
    for (int k = 1; k < 4; ++k) unite(parent, m.tet_particle[4 * t], m.tet_particle[4 * t + k]);
  // Surfaces numbered in the order their first triangle appears.
  std::vector<int> surface_of_root(n, -1);
  for (int f = 0; f < static_cast<int>(m.particle_triangles.size()); ++f)
    for (int p : m.particle_triangles[f]) {
      const int root = find_root(parent, p);
      if (surface_of_root[root] < 0) {
        surface_of_root[root] = out.surface_count();
        out.closed.push_back(0);
        out.self_collision.push_back(0);
      }
      out.particle_surface[p] = surface_of_root[root];
      if (out.particle_first_triangle[p] < 0) out.particle_first_triangle[p] = f;
    }
  for (int t = 0; t < m.tet_count; ++t) {
    const int s = surface_of_root[find_root(parent, m.tet_particle[4 * t])];
    if (s >= 0) out.closed[s] = 1;
    for (int k = 0; k < 4; ++k) {
      int& own = out.particle_surface[m.tet_particle[4 * t + k]];
      if (own == kFreeParticle) own = kInsideParticle;
    }
  }
  for_self_colliding(m, self_collision, [&](int p) {
    if (out.particle_surface[p] >= 0) out.self_collision[out.particle_surface[p]] = 1;
  });
  out.triangle_edges.resize(m.particle_triangles.size());
  for (std::size_t f = 0; f < m.particle_triangles.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t key = cloth_edge_key(m.particle_triangles[f][k], m.particle_triangles[f][(k + 1) % 3]);
      const auto it = std::lower_bound(m.particle_edge_key.begin(), m.particle_edge_key.end(), key);
      const bool found = it != m.particle_edge_key.end() && *it == key;  // a model compiled from these triangles has it
      const int e = found ? static_cast<int>(it - m.particle_edge_key.begin()) : -1;
      out.triangle_edges[f][k] = e;
      if (e < 0) continue;
      auto& faces = out.edge_faces[static_cast<std::size_t>(e)];
      if (faces[0] < 0) faces[0] = static_cast<int>(f);
      else if (faces[1] < 0) faces[1] = static_cast<int>(f);  // a third (non-manifold) face is not kept
    }
}

// Every particle's one-ring as CSR, sorted and unique: every ordered pair of particles of a tet or
// a triangle, and of a distance constraint between two free particles (a rope's neighbours).
void build_rings(const Model& m, ParticleSurfaces& out) {
  const int n = m.particle_count;
  out.ring_offset.assign(static_cast<std::size_t>(n) + 1, 0);
  out.ring.clear();
  std::vector<std::array<int, 2>> links;
  auto link_all = [&](const int* k, int size) {
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j)
        if (i != j) links.push_back({k[i], k[j]});
  };
  for (const auto& t : m.particle_triangles) link_all(t.data(), 3);
  for (int t = 0; t < m.tet_count; ++t) link_all(m.tet_particle.data() + 4 * t, 4);
  for (int d = 0; d < m.distance_count; ++d) {
    const int pair[2] = {m.distance_particle_a[d], m.distance_particle_b[d]};
    if (out.particle_surface[pair[0]] == kFreeParticle && out.particle_surface[pair[1]] == kFreeParticle && pair[0] != pair[1])
      link_all(pair, 2);
  }
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  for (const auto& l : links) ++out.ring_offset[l[0] + 1];
  for (int p = 0; p < n; ++p) out.ring_offset[p + 1] += out.ring_offset[p];
  out.ring.reserve(links.size());
  for (const auto& l : links) out.ring.push_back(l[1]);
}

// The segments' ropes (connected components over the segments, numbered by their first segment),
// whether each collides with itself (a particle of it in a self-collision range), each particle's
// segments, and the loose particles.
void group_ropes(const Model& m, const std::vector<std::array<int, 2>>& self_collision, ParticleSurfaces& out) {
  const int n = m.particle_count;
  out.segment_rope.assign(out.segments.size(), -1);
  out.rope_self_collision.clear();
  out.segment_offset.assign(static_cast<std::size_t>(n) + 1, 0);
  out.particle_segments.assign(2 * out.segments.size(), -1);
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  for (int d : out.segments) {
    unite(parent, m.distance_particle_a[d], m.distance_particle_b[d]);
    ++out.segment_offset[m.distance_particle_a[d] + 1], ++out.segment_offset[m.distance_particle_b[d] + 1];
  }
  for (int p = 0; p < n; ++p) out.segment_offset[p + 1] += out.segment_offset[p];
  std::vector<int> fill(out.segment_offset.begin(), out.segment_offset.end() - 1);
  std::vector<int> rope_of_root(static_cast<std::size_t>(n), -1), particle_rope(static_cast<std::size_t>(n), -1);
  for (std::size_t k = 0; k < out.segments.size(); ++k) {  // in order: each particle's list ascends
    const int d = out.segments[k];
    int& rope = rope_of_root[find_root(parent, m.distance_particle_a[d])];
    if (rope < 0) rope = out.rope_count(), out.rope_self_collision.push_back(0);
    out.segment_rope[k] = rope;
    for (int p : {m.distance_particle_a[d], m.distance_particle_b[d]}) {
      particle_rope[p] = rope;
      out.particle_segments[fill[p]++] = static_cast<int>(k);
    }
  }
  for_self_colliding(m, self_collision, [&](int p) {
    if (particle_rope[p] >= 0) out.rope_self_collision[particle_rope[p]] = 1;
  });
  // Loose: free and in no element at all (no distance constraint, membrane triangle or hinge: a
  // shell's particles without faces are free but its elements hold them apart).
  std::vector<std::uint8_t> in_element(static_cast<std::size_t>(n), 0);
  for (int d = 0; d < m.distance_count; ++d) in_element[m.distance_particle_a[d]] = in_element[m.distance_particle_b[d]] = 1;
  for (const std::vector<int>* corners : {&m.membrane_particle, &m.hinge_particle})
    for (int p : *corners) in_element[static_cast<std::size_t>(p)] = 1;
  out.loose_particles.clear();
  for (int p = 0; p < n; ++p)
    if (out.particle_surface[p] == kFreeParticle && !in_element[p]) out.loose_particles.push_back(p);
}

}  // namespace

bool update_particle_surfaces(const Model& m, const std::vector<std::array<int, 2>>& self_collision,
                              ParticleSurfaces& out) {
  const std::uint64_t signature = surfaces_signature(m, self_collision);
  if (signature == out.signature) return false;
  out.signature = signature;
  const int n = m.particle_count;
  out.particle_surface.assign(n, kFreeParticle);
  out.particle_first_triangle.assign(n, -1);
  out.closed.clear();
  out.self_collision.clear();
  out.triangle_edges.clear();
  out.edge_faces.assign(m.particle_edge_key.size(), {-1, -1});
  if (m.particle_triangles.empty()) {  // no surface: the tets' particles are inside, the rest free
    for (int k : m.tet_particle) out.particle_surface[static_cast<std::size_t>(k)] = kInsideParticle;
  } else {
    find_surfaces(m, self_collision, out);
  }
  build_rings(m, out);
  find_segments(m, out);
  group_ropes(m, self_collision, out);
  return true;
}

bool in_particle_ring(const ParticleSurfaces& s, int a, int b) {
  if (a < 0 || a + 1 >= static_cast<int>(s.ring_offset.size())) return false;
  const auto begin = s.ring.begin() + s.ring_offset[a];
  const auto end = s.ring.begin() + s.ring_offset[a + 1];
  return std::binary_search(begin, end, b);
}

}  // namespace sim::detail
