// "No allocation in the step loop": after warm-up, step() leaves malloc's bytes in use unchanged
// (glibc's mallinfo2), for rigid bodies, joints, drives, particles and contacts together.
#include <catch2/catch.hpp>

#include <malloc.h>

#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"
#include "support/shared_robots.hpp"

TEST_CASE("step() does not allocate after warm-up", "[scene][solver][allocation]") {
#ifndef __GLIBC__
  WARN("skipped: mallinfo2 needs glibc");
#else
  // A swinging chain of particles (distance rows, geometric stiffness, no contacts).
  sim::SceneSpec chain;
  for (int i = 0; i < 8; ++i) {
    sim::ParticleSpec p;
    p.position = sim::Vec3(0.1 * i, 0, 2);
    p.mass = i == 0 ? 0 : 0.1;
    chain.particles.push_back(p);
    if (i > 0) {
      sim::DistanceSpec d;
      d.particle_a = i - 1;
      d.particle_b = i;
      chain.distances.push_back(d);
    }
  }
  // Scenes whose contact count is steady after warm-up (a growing contact set grows buffers).
  // The robot scenes (robots from ../shared/robots: Model::no_collision_pairs, many drives) where
  // that folder is.
  for (const char* name : {"heavy_stack", "pendulum", "flexible_beam", "arch", "chain", "allegro", "fetch"}) {
    sim::SceneSpec spec = chain;
    const std::string file = std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/" + name + ".xml";
    if (test::scene_needs_shared_robots(file) && !test::shared_robots_available()) {
      WARN("skipped " << name << ": " << test::shared_robots_dir() << " not found");
      continue;
    }
    if (std::string(name) != "chain") {
      auto loaded = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/" + name + ".xml");
      REQUIRE(loaded.ok());
      spec = *loaded;
    }
    const sim::Model model = test::compile(spec);
    sim::State state = sim::make_initial_state(model);
    const sim::Control control = sim::make_initial_control(model);
    sim::Workspace ws;
    test::run_steps(model, state, control, ws, 60);  // warm-up: buffers reach their size
    const auto before = mallinfo2();
    for (int i = 0; i < 30; ++i) sim::step(model, state, control, ws);
    const auto after = mallinfo2();
    INFO(name);
    CHECK(after.uordblks == before.uordblks);
    CHECK(after.hblkhd == before.hblkhd);
  }
#endif
}
