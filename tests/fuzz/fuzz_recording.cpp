// libFuzzer target: session recordings (sim/recording.hpp). The input is a .rec file; one that
// loads and fits the target's model (kScene: a box resting on the ground, a driven pendulum and a
// three-particle rope, so every state and control vector is non-empty) is replayed for up to
// kReplaySteps steps, as `coulomb replay` does. COULOMB_FUZZ_WRITE_SEED=<file> records three
// steps of kScene there and exits: how tests/fuzz/corpus/recording/ was made.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_support.hpp"
#include "sim/compile.hpp"
#include "sim/recording.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"

namespace {

constexpr const char* kScene = R"(<scene name="fuzz_recording" dt="0.01">
  <world><plane/></world>
  <body name="crate" pos="0.5 0 0.1"><box size="0.2 0.2 0.2"/></body>
  <body name="bob" pos="0 0 1"><sphere radius="0.05"/></body>
  <joint name="pivot" type="revolute" parent="world" child="bob" pos="0 0 1.5" axis="0 1 0">
    <drive mode="position" stiffness="10" damping="1"/>
  </joint>
  <rope name="rope" start="-1 0 1" end="-0.5 0 1" segments="2" total_mass="0.1" radius="0.02" pin="start"/>
</scene>)";
constexpr std::size_t kReplaySteps = 3;

const sim::Model& model() {
  static const sim::Model m = [] {
    auto spec = sim::parse_scene_xml(kScene, fuzz::scratch_dir() + "/scene.xml");
    if (!spec) {
      std::fprintf(stderr, "fuzz_recording: %s\n", spec.error().c_str());
      std::abort();
    }
    auto compiled = sim::compile_model(spec.value());
    if (!compiled) {
      std::fprintf(stderr, "fuzz_recording: %s\n", compiled.error().c_str());
      std::abort();
    }
    return std::move(compiled).value();
  }();
  return m;
}

void write_seed(const char* out) {
  sim::Recording rec;
  sim::State state = sim::make_initial_state(model());
  rec.begin("scene.xml", model(), model().solver, state);
  sim::Workspace ws;
  for (int i = 0; i < 3; ++i) {
    sim::Control c = sim::make_initial_control(model());
    std::fill(c.joint_target.begin(), c.joint_target.end(), 0.1 * (i + 1));
    rec.record(c);
    (void)sim::step(model(), rec.options, state, c, ws);
  }
  rec.final_hash = sim::state_hash(state);
  auto saved = sim::save_recording(rec, out);
  fuzz::finish_seed(saved ? std::string() : saved.error(), out);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::prepare_process();
  (void)model();
  if (const char* out = std::getenv("COULOMB_FUZZ_WRITE_SEED")) write_seed(out);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz::write_scratch("session.rec", std::string_view(reinterpret_cast<const char*>(data), size));
  auto rec = sim::load_recording(path);
  if (!rec || !rec->mismatch(model()).empty()) return 0;
  sim::Model m = model();
  m.dt = rec->dt;
  sim::State state = rec->initial;
  sim::Workspace ws;
  for (std::size_t i = 0; i < std::min(kReplaySteps, rec->controls.size()); ++i)
    (void)sim::step(m, rec->options, state, rec->controls[i], ws);
  return 0;
}
