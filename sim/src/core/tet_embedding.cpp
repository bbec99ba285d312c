// Binding render vertices to tets and moving them with the tets (see sim/tet_embedding.hpp).
#include "sim/tet_embedding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sim {

namespace {

// Barycentric weights of q in the tet (a, b, c, d): the solution of
// [b-a, c-a, d-a] (w1, w2, w3) = q - a, w0 = 1 - w1 - w2 - w3 (Cramer's rule).
std::array<Real, 4> barycentric(const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 u = b - a, v = c - a, w = d - a, r = q - a;
  const Real det = u.dot(v.cross(w));
  const Real w1 = r.dot(v.cross(w)) / det, w2 = u.dot(r.cross(w)) / det, w3 = u.dot(v.cross(r)) / det;
  return {1 - w1 - w2 - w3, w1, w2, w3};
}

// The largest signed distance of q beyond the planes of the tet's faces (outward normals):
// <= 0 inside; the exact distance to the tet when the closest point is on a face.
Real outside_distance(const Vec3& q, const Vec3* const* p) {
  Real d = -std::numeric_limits<Real>::infinity();
  for (const auto& f : kTetFaces) {
    const Vec3 n = (*p[f[1]] - *p[f[0]]).cross(*p[f[2]] - *p[f[0]]).normalized();
    d = std::max(d, n.dot(q - *p[f[0]]));
  }
  return d;
}

// Tets binned by their bounding boxes in a uniform grid (compressed rows).
struct TetGrid {
  Vec3 lo;
  Real h = 1;
  std::array<int, 3> dims{1, 1, 1};
  std::vector<std::int32_t> start, items;

  std::array<int, 3> cell(const Vec3& q) const {
    std::array<int, 3> c{};
    for (int k = 0; k < 3; ++k)
      c[k] = std::clamp(static_cast<int>(std::floor((q[k] - lo[k]) / h)), 0, dims[k] - 1);
    return c;
  }
  std::size_t index(int i, int j, int k) const {
    return (static_cast<std::size_t>(k) * static_cast<std::size_t>(dims[1]) + static_cast<std::size_t>(j)) *
               static_cast<std::size_t>(dims[0]) + static_cast<std::size_t>(i);
  }
};

TetGrid build_grid(const TetMesh& mesh) {
  TetGrid g;
  Vec3 lo = mesh.points[0], hi = mesh.points[0];
  for (const Vec3& p : mesh.points) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const Vec3 size = (hi - lo).cwiseMax(Vec3::Constant(Real(1e-9)));
  // About one tet per cell, at most 128 cells a side.
  const double cells = std::max<double>(1, static_cast<double>(mesh.tets.size()));
  g.h = static_cast<Real>(std::cbrt(size.prod() / cells));
  g.h = std::max(g.h, size.maxCoeff() / 128);
  g.lo = lo;
  for (int k = 0; k < 3; ++k) g.dims[k] = std::max(1, static_cast<int>(std::ceil(size[k] / g.h)));
  const std::size_t n = static_cast<std::size_t>(g.dims[0]) * g.dims[1] * g.dims[2];
  std::vector<std::int32_t> count(n + 1, 0);
  auto for_cells = [&](const std::array<std::int32_t, 4>& t, auto&& f) {
    Vec3 a = mesh.points[t[0]], b = a;
    for (int k = 1; k < 4; ++k) {
      a = a.cwiseMin(mesh.points[t[k]]);
      b = b.cwiseMax(mesh.points[t[k]]);
    }
    const auto c0 = g.cell(a), c1 = g.cell(b);
    for (int k = c0[2]; k <= c1[2]; ++k)
      for (int j = c0[1]; j <= c1[1]; ++j)
        for (int i = c0[0]; i <= c1[0]; ++i) f(g.index(i, j, k));
  };
  for (const auto& t : mesh.tets) for_cells(t, [&](std::size_t c) { ++count[c + 1]; });
  for (std::size_t c = 0; c < n; ++c) count[c + 1] += count[c];
  g.start = count;
  g.items.resize(static_cast<std::size_t>(count[n]));
  for (std::size_t t = 0; t < mesh.tets.size(); ++t)
    for_cells(mesh.tets[t], [&](std::size_t c) { g.items[static_cast<std::size_t>(count[c]++)] = static_cast<std::int32_t>(t); });
  return g;
}

}  // namespace

Result<TetEmbedding> embed_in_tets(const TetMesh& mesh, const std::vector<Vec3>& vertices) {
  if (mesh.tets.empty() || mesh.points.empty()) return Error{mesh.source + ": cannot embed vertices in a mesh without tets"};
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (!vertices[i].allFinite()) return Error{"render vertex " + std::to_string(i) + " is not finite"};
  const TetGrid g = build_grid(mesh);
  TetEmbedding e;
  e.tet.resize(vertices.size());
  e.nodes.resize(vertices.size());
  e.weights.resize(vertices.size());
  const auto corners = [&](std::int32_t t, const Vec3** p) {
    for (int k = 0; k < 4; ++k) p[k] = &mesh.points[mesh.tets[t][k]];
  };
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Vec3& q = vertices[i];
    const auto c = g.cell(q);
    // Inside: the tet whose smallest weight is largest (the one the vertex is deepest in).
    std::int32_t best = -1;
    Real best_score = -std::numeric_limits<Real>::infinity();
    const std::size_t cell = g.index(c[0], c[1], c[2]);
    for (std::int32_t s = g.start[cell]; s < g.start[cell + 1]; ++s) {
      const std::int32_t t = g.items[static_cast<std::size_t>(s)];
      const Vec3* p[4];
      corners(t, p);
      const auto w = barycentric(q, *p[0], *p[1], *p[2], *p[3]);
      const Real score = std::min({w[0], w[1], w[2], w[3]});
      if (score > best_score) {
        best_score = score;
        best = t;
      }
    }
    if (best < 0 || best_score < Real(-1e-9)) {
      // Outside every tet: rings of cells around q's (clamped) cell, until no unvisited cell can
      // be nearer than the best so far (a cell r + 1 rings out is at least r h away).
      Real best_d = std::numeric_limits<Real>::infinity();
      best = -1;
      const int max_ring = std::max({g.dims[0], g.dims[1], g.dims[2]});
      for (int r = 0; r <= max_ring; ++r) {
        for (int k = c[2] - r; k <= c[2] + r; ++k)
          for (int j = c[1] - r; j <= c[1] + r; ++j)
            for (int ii = c[0] - r; ii <= c[0] + r; ++ii) {
              if (std::max({std::abs(k - c[2]), std::abs(j - c[1]), std::abs(ii - c[0])}) != r) continue;
              if (ii < 0 || j < 0 || k < 0 || ii >= g.dims[0] || j >= g.dims[1] || k >= g.dims[2]) continue;
              const std::size_t cc = g.index(ii, j, k);
              for (std::int32_t s = g.start[cc]; s < g.start[cc + 1]; ++s) {
                const std::int32_t t = g.items[static_cast<std::size_t>(s)];
                const Vec3* p[4];
                corners(t, p);
                const Real d = outside_distance(q, p);
                if (d < best_d) {
                  best_d = d;
                  best = t;
                }
              }
            }
        if (best >= 0 && best_d <= static_cast<Real>(r) * g.h) break;
      }
      ++e.outside;
      e.max_outside_distance = std::max(e.max_outside_distance, std::max(best_d, Real(0)));
    }
    const Vec3* p[4];
    corners(best, p);
    e.tet[i] = best;
    e.nodes[i] = mesh.tets[best];
    e.weights[i] = barycentric(q, *p[0], *p[1], *p[2], *p[3]);
  }
  return e;
}

void deform_embedded(const TetEmbedding& embedding, const std::vector<Vec3>& nodes, std::vector<Vec3>& out) {
  out.resize(embedding.weights.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto& n = embedding.nodes[i];
    const auto& w = embedding.weights[i];
    out[i] = w[0] * nodes[n[0]] + w[1] * nodes[n[1]] + w[2] * nodes[n[2]] + w[3] * nodes[n[3]];
  }
}

}  // namespace sim
