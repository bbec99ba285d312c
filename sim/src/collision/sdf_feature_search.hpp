// The SDF narrowphase's per-feature searches (thesis ch. 6, digest §5.6) as SIM_HD functions of
// one feature each: a mesh vertex's sample, a feature edge's cull tests and golden-section search,
// a triangle's cull tests, minimisation and the ownership rule that leaves a minimiser on an edge
// or corner to that feature's own test. narrowphase_sdf.cpp's mesh_against calls them in loops
// (and emits a contact for each hit); sim/cuda/device_sdf_features.cu runs them one thread a
// feature against a grid on the device. Kernel code: raw views, no STL containers.
#pragma once

#include <cmath>
#include <cstdint>

#include "sdf/local_optimisation.hpp"
#include "sim/host_device.hpp"
#include "sim/sdf.hpp"

namespace sim::detail {

// A mesh's topology as the searches read it (SdfMesh's arrays; host or device memory).
struct SdfMeshView {
  const Vec3* vertices = nullptr;      // shape frame (vertex_count)
  const int* triangles = nullptr;      // 3 corners per triangle
  const int* edges = nullptr;          // 2 vertices per edge
  const int* triangle_edges = nullptr; // edge k of a triangle joins corners k, k+1 (3 per triangle)
  const char* edge_is_feature = nullptr;
  const int* vertex_owner = nullptr;   // representative triangle, -1: unused vertex
  const int* edge_owner = nullptr;
  int vertex_count = 0, triangle_count = 0, edge_count = 0;
};

// The view of a host SdfMesh.
inline SdfMeshView mesh_view(const SdfMesh& m) {
  static_assert(sizeof(m.mesh.triangles[0]) == 3 * sizeof(int) && sizeof(m.edges[0]) == 2 * sizeof(int),
                "std::array<int, N> is N packed ints");
  SdfMeshView v;
  v.vertices = m.mesh.vertices.data();
  v.triangles = m.mesh.triangles.empty() ? nullptr : m.mesh.triangles[0].data();
  v.edges = m.edges.empty() ? nullptr : m.edges[0].data();
  v.triangle_edges = m.triangle_edges.empty() ? nullptr : m.triangle_edges[0].data();
  v.edge_is_feature = m.edge_is_feature.data();
  v.vertex_owner = m.vertex_owner.data();
  v.edge_owner = m.edge_owner.data();
  v.vertex_count = static_cast<int>(m.mesh.vertices.size());
  v.triangle_count = static_cast<int>(m.mesh.triangles.size());
  v.edge_count = static_cast<int>(m.edges.size());
  return v;
}

// What one feature's search spent, summed by the caller (narrowphase_sdf.hpp's SdfStats).
struct FeatureCounts {
  int tested = 0, culled = 0, evaluations = 0;
};

// A feature's minimiser, when the feature has a contact candidate of its own.
struct FeatureHit {
  bool found = false;
  FeatureMinimum minimum;
};

// Vertex v of a mesh placed in the field's frame (R, t) and sampled there: φ, with ∇φ in `grad`.
template <class Field>
SIM_HD Real place_and_sample(Field& field, const Mat3& R, const Vec3& t, const Vec3& vertex, Vec3& position,
                             Vec3& grad) {
  position = rotate3(R, vertex) + t;
  return field.eval(position, &grad);
}

// Edge e (vertices placed at `position`, field values `phi`): culled when a 1-Lipschitz field
// cannot come within `reach` of it (free, from the end samples) or its bounding sphere is that far
// (one sample), else searched; an end-point minimiser is left to the vertex test when vertices
// are tested.
template <class Field>
SIM_HD FeatureHit edge_feature(Field& field, const SdfMeshView& m, int e, const Vec3* position, const Real* phi,
                               Real reach, const SdfContactOptions& o, FeatureCounts& n) {
  FeatureHit hit;
  if (!m.edge_is_feature[e]) return hit;
  const int a = m.edges[2 * e], b = m.edges[2 * e + 1];
  const Vec3 &pa = position[a], &pb = position[b];
  const Real length = norm3(pb - pa);
  if (Real(0.5) * (phi[a] + phi[b] - length) >= reach) {
    ++n.culled;
    return hit;
  }
  // Bounding sphere with a margin (§6.2.3 applied to edges: midpoint, radius L/2).
  ++n.evaluations;
  if (field.eval(Real(0.5) * (pa + pb), nullptr) >= Real(0.5) * length + reach) {
    ++n.culled;
    return hit;
  }
  ++n.tested;
  hit.minimum = minimise_edge(field, pa, pb, phi[a], phi[b], o.iterations, o.tolerance);
  n.evaluations += hit.minimum.evaluations;
  const bool interior = hit.minimum.bary[0] > kBarycentricEps && hit.minimum.bary[1] > kBarycentricEps;
  hit.found = interior || !o.vertices;
  return hit;
}

// φ minimised over a triangle (corners x, field values phi) unless it cannot come within `reach`
// of the surface (culled: free bound from the corners, then the bounding sphere, one sample).
template <class Field>
SIM_HD bool minimise_face_within(Field& field, const Vec3 x[3], const Real phi[3], Real reach,
                                 const SdfContactOptions& o, FeatureCounts& n, FeatureMinimum& out) {
  const Vec3 centroid = (x[0] + x[1] + x[2]) / Real(3);
  const Real radius = std::sqrt(std::max(std::max(squared_norm3(x[0] - centroid), squared_norm3(x[1] - centroid)),
                                         squared_norm3(x[2] - centroid)));
  // Free bound from the corners: every point is within 2r of each corner.
  if (std::max(std::max(phi[0], phi[1]), phi[2]) - 2 * radius >= reach) {
    ++n.culled;
    return false;
  }
  // Bounding sphere with a margin: φ(x_c) < r + δ (+ slack for an interpolated grid).
  ++n.evaluations;
  if (field.eval(centroid, nullptr) >= radius + reach) {
    ++n.culled;
    return false;
  }
  ++n.tested;
  out = o.faces == SdfFaceMethod::FrankWolfe ? minimise_face_fw(field, x, phi, o.iterations, o.tolerance)
                                             : minimise_face_pgd(field, x, phi, o.iterations, o.pgd_step, o.tolerance);
  n.evaluations += out.evaluations;
  return true;
}

// Triangle f of a mesh: minimised as above; a minimiser on an edge is left to the edge search
// (a tested feature edge) or to the edge's representative triangle, one on a corner to the vertex
// test or the vertex's representative triangle, so each point is reported once.
template <class Field>
SIM_HD FeatureHit face_feature(Field& field, const SdfMeshView& m, int f, const Vec3* position, const Real* phi_at,
                               Real reach, const SdfContactOptions& o, FeatureCounts& n) {
  FeatureHit hit;
  const int* tri = m.triangles + 3 * f;
  const Vec3 x[3] = {position[tri[0]], position[tri[1]], position[tri[2]]};
  const Real phi[3] = {phi_at[tri[0]], phi_at[tri[1]], phi_at[tri[2]]};
  if (!minimise_face_within(field, x, phi, reach, o, n, hit.minimum)) return hit;
  const FeatureMinimum& fm = hit.minimum;
  const int support = support_size(fm, 3);
  if (support == 2) {
    int zero = 0;
    for (int k = 0; k < 3; ++k)
      if (!(fm.bary[k] > kBarycentricEps)) zero = k;
    const int e = m.triangle_edges[3 * f + (zero + 1) % 3];
    if ((o.edges && m.edge_is_feature[e]) || m.edge_owner[e] != f) return hit;
  } else if (support == 1) {
    int corner = 0;
    for (int k = 0; k < 3; ++k)
      if (fm.bary[k] > kBarycentricEps) corner = k;
    if (o.vertices || m.vertex_owner[tri[corner]] != f) return hit;
  }
  hit.found = true;
  return hit;
}

}  // namespace sim::detail
