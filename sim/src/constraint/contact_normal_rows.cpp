#include "constraint/contact_normal_rows.hpp"

#include <algorithm>

#include "core/parallel.hpp"

namespace sim {

void relax_initial_penetration(const SolverOptions& o, Real h, RowSet& rows) {
  const Real allowance = o.max_depenetration_velocity * h;
  parallel_for(rows.first_friction - rows.first_normal, [&](int c) {
    const int i = rows.first_normal + c;
    rows.row_bias[i] = std::max(Real(0), -(rows.row_value[i] + allowance));
  });
}

}  // namespace sim
