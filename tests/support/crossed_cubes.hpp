// Two one-cell soft cubes meeting edge on edge, the set-up of the edge–edge contact tests
// (collision/particle_edge_contacts.hpp): the lower cube ("roof") turned 45° about x so that its
// top edge (the ridge) runs along x, the upper one ("vee") turned 45° about y so that its bottom
// edge runs along y, above the ridge's middle. No corner of either is near the other's faces: the
// two only meet where their edges cross. The signed distance between the two edges' lines,
// positive while the vee's edge is above the ridge, is the oracle the tests measure.
#pragma once

#include <cmath>
#include <string>

#include "sim/soft_body.hpp"
#include "sim/spec.hpp"

namespace test {

struct CrossedCubes {
  sim::SceneSpec spec;
  int roof_first = -1, vee_first = -1;   // first particle of each cube
  int ridge[2] = {-1, -1};               // the roof's top edge (particles)
  int vee_edge[2] = {-1, -1};            // the vee's bottom edge (particles)
};

// Cubes of edge `size`, the roof centred at the origin, the vee's edge `gap` above the ridge
// (negative: below, the edges crossed), particles of radius `radius`, the vee moving at `velocity`.
inline CrossedCubes crossed_cubes(sim::Real size, sim::Real gap, sim::Real radius, const sim::SoftMaterialSpec& material,
                                  const sim::Vec3& velocity = sim::Vec3::Zero()) {
  using sim::Real;
  using sim::Vec3;
  CrossedCubes out;
  out.spec.dt = 1.0 / 120;
  out.spec.gravity = Vec3::Zero();
  const Real reach = size / std::sqrt(Real(2));  // centre to a turned cube's edge
  std::string error;
  sim::SoftBodyPlacement place;
  place.particle_radius = radius;
  place.pose.rot = sim::Quat(Eigen::AngleAxis<Real>(M_PI / 4, Vec3::UnitX()));
  out.roof_first = sim::add_soft_body(out.spec, sim::box_tet_mesh(Vec3::Constant(size), 1, 1, 1), material, place, "roof", error);
  place.pose.rot = sim::Quat(Eigen::AngleAxis<Real>(M_PI / 4, Vec3::UnitY()));
  place.pose.pos = Vec3(0, 0, 2 * reach + gap);
  place.velocity = velocity;
  out.vee_first = sim::add_soft_body(out.spec, sim::box_tet_mesh(Vec3::Constant(size), 1, 1, 1), material, place, "vee", error);
  // The ridge: the roof's two highest particles; the vee's edge: its two lowest.
  auto extreme = [&](int first, int last, int* two, Real sign) {
    for (int p = first; p < last; ++p) {
      const Real z = sign * out.spec.particles[p].position.z();
      if (two[0] < 0 || z > sign * out.spec.particles[two[0]].position.z()) two[1] = two[0], two[0] = p;
      else if (two[1] < 0 || z > sign * out.spec.particles[two[1]].position.z()) two[1] = p;
    }
  };
  extreme(out.roof_first, out.vee_first, out.ridge, 1);
  extreme(out.vee_first, static_cast<int>(out.spec.particles.size()), out.vee_edge, -1);
  return out;
}

// Signed distance between the lines of edges (a0, a1) and (b0, b1), positive when a lies on the
// side of b that `up` points to (the closed form |(a0 − b0)·(d_a × d_b)| / |d_a × d_b|).
inline sim::Real signed_line_distance(const sim::Vec3& a0, const sim::Vec3& a1, const sim::Vec3& b0, const sim::Vec3& b1,
                                      const sim::Vec3& up) {
  sim::Vec3 m = (a1 - a0).cross(b1 - b0).normalized();
  if (m.dot(up) < 0) m = -m;
  return (a0 - b0).dot(m);
}

}  // namespace test
