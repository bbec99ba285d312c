// A MuJoCo-style ragdoll in MJCF for the direct solver's tests (tests/scenes/test_direct_linear_solver.cpp,
// test_tree_kkt_factor.cpp).
#pragma once

namespace test {

// A MuJoCo-style ragdoll: a free torso, legs with 3-hinge hips, knees and 2-hinge ankles, 2-hinge
// shoulders (the import chains a body's hinges through frames of 1% of its mass, as MuJoCo's
// humanoid.xml needs), dropped on the floor from 0.9 m.
inline constexpr const char* kRagdollMjcf = R"(<mujoco model="ragdoll">
  <option timestep="0.005"/>
  <default>
    <geom type="capsule" friction="0.7"/>
    <joint type="hinge" damping="1" limited="true" range="-60 60"/>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 0.05"/>
    <body name="torso" pos="0 0 0.9">
      <freejoint/>
      <geom fromto="0 -0.1 0 0 0.1 0" size="0.08"/>
      <body name="thigh_l" pos="0 0.1 -0.05">
        <joint name="hip_lx" axis="1 0 0"/><joint name="hip_ly" axis="0 1 0"/><joint name="hip_lz" axis="0 0 1"/>
        <geom fromto="0 0 0 0 0 -0.35" size="0.05"/>
        <body name="shin_l" pos="0 0 -0.4">
          <joint name="knee_l" axis="0 1 0" range="0 120"/>
          <geom fromto="0 0 0 0 0 -0.35" size="0.04"/>
          <body name="foot_l" pos="0 0 -0.4">
            <joint name="ankle_lx" axis="1 0 0"/><joint name="ankle_ly" axis="0 1 0"/>
            <geom fromto="-0.05 0 0 0.12 0 0" size="0.03"/>
          </body>
        </body>
      </body>
      <body name="thigh_r" pos="0 -0.1 -0.05">
        <joint name="hip_rx" axis="1 0 0"/><joint name="hip_ry" axis="0 1 0"/><joint name="hip_rz" axis="0 0 1"/>
        <geom fromto="0 0 0 0 0 -0.35" size="0.05"/>
        <body name="shin_r" pos="0 0 -0.4">
          <joint name="knee_r" axis="0 1 0" range="0 120"/>
          <geom fromto="0 0 0 0 0 -0.35" size="0.04"/>
          <body name="foot_r" pos="0 0 -0.4">
            <joint name="ankle_rx" axis="1 0 0"/><joint name="ankle_ry" axis="0 1 0"/>
            <geom fromto="-0.05 0 0 0.12 0 0" size="0.03"/>
          </body>
        </body>
      </body>
      <body name="arm_l" pos="0 0.15 0.05">
        <joint name="shoulder_l1" axis="1 0 0"/><joint name="shoulder_l2" axis="0 1 0"/>
        <geom fromto="0 0 0 0 0.05 -0.3" size="0.035"/>
      </body>
      <body name="arm_r" pos="0 -0.15 0.05">
        <joint name="shoulder_r1" axis="1 0 0"/><joint name="shoulder_r2" axis="0 1 0"/>
        <geom fromto="0 0 0 0 -0.05 -0.3" size="0.035"/>
      </body>
    </body>
  </worldbody>
</mujoco>
)";

}  // namespace test
