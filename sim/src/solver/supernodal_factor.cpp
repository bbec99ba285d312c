#include "solver/supernodal_factor.hpp"

#include <cmath>

#ifndef COULOMB_REAL_FLOAT
#include <cholmod.h>
#endif

namespace sim {

#ifndef COULOMB_REAL_FLOAT

// CHOLMOD's state: its common block (parameters, workspace), the factor, and the solve's
// reusable dense workspaces (cholmod_solve2 allocates them on the first solve of a size).
struct SupernodalFactor::Cholmod {
  cholmod_common common;
  cholmod_factor* factor = nullptr;
  cholmod_dense* x = nullptr;
  cholmod_dense* y = nullptr;
  cholmod_dense* e = nullptr;
  bool factorised = false;

  Cholmod() {
    cholmod_start(&common);
    common.supernodal = CHOLMOD_SUPERNODAL;
    common.print = 0;  // failures are returned to the caller, which reports them; nothing on stdout
    common.final_ll = true;
  }
  ~Cholmod() {
    free_solve_workspace();
    if (factor) cholmod_free_factor(&factor, &common);
    cholmod_finish(&common);
  }
  void free_solve_workspace() {
    if (x) cholmod_free_dense(&x, &common);
    if (y) cholmod_free_dense(&y, &common);
    if (e) cholmod_free_dense(&e, &common);
  }
};

namespace {

// A CHOLMOD header over Eigen's compressed upper triangle (no copy).
cholmod_sparse view_upper(const SupernodalFactor::SparseUpper& a) {
  cholmod_sparse s{};
  s.nrow = static_cast<std::size_t>(a.rows());
  s.ncol = static_cast<std::size_t>(a.cols());
  s.nzmax = static_cast<std::size_t>(a.nonZeros());
  s.p = const_cast<int*>(a.outerIndexPtr());
  s.i = const_cast<int*>(a.innerIndexPtr());
  s.x = const_cast<Real*>(a.valuePtr());
  s.stype = 1;  // symmetric, upper triangle stored
  s.itype = CHOLMOD_INT;
  s.xtype = CHOLMOD_REAL;
  s.dtype = CHOLMOD_DOUBLE;
  s.sorted = 1;
  s.packed = 1;
  return s;
}

}  // namespace

SupernodalFactor::SupernodalFactor() : cholmod_(std::make_unique<Cholmod>()) {}
SupernodalFactor::~SupernodalFactor() = default;

bool SupernodalFactor::available() { return true; }

bool SupernodalFactor::analyse(const SparseUpper& upper) {
  Cholmod& c = *cholmod_;
  c.free_solve_workspace();
  if (c.factor) cholmod_free_factor(&c.factor, &c.common);
  c.factorised = false;
  cholmod_sparse a = view_upper(upper);
  c.factor = cholmod_analyze(&a, &c.common);
  return c.factor != nullptr && c.common.status == CHOLMOD_OK;
}

bool SupernodalFactor::factorise(const SparseUpper& upper) {
  Cholmod& c = *cholmod_;
  c.factorised = false;
  if (!c.factor || c.factor->n != static_cast<std::size_t>(upper.rows())) return false;
  const Real* v = upper.valuePtr();
  for (Eigen::Index k = 0; k < upper.nonZeros(); ++k)
    if (!std::isfinite(v[k])) return false;
  cholmod_sparse a = view_upper(upper);
  // FALSE only on an error; a pivot that is not positive is CHOLMOD_NOT_POSDEF with factor->minor < n.
  if (!cholmod_factorize(&a, c.factor, &c.common)) return false;
  c.factorised = c.common.status == CHOLMOD_OK && c.factor->minor == c.factor->n;
  return c.factorised;
}

void SupernodalFactor::solve_in_place(VecX& x) const {
  Cholmod& c = *cholmod_;
  if (!c.factorised) return;
  cholmod_dense b{};
  b.nrow = static_cast<std::size_t>(x.size());
  b.ncol = 1;
  b.nzmax = b.nrow;
  b.d = b.nrow;
  b.x = x.data();
  b.xtype = CHOLMOD_REAL;
  b.dtype = CHOLMOD_DOUBLE;
  if (!cholmod_solve2(CHOLMOD_A, c.factor, &b, nullptr, &c.x, nullptr, &c.y, &c.e, &c.common)) {
    x.setConstant(std::nan(""));  // the caller's residual checks see it (never reported as a solution)
    return;
  }
  const Real* out = static_cast<const Real*>(c.x->x);
  for (Eigen::Index k = 0; k < x.size(); ++k) x[k] = out[k];
}

long SupernodalFactor::nonzeros() const {
  const cholmod_factor* f = cholmod_->factor;
  if (!f) return 0;
  return static_cast<long>(f->is_super ? f->xsize : f->nzmax);
}

#else  // COULOMB_REAL_FLOAT: CHOLMOD factorises doubles only

struct SupernodalFactor::Cholmod {};
SupernodalFactor::SupernodalFactor() = default;
SupernodalFactor::~SupernodalFactor() = default;
bool SupernodalFactor::available() { return false; }
bool SupernodalFactor::analyse(const SparseUpper&) { return false; }
bool SupernodalFactor::factorise(const SparseUpper&) { return false; }
void SupernodalFactor::solve_in_place(VecX&) const {}
long SupernodalFactor::nonzeros() const { return 0; }

#endif

}  // namespace sim
