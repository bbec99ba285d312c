// Shared pieces of the fuzz targets (see fuzz_support.hpp).
#include "fuzz_support.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/compile.hpp"
#include "sim/resource_policy.hpp"

namespace fuzz {

namespace {

struct Scratch {
  std::string path;
  Scratch() {
    path = (std::filesystem::temp_directory_path() / ("coulomb-fuzz-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(path);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

const std::string& scratch_dir() {
  static const Scratch scratch;
  return scratch.path;
}

std::string write_scratch(const std::string& name, std::string_view bytes) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) std::abort();  // the scratch folder is unusable: nothing below would mean anything
  return path;
}

void prepare_process() {
  sim::ResourcePolicy policy = sim::resource_policy();
  policy.package_roots = {scratch_dir()};
  sim::set_resource_policy(std::move(policy));
  ::setenv("COULOMB_CACHE", (scratch_dir() + "/cache").c_str(), 1);
}

bool small_enough_to_compile(const sim::SceneSpec& spec) {
  return spec.bodies.size() <= 64 && spec.joints.size() <= 64 && spec.particles.size() <= 256 &&
         spec.world_shapes.size() <= 64;
}

void compile_if_small(const sim::SceneSpec& spec) {
  if (!small_enough_to_compile(spec)) return;
  auto model = sim::compile_model(spec);
  (void)model;
}

}  // namespace fuzz
