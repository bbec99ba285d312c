// CTest splits test names on ';' (catch_discover_tests registers each Catch2 test case under its
// name), so a test case whose name holds one is silently never run by CTest. Every test source
// is scanned for such names.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

TEST_CASE("no test case name contains a semicolon (CTest would silently skip it)", "[meta]") {
  const std::filesystem::path tests = std::filesystem::path(COULOMB_SOURCE_DIR) / "tests";
  const std::regex test_case(R"(TEST_CASE\(\s*"([^"]*)\")");
  int scanned = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(tests)) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    for (std::sregex_iterator it(source.begin(), source.end(), test_case), end; it != end; ++it) {
      ++scanned;
      INFO(entry.path().string() << ": \"" << (*it)[1].str() << "\"");
      CHECK((*it)[1].str().find(';') == std::string::npos);
    }
  }
  CHECK(scanned > 100);  // the scan found the suite
}
