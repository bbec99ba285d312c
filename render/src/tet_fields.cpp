#include "tet_fields.hpp"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/tet_mesh_quality.hpp"

namespace render {

namespace {

using sim::Mat3;
using sim::Real;
using sim::Vec3;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Vec3 particle_position(const sim::Model& model, const sim::State& state, int p) {
  const auto c = std::size_t(model.particle_coord(p));
  return Vec3(state.q[c], state.q[c + 1], state.q[c + 2]);
}

Real von_mises(const Mat3& sigma) {
  const Mat3 s = sigma - (sigma.trace() / 3) * Mat3::Identity();
  return std::sqrt(Real(1.5) * s.cwiseProduct(s).sum());
}

// Cauchy stress of the tet's material (the header's formulas); NaN matrix for J <= 0.
Mat3 cauchy_stress(const Mat3& F, sim::SoftModel model, Real mu, Real lambda) {
  const Real J = F.determinant();
  if (!(J > 0)) return Mat3::Constant(std::numeric_limits<Real>::quiet_NaN());
  if (model == sim::SoftModel::NeoHookean) {
    const Real alpha = 1 + mu / lambda;
    return (mu / J) * F * F.transpose() + lambda * (J - alpha) * Mat3::Identity();
  }
  // Co-rotational: the polar decomposition F = R S from the SVD (J > 0 here, so no sign flips
  // beyond making U and V rotations together).
  Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU(), V = svd.matrixV();
  Vec3 sv = svd.singularValues();
  if (U.determinant() < 0) U.col(2) *= -1, sv(2) *= -1;
  if (V.determinant() < 0) V.col(2) *= -1, sv(2) *= -1;
  const Mat3 R = U * V.transpose();
  const Mat3 strain = V * sv.asDiagonal() * V.transpose() - Mat3::Identity();
  const Mat3 stress = 2 * mu * strain + lambda * strain.trace() * Mat3::Identity();
  return (R * stress * F.transpose()) / J;
}

}  // namespace

void evaluate_tets(const sim::Model& model, const sim::State& state, TetMeasure measure, std::span<float> out) {
  const int tets = std::min<int>(model.tet_count, int(out.size()));
  if (state.q.size() < std::size_t(model.coord_count())) {
    std::fill(out.begin(), out.end(), kNaN);
    return;
  }
  for (int t = 0; t < tets; ++t) {
    const auto i = std::size_t(t);
    const int* k = model.tet_particle.data() + 4 * i;
    const Vec3 x0 = particle_position(model, state, k[0]);
    const Vec3 x1 = particle_position(model, state, k[1]);
    const Vec3 x2 = particle_position(model, state, k[2]);
    const Vec3 x3 = particle_position(model, state, k[3]);
    Mat3 Ds;
    Ds.col(0) = x1 - x0, Ds.col(1) = x2 - x0, Ds.col(2) = x3 - x0;
    const Mat3 F = Ds * model.tet_rest_inverse[i];
    Real value = 0;
    switch (measure) {
      case TetMeasure::VolumetricStrain: value = F.determinant() - 1; break;
      case TetMeasure::MaxStretch: value = Eigen::JacobiSVD<Mat3>(F).singularValues()(0); break;
      case TetMeasure::VonMises:
        value = von_mises(cauchy_stress(F, model.tet_model[i], model.tet_mu[i], model.tet_lambda[i]));
        break;
      case TetMeasure::MinDihedral:
        value = F.determinant() > 0 ? sim::tet_dihedral_range_deg(x0, x1, x2, x3)[0] : Real(0);  // inverted: 0
        break;
    }
    out[i] = std::isfinite(value) ? float(value) : kNaN;
  }
}

void tet_measure_per_particle(const sim::Model& model, const sim::State& state, TetMeasure measure,
                              std::span<float> out) {
  const auto particles = std::min(std::size_t(model.particle_count), out.size());
  thread_local std::vector<float> per_tet, weight;
  per_tet.resize(std::size_t(model.tet_count));
  weight.assign(particles, 0.0f);
  evaluate_tets(model, state, measure, per_tet);
  const bool minimum = measure == TetMeasure::MinDihedral;
  std::fill(out.begin(), out.begin() + std::ptrdiff_t(particles), minimum ? std::numeric_limits<float>::infinity() : 0.0f);
  for (std::size_t t = 0; t < per_tet.size(); ++t) {
    const float v = per_tet[t];
    if (!std::isfinite(v)) continue;
    const float w = float(model.tet_volume[t]);
    for (int c = 0; c < 4; ++c) {
      const auto p = std::size_t(model.tet_particle[4 * t + std::size_t(c)]);
      if (p >= particles) continue;
      out[p] = minimum ? std::min(out[p], v) : out[p] + w * v;
      weight[p] += w;
    }
  }
  for (std::size_t p = 0; p < particles; ++p) {
    if (!(weight[p] > 0)) out[p] = kNaN;
    else if (!minimum) out[p] /= weight[p];
  }
  if (measure != TetMeasure::MaxStretch || state.q.size() < std::size_t(model.coord_count())) return;
  // Cloth and ropes: the largest l / l0 of each particle's distance constraints.
  for (int d = 0; d < model.distance_count; ++d) {
    const auto i = std::size_t(d);
    const Real rest = model.distance_rest[i];
    if (!(rest > 0)) continue;
    const int a = model.distance_particle_a[i], b = model.distance_particle_b[i];
    const float stretch =
        float((particle_position(model, state, a) - particle_position(model, state, b)).norm() / rest);
    for (const int p : {a, b}) {
      if (p < 0 || std::size_t(p) >= particles) continue;
      float& v = out[std::size_t(p)];
      v = std::isfinite(v) ? std::max(v, stretch) : stretch;
    }
  }
}

}  // namespace render
