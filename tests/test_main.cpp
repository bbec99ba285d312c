// The Catch2 runner. The shipped scenes name meshes and robots beside their own folder
// (assets/meshes, ../shared/robots), which the library's containment refuses by default
// (sim/resource_policy.hpp); the CLI and the app trust the shipped assets, and so do the tests:
// both trees are package roots here. Tests of containment set their own policy.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <filesystem>

#include "sim/resource_policy.hpp"

int main(int argc, char* argv[]) {
  sim::ResourcePolicy policy = sim::resource_policy();
  policy.package_roots.push_back((std::filesystem::path(COULOMB_SOURCE_DIR) / "assets").string());
  policy.package_roots.push_back(COULOMB_SHARED_DIR);
  sim::set_resource_policy(std::move(policy));
  return Catch::Session().run(argc, argv);
}
