// Indices of a compiled model's bodies and joints by name, for tests that address them the way a
// scene file does. A missing name fails the test (it is a typo or a broken scene, never a case).
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>

#include "sim/model.hpp"

namespace test {

inline int body_index(const sim::Model& m, const std::string& name) {
  for (int b = 0; b < m.body_count; ++b)
    if (m.body_name[static_cast<std::size_t>(b)] == name) return b;
  FAIL("no body " << name);
  return -1;
}

inline int joint_index(const sim::Model& m, const std::string& name) {
  for (int j = 0; j < m.joint_count; ++j)
    if (m.joint_name[static_cast<std::size_t>(j)] == name) return j;
  FAIL("no joint " << name);
  return -1;
}

}  // namespace test
