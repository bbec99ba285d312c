// A 4-link URDF whose links overlap at rest, for the initial-overlap filter and the blow-up
// detector tests:
// base (fixed, 10 x 10 x 2 cm, top at z = 0.01) ─j1─ link1 (2 cm cube at z 0.04..0.06)
//   link1 ─j2─ link2: 2 cm cube at z 0.005..0.025, x 0.02..0.04: 5 mm into the base's top, with
//                     j2 at its lower limit (the contact cannot be resolved by the joints)
//   link1 ─j3─ link3: 2 cm cube at z 0.011..0.031, x -0.04..-0.02: 1 mm above the base
// link2 and link3 are the base's grandchildren (not jointed to it). 1000 kg/m^3: 8 g links.
#pragma once

#include <string>

#include "sim/scene_io.hpp"
#include "support/scratch_files.hpp"

namespace test {

inline constexpr const char* kOverlapRobotUrdf = R"(<robot name="overlap">
  <link name="base"><collision><geometry><box size="0.1 0.1 0.02"/></geometry></collision></link>
  <link name="link1"><collision><geometry><box size="0.02 0.02 0.02"/></geometry></collision></link>
  <link name="link2"><collision><geometry><box size="0.02 0.02 0.02"/></geometry></collision></link>
  <link name="link3"><collision><geometry><box size="0.02 0.02 0.02"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="link1"/><origin xyz="0 0 0.05"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="link1"/><child link="link2"/><origin xyz="0.03 0 -0.035"/>
    <axis xyz="0 0 1"/><limit lower="0" upper="1" effort="10" velocity="1"/></joint>
  <joint name="j3" type="revolute"><parent link="link1"/><child link="link3"/><origin xyz="-0.03 0 -0.029"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
</robot>
)";

// The robot, base fixed and softly position-driven, in a scene of its own written to
// scratch_dir(name); `self_collision` is the <robot> attribute's value ("true" or "false").
inline sim::Result<sim::SceneSpec> load_overlap_robot_scene(const std::string& name, const std::string& self_collision) {
  const auto dir = scratch_dir(name);
  write_file(dir / "overlap.urdf", kOverlapRobotUrdf);
  write_file(dir / "scene.xml", R"(<scene dt="0.0083"><robot file="overlap.urdf" fixed_base="true" self_collision=")" +
                                    self_collision + R"(" drive="position" stiffness="0.5" damping="0.01"/></scene>)");
  return sim::load_scene_file((dir / "scene.xml").string());
}

}  // namespace test
