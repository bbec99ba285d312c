#include "solver/solve_capture_record.hpp"

#include <algorithm>

namespace sim {

void SolveCapture::clear_solve() {
  // clear() keeps every capacity: a capture reused for another solve of the same size allocates
  // nothing (the app's capture ring).
  rows.kind.clear();
  rows.source.clear();
  rows.sub.clear();
  rows.r.clear();
  rows.node_first.clear();
  rows.node.clear();
  for (CapturedIterate& k : iterates) spare_iterates.push_back(std::move(k));
  iterates.clear();
  linear_residuals.clear();
  returned_to_best = false;
  filled = false;
  if (system.iteration >= 0) system = CapturedSystem{};
}

namespace {

template <class T>
std::size_t held(const std::vector<T>& v) { return v.capacity() * sizeof(T); }

std::size_t held(const CapturedIterate& k) {
  return held(k.u) + held(k.lambda) + held(k.residual) + held(k.w) + held(k.active);
}

}  // namespace

std::size_t SolveCapture::bytes() const {
  std::size_t b = sizeof(SolveCapture) + held(start.q) + held(start.u) + held(rows.kind) + held(rows.source) +
                  held(rows.sub) + held(rows.r) + held(rows.node_first) + held(rows.node) + held(linear_residuals) +
                  held(iterates) + held(spare_iterates);
  for (const CapturedIterate& k : iterates) b += held(k);
  for (const CapturedIterate& k : spare_iterates) b += held(k);
  b += held(system.j_row) + held(system.j_col) + held(system.j_value) + held(system.hinv_row) + held(system.hinv_col) +
       held(system.hinv_value) + held(system.c_diagonal) + held(system.b) + held(system.x);
  return b;
}

const char* row_kind_name(int kind) {
  switch (static_cast<RowKind>(kind)) {
    case RowKind::Bilateral: return "bilateral";
    case RowKind::Drive: return "drive";
    case RowKind::Limit: return "limit";
    case RowKind::Normal: return "normal";
    case RowKind::Friction: return "friction";
  }
  return "unknown";
}

}  // namespace sim

namespace sim::detail {

void capture_solve_begin(SolveCapture& c, const Model& m, const RowSet& rows, int contact_count) {
  c.clear_solve();
  c.filled = true;
  c.body_count = m.body_count;
  c.particle_count = m.particle_count;
  c.contact_count = contact_count;
  CapturedRows& r = c.rows;
  const int n = rows.count;
  r.kind.resize(n);
  r.source.assign(rows.row_source.begin(), rows.row_source.begin() + n);
  r.sub.assign(rows.row_sub.begin(), rows.row_sub.begin() + n);
  r.r.assign(rows.row_r.begin(), rows.row_r.begin() + n);
  r.node_first.assign(1, 0);
  for (int i = 0; i < n; ++i) {
    r.kind[i] = static_cast<std::int8_t>(rows.row_kind[i]);
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e) r.node.push_back(rows.entry_node[e]);
    r.node_first.push_back(static_cast<int>(r.node.size()));
  }
}

void capture_iterate(SolveCapture& c, const RowSet& rows, const VecX& u, const IterationTrace& it, bool replace_last) {
  if (replace_last && c.iterates.empty()) replace_last = false;
  if (!replace_last) {
    if (c.spare_iterates.empty()) {
      c.iterates.emplace_back();
    } else {  // a forgotten iterate's buffers (clear_solve)
      c.iterates.push_back(std::move(c.spare_iterates.back()));
      c.spare_iterates.pop_back();
    }
  }
  CapturedIterate& k = c.iterates.back();
  const int n = rows.count;
  k.trace = it;
  k.u.assign(u.data(), u.data() + u.size());
  k.lambda.assign(rows.row_lambda.begin(), rows.row_lambda.begin() + n);
  k.residual.assign(rows.row_error.begin(), rows.row_error.begin() + n);
  k.w.assign(n, Real(0));
  for (int i = rows.first_friction; i < n; ++i) k.w[i] = rows.row_w[i];
  k.active.assign(rows.row_active.begin(), rows.row_active.begin() + n);
}

void capture_system(SolveCapture& c, const SchurSystem& sys, const VecX& b, const VecX& x, int iteration) {
  const Model& m = sys.model();
  const RowSet& rows = sys.rows();
  CapturedSystem& s = c.system;
  s = CapturedSystem{};
  s.iteration = iteration;
  s.rows = rows.count;
  s.dofs = m.dof_count();
  for (int e = 0; e < rows.entry_count; ++e) {
    const Vec6& block = rows.entry_jac[e];
    for (int k = 0; k < rows.entry_width[e]; ++k) {
      if (block[k] == 0) continue;
      s.j_row.push_back(rows.entry_row[e]);
      s.j_col.push_back(rows.entry_dof[e] + k);
      s.j_value.push_back(block[k]);
    }
  }
  // H⁻¹ column by column within each node's block (the operator the solver applies).
  const int nodes = m.body_count + m.particle_count;
  for (int node = 0; node < nodes; ++node) {
    const int width = node_width(m, node), first = node < m.body_count ? 6 * node : 6 * m.body_count + 3 * (node - m.body_count);
    for (int col = 0; col < width; ++col) {
      Real in[6] = {0, 0, 0, 0, 0, 0}, out[6] = {0, 0, 0, 0, 0, 0};
      in[col] = 1;
      sys.inverse_mass().apply_node(m, node, in, out);
      for (int row = 0; row < width; ++row) {
        if (out[row] == 0) continue;
        s.hinv_row.push_back(first + row);
        s.hinv_col.push_back(first + col);
        s.hinv_value.push_back(out[row]);
      }
    }
  }
  s.c_diagonal.resize(rows.count);
  for (int i = 0; i < rows.count; ++i) s.c_diagonal[i] = sys.diag_c(i);
  s.b.assign(b.data(), b.data() + sys.size());  // b and x keep their capacity (row_capacity.hpp)
  s.x.assign(x.data(), x.data() + sys.size());
}

}  // namespace sim::detail
