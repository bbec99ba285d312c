// Mechanical energy of a state: kinetic ½ m|v|² + ½ ωᵀ I_w ω and gravitational −m g·x summed over
// bodies and particles, plus the elastic energy V Ψ of FEM tets in the potential (the per-entity kernels of kernels/body_kernels.hpp and particle_kernels.hpp,
// added in a fixed order: the same sum on any thread count). For conservation checks and read-outs.
#pragma once

#include <vector>

#include "kernels/body_kernels.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

namespace sim {

// `partials` is caller-owned scratch for the deterministic sums (no allocation once grown).
Energy mechanical_energy(const Model& model, const State& state, std::vector<Real>& partials);

}  // namespace sim
