// The iterate of a descent solver (dual ascent, primal descent) evaluated and measured the way
// the Newton solver measures its own (solver/newton_residuals.hpp), so that every solver behind
// the seam fills the common trace with residuals on one axis: the same row errors (position rows
// |c + eλ| and |min(C, rλ)|, drives |φ|, friction the natural map of maximal dissipation with the
// same r), the momentum residual g = M(u − ũ) − h J(q)ᵀλ (eq. 57) and the merit.
#pragma once

#include "sim/contact.hpp"
#include "sim/model.hpp"
#include "sim/trace.hpp"
#include "solver/newton_solver.hpp"
#include "solver/schur_system.hpp"

namespace sim::detail {

// q = q⁻ + h G(q⁻) u, the rows' values and gradients there, and the gradients as the system rows
// (so SchurSystem::jt gives the constraint force Jᵀλ).
void evaluate_rows_at_iterate(const Model& model, const ContactBuffer& contacts, Real h, SolverScratch& s);

// The rows' errors at the evaluated iterate with their multipliers row_lambda, then g and the
// trace's scalars. Returns false on non-finite values.
bool measure_rows_and_momentum(const Model& model, const ContactBuffer& contacts, Real h, const SchurSystem& sys,
                               SolverScratch& s, IterationTrace& t);

}  // namespace sim::detail
