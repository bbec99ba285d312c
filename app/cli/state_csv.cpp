#include "cli/state_csv.hpp"

#include <cstdio>

namespace coulomb {

void write_state_csv_header(std::ostream& out) {
  out << "step,time,kind,index,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
}

void write_state_csv(std::ostream& out, const sim::Model& m, const sim::State& s) {
  char line[512];
  for (int b = 0; b < m.body_count; ++b) {
    const sim::Real* q = &s.q[7 * b];
    const sim::Real* u = &s.u[6 * b];
    std::snprintf(line, sizeof line, "%lld,%.9g,body,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                  static_cast<long long>(s.step_index), double(s.time), b, double(q[0]), double(q[1]), double(q[2]),
                  double(q[3]), double(q[4]), double(q[5]), double(q[6]), double(u[0]), double(u[1]), double(u[2]),
                  double(u[3]), double(u[4]), double(u[5]));
    out << line;
  }
  for (int p = 0; p < m.particle_count; ++p) {
    const sim::Real* q = &s.q[m.particle_coord(p)];
    const sim::Real* u = &s.u[m.particle_dof(p)];
    std::snprintf(line, sizeof line, "%lld,%.9g,particle,%d,%.9g,%.9g,%.9g,,,,,%.9g,%.9g,%.9g,,,\n",
                  static_cast<long long>(s.step_index), double(s.time), p, double(q[0]), double(q[1]), double(q[2]),
                  double(u[0]), double(u[1]), double(u[2]));
    out << line;
  }
}

}  // namespace coulomb
