// One step's StepReport and SolverTrace as a JSON object (for `run --trace`).
#pragma once

#include <ostream>

#include "sim/trace.hpp"

namespace coulomb {

void write_trace_json(std::ostream& out, int step, double time, const sim::StepReport& report,
                      const sim::SolverTrace& trace);

}  // namespace coulomb
