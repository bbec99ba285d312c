// libFuzzer target: the parent side of mesh import. Assimp runs in a forked child
// (io/assimp_mesh_read.hpp); what comes back over the pipe is untrusted (a child whose memory
// Assimp corrupted wrote it). The input is such a reply: decode_assimp_reply checks it, and a
// reply that passes goes through both loaders' second halves (the scene loader's and the robot
// importer's welding and winding, with a mirroring scale). Assimp's own readers are exercised
// through the child by fuzz_mesh_file; in-process they would only find Assimp's bugs, which the
// child contains (docs/FUZZING.md).
#include <string>

#include "fuzz_support.hpp"
#include "io/assimp_mesh_read.hpp"
#include "io/mesh_import.hpp"
#include "sdf/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string reply(reinterpret_cast<const char*>(data), size);
  sim::io::AssimpMesh mesh;
  // The element bound a 4 KB mesh file would get (io::max_mesh_elements).
  if (!sim::io::decode_assimp_reply(reply, sim::io::max_mesh_elements(4096), mesh).empty()) return 0;
  auto scene_mesh = sim::triangle_mesh_from_assimp(mesh, "reply");
  if (scene_mesh) (void)sim::check_mesh(scene_mesh.value());
  auto robot_mesh = sim::io::welded_mesh_from_assimp(mesh, sim::Vec3(0.5, -2, 1), "reply");
  (void)robot_mesh;
  return 0;
}
