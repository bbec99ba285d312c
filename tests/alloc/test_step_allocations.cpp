// "No allocation in the step loop", counted by calls: after a short warm-up, sim::step() makes no
// call to malloc, calloc, realloc or the aligned allocators (operator new reaches malloc) on any
// scene shipped in assets/scenes, for as many steps as it takes contacts to come and go. The
// counter (allocation_counter.cpp) interposes glibc's allocator, so a buffer that is freed and
// allocated again within a step is seen, which a comparison of the bytes in use cannot see.
// Its own executable (with the tests' runner, test_main.cpp): the interposed allocator must not
// reach the main test binary.
// COULOMB_ALLOC_ABORT=1 ./tests/coulomb_step_alloc_tests aborts at the first counted call (gdb:
// `run`, then `bt` names the allocation); COULOMB_ALLOC_SCENE=name runs that scene only.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "allocation_counter.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/shared_robots.hpp"

namespace {

std::vector<std::filesystem::path> shipped_scene_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(COULOMB_SOURCE_DIR) / "assets" / "scenes"))
    if (e.path().extension() == ".xml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Warm-up: the first steps size the workspace (contacts, rows, solver scratch: reserved from the
// model's sizes, solver/row_capacity.hpp); the capacities must then cover the contacts that come
// and go in the steps counted after it, the cloth's 0 to 479 and the pile's 2 to 316 among them.
constexpr int kWarmup = 3;
constexpr int kCounted = 300;

struct Count {
  bool run = false;  // false: skipped (its robots are not here)
  std::int64_t calls = 0;
  int fewest = 0, most = 0;  // contacts over the counted steps
  std::vector<int> allocating_steps;  // the first few
};

Count count_step_allocations(const std::filesystem::path& file) {
  Count out;
  const std::string name = file.stem().string();
  if (test::scene_needs_shared_robots(file) && !test::shared_robots_available()) {
    WARN("skipped " << name << ": " << test::shared_robots_dir() << " not found");
    return out;
  }
  auto spec = sim::load_scene_file(file.string());
  INFO(name << ": " << (spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  auto compiled = sim::compile_model(*spec);
  INFO((compiled.ok() ? std::string() : compiled.error()));
  REQUIRE(compiled.ok());
  const sim::Model& model = compiled.value();
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  for (int i = 0; i < kWarmup; ++i) REQUIRE(sim::step(model, state, control, ws).ok());
  out.run = true;
  out.fewest = out.most = ws.contacts.size();
  for (int i = 0; i < kCounted; ++i) {
    std::int64_t calls = 0;
    bool ok = false;
    {
      test::alloc::CountingScope scope;
      ok = sim::step(model, state, control, ws).ok();
      calls = scope.calls();
    }
    INFO("step " << kWarmup + i);
    REQUIRE(ok);
    if (calls > 0 && out.allocating_steps.size() < 8) out.allocating_steps.push_back(kWarmup + i);
    out.calls += calls;
    out.fewest = std::min(out.fewest, ws.contacts.size());
    out.most = std::max(out.most, ws.contacts.size());
  }
  return out;
}

void check_no_allocation(const std::string& name, const Count& c) {
  INFO(name << ": contacts " << c.fewest << ".." << c.most << " over " << kCounted << " steps; first allocating steps: "
            << Catch::Detail::stringify(c.allocating_steps));
  CHECK(c.calls == 0);
}

}  // namespace

TEST_CASE("the counter sees calls, including a buffer freed and allocated again", "[alloc]") {
  // Net bytes in use are the same before and after this block; the calls are not.
  test::alloc::CountingScope scope;
  for (int i = 0; i < 3; ++i) {
    std::vector<double> v;
    v.resize(100 + i);
    asm volatile("" : : "r"(v.data()) : "memory");
  }
  CHECK(scope.calls() == 3);
}

TEST_CASE("step() makes no allocator call after warm-up on the shipped scenes", "[alloc][scene]") {
  const auto files = shipped_scene_files();
  REQUIRE(files.size() >= 20);
  int scenes_run = 0, scenes_with_changing_contacts = 0;
  for (const auto& file : files) {
    const std::string name = file.stem().string();
    if (const char* only = std::getenv("COULOMB_ALLOC_SCENE"); only && name != only) continue;
    const Count c = count_step_allocations(file);
    if (!c.run) continue;
    ++scenes_run;
    if (c.most != c.fewest) ++scenes_with_changing_contacts;
    check_no_allocation(name, c);
  }
  if (std::getenv("COULOMB_ALLOC_SCENE")) return;
  // Every shipped scene (those with robots only where ../shared/robots is here), and among them
  // scenes whose contact count changes while counted: the case the capacities are for.
  CHECK(scenes_run >= 20);
  CHECK(scenes_with_changing_contacts >= 8);
  WARN(scenes_run << " scenes counted, " << scenes_with_changing_contacts << " with a changing contact count");
}
