// Shared pieces of the fuzz targets (see fuzz_support.hpp).
#include "fuzz_support.hpp"

#include <unistd.h>

#include <cstdio>
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

namespace {

// An SDF bake of at most the default grid (64 voxels along the mesh's extent) and a band of 8
// voxels: a larger one is legal (docs/LIMITS.md bounds it) but takes seconds under ASan, time the
// fuzzer would not spend on the loaders.
bool cheap_to_bake(const sim::ShapeSpec& shape) {
  if (shape.triangles.empty()) return true;
  if (!(shape.sdf_band <= 8)) return false;
  if (shape.sdf_voxel_size == 0) return true;
  sim::Vec3 lo = sim::Vec3::Constant(0), hi = sim::Vec3::Constant(0);
  if (!shape.vertices.empty()) lo = hi = shape.vertices.front();
  for (const sim::Vec3& v : shape.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  return shape.sdf_voxel_size * 64 >= (hi - lo).maxCoeff();
}

}  // namespace

bool small_enough_to_compile(const sim::SceneSpec& spec) {
  if (spec.bodies.size() > 64 || spec.joints.size() > 64 || spec.particles.size() > 256 || spec.world_shapes.size() > 64)
    return false;
  for (const sim::ShapeSpec& s : spec.world_shapes)
    if (!cheap_to_bake(s)) return false;
  for (const sim::BodySpec& b : spec.bodies)
    for (const sim::ShapeSpec& s : b.shapes)
      if (!cheap_to_bake(s)) return false;
  return true;
}

void compile_if_small(const sim::SceneSpec& spec) {
  if (!small_enough_to_compile(spec)) return;
  auto model = sim::compile_model(spec);
  (void)model;
}

void finish_seed(const std::string& error, const char* path) {
  if (!error.empty()) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(1);
  }
  std::printf("wrote %s\n", path);
  std::exit(0);
}

}  // namespace fuzz
