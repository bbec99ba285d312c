// libFuzzer target: scene XML (sim/scene_io.hpp). The input is a scene file's text, parsed as if
// it were <scratch>/scene.xml (its includes, meshes and robots resolve there, and the policy admits
// nothing outside: fuzz_support.hpp); a spec that loads is compiled when small.
#include <string>

#include "fuzz_support.hpp"
#include "sim/scene_io.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::prepare_process();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string path = fuzz::scratch_dir() + "/scene.xml";
  auto spec = sim::parse_scene_xml(text, path);
  if (!spec) return 0;
  fuzz::compile_if_small(spec.value());
  return 0;
}
