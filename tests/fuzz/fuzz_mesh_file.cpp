// libFuzzer target: mesh files end to end, Assimp in its child process included
// (io/assimp_mesh_read.hpp). The input's first byte picks the extension Assimp dispatches on
// (OBJ, STL, PLY, OFF, DAE, glTF, 3MF... see kExtensions), the rest is the file. A crash, hang or
// runaway allocation inside Assimp must come back as an error (the child is killed or dies), so
// anything the fuzzer reports here is in our parent side: the fork, the limits, the pipe, the
// checks. Slow (a fork per execution): run it with -timeout above the child's 5 s deadline.
#include <iterator>
#include <string>

#include "fuzz_support.hpp"
#include "io/mesh_import.hpp"
#include "sim/sdf.hpp"

namespace {
constexpr const char* kExtensions[] = {".obj", ".stl", ".ply", ".off", ".dae", ".gltf", ".glb", ".3mf"};
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::prepare_process();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const char* ext = kExtensions[data[0] % std::size(kExtensions)];
  const std::string path = fuzz::write_scratch(std::string("mesh") + ext,
                                               std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  auto scene_mesh = sim::load_triangle_mesh(path);
  if (scene_mesh) (void)sim::check_mesh(scene_mesh.value());
  (void)sim::io::load_mesh_file(path, sim::Vec3(1, 1, 1));
  return 0;
}
