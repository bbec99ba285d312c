#include "fem/midedge_bending.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include <Eigen/Eigenvalues>

namespace sim {

namespace {

using Matrix2 = Eigen::Matrix<Real, 2, 2>;
using MatrixX = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;

std::uint64_t edge_key(int a, int b) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(std::min(a, b))) << 32 |
         static_cast<std::uint32_t>(std::max(a, b));
}

}  // namespace

void midedge_bending_rows(const std::vector<Vec3>& rest, const std::vector<std::array<int, 3>>& triangles,
                          const std::vector<std::array<int, 4>>& hinges, Real bending, Real poisson,
                          std::vector<MidedgeBendingRow>& out) {
  std::unordered_map<std::uint64_t, int> hinge_of_edge;
  for (std::size_t h = 0; h < hinges.size(); ++h) hinge_of_edge[edge_key(hinges[h][0], hinges[h][1])] = static_cast<int>(h);
  for (const auto& t : triangles) {
    const Vec3 q[3] = {rest[t[0]], rest[t[1]], rest[t[2]]};
    const Vec3 dr1 = q[1] - q[0], dr2 = q[2] - q[0];
    const Vec3 normal = dr1.cross(dr2);
    const Real area = Real(0.5) * normal.norm();
    // Edge i lies opposite corner i: its hinge, the factor c_i from the hinge's θ − θ̄ to the tilt
    // of the edge's mid-edge normal towards this face's normal, and the opposite corner beyond it.
    int hinge[3] = {-1, -1, -1}, beyond[3] = {-1, -1, -1};
    Real height[3], to_tilt[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
      const Vec3 a = q[(i + 1) % 3], b = q[(i + 2) % 3];
      height[i] = 2 * area / (b - a).norm();
      const auto found = hinge_of_edge.find(edge_key(t[(i + 1) % 3], t[(i + 2) % 3]));
      if (found == hinge_of_edge.end()) continue;
      const std::array<int, 4>& h = hinges[static_cast<std::size_t>(found->second)];
      const Vec3 x0 = rest[h[0]], e = rest[h[1]] - x0;
      // θ < 0 where the far wing turns towards the near wing's n (kernels/hinge_angle.hpp).
      const bool near_is_x2 = h[2] == t[i];
      const Vec3 near_normal = near_is_x2 ? e.cross(rest[h[2]] - x0) : (rest[h[3]] - x0).cross(e);
      const int far = near_is_x2 ? h[3] : h[2];
      const Real far_height = (rest[far] - x0).cross(e).norm() / e.norm();
      hinge[i] = found->second;
      beyond[i] = far;
      // The mid-edge normal: the two faces' slopes interpolated to the edge (each face's is exact
      // half its height away from it), h_f/(h_f + h_g) of the way from this face's normal.
      to_tilt[i] = (near_normal.dot(normal) > 0 ? Real(-1) : Real(1)) * height[i] / (height[i] + far_height);
    }
    if (hinge[0] < 0 && hinge[1] < 0 && hinge[2] < 0) continue;
    // II per unit tilt of edge i: σ_i = h_i sin(tilt_i) ≈ h_i tilt_i, II = 2[σ0+σ1 σ0; σ0 σ0+σ2]
    // in the basis (dr1, dr2); M_i = Ī⁻¹ II_i.
    Matrix2 metric;
    metric << dr1.dot(dr1), dr1.dot(dr2), dr1.dot(dr2), dr2.dot(dr2);
    const Matrix2 inverse_metric = metric.inverse();
    Matrix2 shape[3];
    for (int i = 0; i < 3; ++i) {
      Real s[3] = {0, 0, 0};
      s[i] = height[i];
      Matrix2 second;
      second << 2 * (s[0] + s[1]), 2 * s[0], 2 * s[0], 2 * (s[0] + s[2]);
      shape[i] = inverse_metric * second;
    }
    // Koiter: A D/2 [ν tr(M)² + (1 − ν) tr(M²)] = ½ tiltᵀ Q tilt.
    Mat3 quadratic;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        quadratic(i, j) = area * bending *
                          (poisson * shape[i].trace() * shape[j].trace() + (1 - poisson) * (shape[i] * shape[j]).trace());
    // Free edges' tilts minimised out (Schur complement), then tilts in terms of the hinges' angles.
    int interior[3], free_edges[3], ni = 0, nb = 0;
    for (int i = 0; i < 3; ++i) (hinge[i] >= 0 ? interior[ni++] : free_edges[nb++]) = i;
    MatrixX qii(ni, ni), qib(ni, nb), qbb(nb, nb);
    for (int a = 0; a < ni; ++a) {
      for (int b = 0; b < ni; ++b) qii(a, b) = quadratic(interior[a], interior[b]);
      for (int b = 0; b < nb; ++b) qib(a, b) = quadratic(interior[a], free_edges[b]);
    }
    for (int a = 0; a < nb; ++a)
      for (int b = 0; b < nb; ++b) qbb(a, b) = quadratic(free_edges[a], free_edges[b]);
    MatrixX condensed = qii;
    if (nb > 0) condensed -= qib * qbb.ldlt().solve(qib.transpose());
    for (int a = 0; a < ni; ++a)
      for (int b = 0; b < ni; ++b) condensed(a, b) *= to_tilt[interior[a]] * to_tilt[interior[b]];
    const Eigen::SelfAdjointEigenSolver<MatrixX> eigen(Real(0.5) * (condensed + condensed.transpose()));
    const Real largest = eigen.eigenvalues().cwiseAbs().maxCoeff();
    for (int k = 0; k < ni; ++k) {
      if (!(eigen.eigenvalues()[k] > Real(1e-12) * largest)) continue;  // a null direction of a free corner
      MidedgeBendingRow row;
      for (int a = 0; a < ni; ++a) {
        row.hinge[static_cast<std::size_t>(a)] = hinge[interior[a]];
        row.weight[static_cast<std::size_t>(a)] = eigen.eigenvectors()(a, k);
      }
      for (int c = 0; c < 3; ++c) row.particle[static_cast<std::size_t>(c)] = t[static_cast<std::size_t>(c)];
      for (int i = 0; i < 3; ++i) row.particle[static_cast<std::size_t>(3 + i)] = beyond[i];
      row.stiffness = eigen.eigenvalues()[k];
      out.push_back(row);
    }
  }
}

}  // namespace sim
