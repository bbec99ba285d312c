// A particle's position in a State, read and written through the Model's coordinate offsets
// (tests of particle-based bodies: soft bodies, shells).
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace test {

inline sim::Vec3 particle_position(const sim::Model& m, const sim::State& s, int p) {
  const sim::Real* q = s.q.data() + m.particle_coord(p);
  return sim::Vec3(q[0], q[1], q[2]);
}

inline void set_particle_position(const sim::Model& m, sim::State& s, int p, const sim::Vec3& x) {
  sim::Real* q = s.q.data() + m.particle_coord(p);
  for (int k = 0; k < 3; ++k) q[k] = x[k];
}

}  // namespace test
