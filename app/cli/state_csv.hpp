// States as CSV rows: one row per body (pose and velocity of its com frame) and per particle.
#pragma once

#include <ostream>

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace coulomb {

void write_state_csv_header(std::ostream& out);
void write_state_csv(std::ostream& out, const sim::Model& model, const sim::State& state);

}  // namespace coulomb
