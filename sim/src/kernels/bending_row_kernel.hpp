// Kernel: the bending rows of a shell triangle in generalized compliance form (paper §9.1, eq. 80;
// constraint/shell_rows.hpp), built from its edges' hinge angles (kernels/hinge_angle.hpp).
//
// The energy is Koiter's plate bending energy on a mid-edge shape operator (Grinspun, Gingold,
// Reisman, Zorin 2006, "Computing discrete shape operators on general meshes"; the mid-edge
// average of Chen, Sastry, van Rees, Vouga 2018, "Physical simulation of environmentally induced
// thin shell deformation"): per triangle, with a normal at each edge's midpoint tilted
// from the triangle's own by the fraction h_f/(h_f + h_g) of the hinge's angle (h the heights of the
// two triangles over the edge: the interpolation of the two faces' slopes to the edge, the plain
// mean on a regular mesh), the normal field linear between the midpoints gives a constant second
// fundamental form II, and the energy is A D/2 [ν tr(M)² + (1 − ν) tr(M²)] with M = Ī⁻¹(II − ĪI)
// (compile/midedge_bending.cpp). It is quadratic in the three edges' angle deviations θ_j − θ̄_j,
// ½ δθᵀ Q δθ with Q constant per triangle; a boundary edge's tilt is free (minimised out of Q: the
// free edge's natural condition, moments M_n = 0); each eigenvector w of Q with eigenvalue k is a
// row: measure m = Σ_j w_j (θ_j − θ̄_j), stiffness k, value m (kernels/elastic_row_kernel.hpp).
// Unlike one row per hinge with a fixed weight (Grinspun et al. 2003), it has the plate's ν and does
// not depend on how the mesh's diagonals run: exact for quadratic deflections on regular meshes,
// however long the cells (tests/scenes/test_shells.cpp).
//
// The row couples its triangle's corners and its hinges' opposite corners: kBendingParticles slots.
// Damping takes m − m⁻ unwrapped (a hinge folding through ±π within one step is not expected).
#pragma once

#include "kernels/elastic_row_kernel.hpp"
#include "kernels/hinge_angle.hpp"
#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

inline constexpr int kBendingHinges = 3;     // a triangle's edges
inline constexpr int kBendingParticles = 6;  // its corners, then its edges' opposite corners

// The Model's bending rows (bending_count) over its hinges.
struct BendingView {
  HingeView hinges;
  const int* hinge;       // kBendingHinges per row, -1 where unused
  const Real* weight;     // kBendingHinges per row
  const int* particle;    // kBendingParticles per row, -1 where unused
  const Real* stiffness;  // k [N m/rad²]
  int count;
};

// Row r's measure Σ_j w_j (θ_j − θ̄_j) and its gradient on the row's slots, with the particles at
// position(p).
template <class Position>
SIM_HD Real bending_measure_at(const BendingView& b, const Position& position, int r, Vec3 (&grad)[kBendingParticles]) {
  for (int k = 0; k < kBendingParticles; ++k) grad[k].setZero();
  const int* slots = b.particle + kBendingParticles * r;
  Real m = 0;
  for (int j = 0; j < kBendingHinges; ++j) {
    const int h = b.hinge[kBendingHinges * r + j];
    if (h < 0) continue;
    Vec3 x[4];
    for (int corner = 0; corner < 4; ++corner) x[corner] = position(b.hinges.particle[4 * h + corner]);
    HingeAngle a;
    const Real w = b.weight[kBendingHinges * r + j];
    m += w * hinge_deviation(b.hinges, x, h, a);
    for (int corner = 0; corner < 4; ++corner) {
      const int p = b.hinges.particle[4 * h + corner];
      for (int k = 0; k < kBendingParticles; ++k)
        if (slots[k] == p) {
          grad[k] += w * a.grad[corner];
          break;
        }
    }
  }
  return m;
}

// The particles' positions of a configuration.
struct ConfigurationPositions {
  const Vec3* x;
  SIM_HD Vec3 operator()(int p) const { return x[p]; }
};

SIM_HD inline Real bending_measure(const BendingView& b, const ConfigurationView& c, int r,
                                   Vec3 (&grad)[kBendingParticles]) {
  return bending_measure_at(b, ConfigurationPositions{c.particle_position}, r, grad);
}

// Bending energy ½ k m² of row r [J].
template <class Position>
SIM_HD Real bending_elastic_energy(const BendingView& b, const Position& position, int r) {
  Vec3 grad[kBendingParticles];
  const Real m = bending_measure_at(b, position, r, grad);
  return Real(0.5) * b.stiffness[r] * m * m;
}

// Writes bending row r at first_row + r.
SIM_HD inline void evaluate_bending_row(const BendingView& b, const ConfigurationView& c, const RowGradientView& rows,
                                        const ElasticRowsView& cr, int first_row, int r) {
  Vec3 grad[kBendingParticles];
  const Real m = bending_measure(b, c, r, grad);
  const int row = first_row + r;
  write_elastic_row(rows, cr, row, m, m - cr.reference[row], b.stiffness[r], grad, kBendingParticles);
}

}  // namespace sim
