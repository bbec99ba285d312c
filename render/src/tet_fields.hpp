// Per-tet measures of a soft body's deformation for the colour field (paper Fig. 13 colours by
// the volumetric strain J − 1), evaluated read-only from the Model's tets and the State's
// particle positions, and carried to the particles (the surface vertices) for drawing.
//
//   F = D_s D_m⁻¹                        deformation gradient (D_s: current edges x_k − x_0)
//   volumetric strain  J − 1,  J = det F
//   max stretch        σ_max(F)          the largest principal stretch
//   von Mises stress   sqrt(3/2 s:s),    s = dev σ, σ the Cauchy stress of the tet's material:
//     stable Neo-Hookean (Ψ = μ/2 (tr FᵀF − 3) + λ/2 (J − α)²):  σ = (μ/J) F Fᵀ + λ (J − α) I
//     linear co-rotational (F = R S):    σ = (1/J) R (2μ (S − I) + λ tr(S − I) I) Fᵀ
//     (undefined for J ≤ 0: NaN, drawn grey)
//   min dihedral angle [deg] of the tet in its current shape (sim/tet_mesh_quality.hpp)
//
// Particles take the rest-volume-weighted mean of their tets' values (the minimum for the
// dihedral angle: one bad element is what matters). Cloth and ropes have no tets: max stretch
// there is the largest l/l₀ of the particle's distance constraints; the other measures are NaN.
#pragma once

#include <span>

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace render {

enum class TetMeasure { VolumetricStrain, MaxStretch, VonMises, MinDihedral };

// One value per tet (`out` has model.tet_count entries).
void evaluate_tets(const sim::Model& model, const sim::State& state, TetMeasure measure, std::span<float> out);

// Per particle (`out` has model.particle_count entries; NaN where the measure does not apply).
// No allocation once the thread's scratch has grown to the tet count.
void tet_measure_per_particle(const sim::Model& model, const sim::State& state, TetMeasure measure,
                              std::span<float> out);

}  // namespace render
