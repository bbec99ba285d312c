#include "embedded_shaders.hpp"

namespace render {

namespace {

// Each .inc file is glslc's -mfmt=num output: the module's words, comma separated.
const std::uint32_t kMeshVert[] = {
#include "shaders/mesh.vert.inc"
};
const std::uint32_t kMeshFrag[] = {
#include "shaders/mesh.frag.inc"
};
const std::uint32_t kShadowVert[] = {
#include "shaders/shadow.vert.inc"
};
const std::uint32_t kLineVert[] = {
#include "shaders/line.vert.inc"
};
const std::uint32_t kLineFrag[] = {
#include "shaders/line.frag.inc"
};

template <std::size_t N>
SpirvCode code(const std::uint32_t (&words)[N]) {
  return SpirvCode{words, N};
}

}  // namespace

SpirvCode mesh_vert_spirv() { return code(kMeshVert); }
SpirvCode mesh_frag_spirv() { return code(kMeshFrag); }
SpirvCode shadow_vert_spirv() { return code(kShadowVert); }
SpirvCode line_vert_spirv() { return code(kLineVert); }
SpirvCode line_frag_spirv() { return code(kLineFrag); }

}  // namespace render
