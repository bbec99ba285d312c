// Read-outs of FEM soft bodies for tests: particle positions, the deformed volume of the tets
// (and the smallest one: inversion), the rest volume.
#pragma once

#include <algorithm>

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace test {

inline sim::Vec3 particle(const sim::Model& m, const sim::State& s, int p) {
  const sim::Real* q = s.q.data() + m.particle_coord(p);
  return sim::Vec3(q[0], q[1], q[2]);
}

// The summed volume of tets [first, last) (all by default) at `s`, and the smallest tet volume.
inline sim::Real body_volume(const sim::Model& m, const sim::State& s, sim::Real* smallest = nullptr, int first = 0,
                             int last = -1) {
  if (last < 0) last = m.tet_count;
  sim::Real total = 0, low = 1e30;
  for (int t = first; t < last; ++t) {
    sim::Vec3 x[4];
    for (int k = 0; k < 4; ++k) x[k] = particle(m, s, m.tet_particle[4 * t + k]);
    const sim::Real v = (x[1] - x[0]).cross(x[2] - x[0]).dot(x[3] - x[0]) / 6;
    total += v;
    low = std::min(low, v);
  }
  if (smallest) *smallest = low;
  return total;
}

inline sim::Real rest_volume(const sim::Model& m, int first = 0, int last = -1) {
  if (last < 0) last = m.tet_count;
  sim::Real v = 0;
  for (int t = first; t < last; ++t) v += m.tet_volume[t];
  return v;
}

}  // namespace test
