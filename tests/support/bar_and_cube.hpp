// Two soft bodies apart at rest, the set-up of the proximity contacts' pair-rule tests: a bar
// "a" (0.3 × 0.1 × 0.1 m, 6 × 2 × 2 cells) at the origin and a cube "b" (0.1 m, 2 × 2 × 2 cells)
// 0.5 m above it, particles of radius 4 mm; a's particle range is the one tests give self
// collision.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "sim/soft_body.hpp"
#include "sim/spec.hpp"

namespace test {

struct BarAndCube {
  sim::SceneSpec spec;
  int a = -1, b = -1;  // first particle of each
};

inline BarAndCube bar_and_cube(const sim::SoftMaterialSpec& material) {
  BarAndCube out;
  sim::SoftBodyPlacement place;
  place.particle_radius = 0.004;
  std::string error;
  out.a = sim::add_soft_body(out.spec, sim::box_tet_mesh(sim::Vec3(0.3, 0.1, 0.1), 6, 2, 2), material, place, "a", error);
  place.pose.pos = sim::Vec3(0, 0, 0.5);
  out.b = sim::add_soft_body(out.spec, sim::box_tet_mesh(sim::Vec3(0.1, 0.1, 0.1), 2, 2, 2), material, place, "b", error);
  INFO(error);
  REQUIRE(out.a == 0);
  REQUIRE(out.b > 0);
  return out;
}

}  // namespace test
