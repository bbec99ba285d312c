// libFuzzer target: URDF import (sim/robot_import.hpp, parse_urdf). The input is a URDF file's
// text anchored at <scratch>/robot.urdf (mesh paths resolve there; nothing outside is admitted);
// a robot that imports is appended to an empty scene and compiled when small.
#include <string>

#include "fuzz_robot_common.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::prepare_process();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto robot = sim::parse_urdf(text, fuzz::scratch_dir() + "/robot.urdf");
  if (robot) fuzz::append_and_compile(robot.value());
  return 0;
}
