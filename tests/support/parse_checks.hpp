// Checks of the file readers (scene XML, URDF, MJCF): documents written as numbered lines, parses
// that must succeed, and errors that must name "file:line: <element>: " and say what is wrong.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>

#include "sim/scene_io.hpp"

namespace test {

// The lines joined, each ending in "\n": line k of the document is lines[k - 1].
inline std::string xml_lines(std::initializer_list<const char*> lines) {
  std::string out;
  for (const char* l : lines) out += std::string(l) + "\n";
  return out;
}

// The scene parsed from `xml` as `file`; the parse must succeed (its error is shown otherwise).
inline sim::SceneSpec parse_scene_ok(const std::string& xml, const std::string& file) {
  auto r = sim::parse_scene_xml(xml, file);
  INFO((r.ok() ? std::string("ok") : r.error()));
  REQUIRE(r.ok());
  return r.value();
}

// `r` must have failed with an error that starts with "<file>:<line>: <element>: " (no element
// part when `element` is empty) and contains every fragment.
template <class R>
void check_error(const R& r, const std::string& file, int line, const std::string& element,
                 std::initializer_list<std::string> fragments) {
  REQUIRE_FALSE(r.ok());
  INFO("error: " << r.error());
  std::string prefix = file + ":" + std::to_string(line) + ": ";
  if (!element.empty()) prefix += "<" + element + ">: ";
  CHECK(r.error().rfind(prefix, 0) == 0);
  for (const std::string& f : fragments) CHECK(r.error().find(f) != std::string::npos);
}

template <class R>
void check_error(const R& r, const std::string& file, int line, const std::string& element,
                 const std::string& fragment) {
  check_error(r, file, line, element, {fragment});
}

}  // namespace test
