// Files the tests write and read back: a fresh directory per test under the system temp
// directory (left in place afterwards for inspection), and whole-file writes.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace test {

// <temp>/coulomb_test_<name>, emptied and created.
inline std::filesystem::path scratch_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("coulomb_test_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Writes `text` to `path` (binary), creating its parent directories.
inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace test
