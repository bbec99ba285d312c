// The scenes shipped in the source tree (assets/scenes), by name, for tests that load them.
#pragma once

#include <filesystem>
#include <string>

namespace test {

// <source>/assets/scenes/<name>.xml
inline std::string scene_path(const std::string& name) {
  return (std::filesystem::path(COULOMB_SOURCE_DIR) / "assets" / "scenes" / (name + ".xml")).string();
}

}  // namespace test
