// Third-party robot descriptions live outside the project, in ../shared/robots beside the
// checkout (COULOMB_SHARED_DIR); tests that need them skip with a message where it is absent.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace test {

inline std::filesystem::path shared_robots_dir() { return std::filesystem::path(COULOMB_SHARED_DIR) / "robots"; }

inline bool shared_robots_available() { return std::filesystem::is_directory(shared_robots_dir()); }

// Whether a scene file refers to a robot under shared/robots (a <robot file=".../shared/robots/...">).
inline bool scene_needs_shared_robots(const std::filesystem::path& scene) {
  std::ifstream in(scene, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str().find("shared/robots/") != std::string::npos;
}

}  // namespace test
