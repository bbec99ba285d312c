// Structural edits of a SceneSpec that keep its cross references (joint body indices, robot
// include ranges) consistent.
#include "sim/spec.hpp"

#include <algorithm>

namespace sim {

void add_resource_file(SceneSpec& spec, const std::string& path) {
  if (!path.empty() && std::find(spec.resource_files.begin(), spec.resource_files.end(), path) == spec.resource_files.end())
    spec.resource_files.push_back(path);
}

int robot_of_body(const SceneSpec& spec, int body) {
  for (std::size_t r = 0; r < spec.robots.size(); ++r) {
    const RobotIncludeSpec& robot = spec.robots[r];
    if (body >= robot.first_body && body < robot.first_body + robot.body_count) return static_cast<int>(r);
  }
  return -1;
}

int robot_of_joint(const SceneSpec& spec, int joint) {
  for (std::size_t r = 0; r < spec.robots.size(); ++r) {
    const RobotIncludeSpec& robot = spec.robots[r];
    if (joint >= robot.first_joint && joint < robot.first_joint + robot.joint_count) return static_cast<int>(r);
  }
  return -1;
}

std::string erase_body(SceneSpec& spec, int body) {
  if (body < 0 || body >= static_cast<int>(spec.bodies.size())) return "no body " + std::to_string(body);
  if (const int r = robot_of_body(spec, body); r >= 0)
    return "body '" + spec.bodies[static_cast<std::size_t>(body)].name + "' belongs to the robot included from '" +
           spec.robots[static_cast<std::size_t>(r)].file + "'; remove its <robot> element instead";
  // Joints that use the body go too; a robot's own joints only join its own bodies, so none of
  // them is among these (scene joints that attach to a robot body may be).
  std::vector<JointSpec> joints;
  std::vector<int> removed_before(spec.joints.size() + 1, 0);
  for (std::size_t i = 0; i < spec.joints.size(); ++i) {
    JointSpec j = spec.joints[i];
    removed_before[i + 1] = removed_before[i];
    if (j.body_a == body || j.body_b == body) {
      ++removed_before[i + 1];
      continue;
    }
    if (j.body_a > body) --j.body_a;
    if (j.body_b > body) --j.body_b;
    joints.push_back(std::move(j));
  }
  spec.joints = std::move(joints);
  spec.bodies.erase(spec.bodies.begin() + body);
  for (RobotIncludeSpec& robot : spec.robots) {
    if (robot.first_body > body) --robot.first_body;
    robot.first_joint -= removed_before[static_cast<std::size_t>(robot.first_joint)];
    for (JointSpec& j : robot.imported_joints) {
      if (j.body_a > body) --j.body_a;
      if (j.body_b > body) --j.body_b;
    }
  }
  return {};
}

}  // namespace sim
