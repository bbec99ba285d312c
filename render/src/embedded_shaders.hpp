// SPIR-V of the shaders in shaders/, compiled by glslc at build time and compiled into the
// library (shaders/CMakeLists.txt): nothing is loaded from disk at run time.
#pragma once

#include <cstddef>
#include <cstdint>

namespace render {

struct SpirvCode {
  const std::uint32_t* words;
  std::size_t word_count;
};

SpirvCode mesh_vert_spirv();
SpirvCode mesh_frag_spirv();
SpirvCode shadow_vert_spirv();
SpirvCode line_vert_spirv();
SpirvCode line_frag_spirv();

}  // namespace render
