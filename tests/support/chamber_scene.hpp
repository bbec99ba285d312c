// A small soft scene with one chamber group (initial pressure 0): a 4 × 4 × 12 cm bar of 1 × 1 × 3
// cells whose x > 0 half is the group, on the ground. For the tests that set Control::soft_pressure
// and check that it is kept (history entries, keyframes).
#pragma once

namespace test {

inline constexpr const char* kChamberBarScene = R"(<?xml version="1.0"?>
<scene name="chamber" dt="0.005">
  <world><plane/></world>
  <softbody name="bar" box="0.04 0.04 0.12" divisions="1 1 3" pos="0 0 0.03" E="1e5" nu="0.3" damping="0.01">
    <group name="chamber" min="0 -1 -1" max="1 1 1"/>
  </softbody>
</scene>
)";

}  // namespace test
