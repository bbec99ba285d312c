#include "gui/state_remap.hpp"

#include <algorithm>
#include <unordered_map>

namespace coulomb::gui {

namespace {

std::unordered_map<std::string, int> index_by_name(const std::vector<std::string>& names) {
  std::unordered_map<std::string, int> out;
  for (std::size_t i = 0; i < names.size(); ++i) out.emplace(names[i], static_cast<int>(i));
  return out;
}

}  // namespace

sim::State remap_state(const sim::Model& old_model, const sim::State& old_state, const sim::Model& new_model,
                       const std::vector<std::string>& restart_bodies) {
  sim::State out = sim::make_initial_state(new_model);
  out.time = old_state.time;
  out.step_index = old_state.step_index;
  if (static_cast<int>(old_state.q.size()) != old_model.coord_count() ||
      static_cast<int>(old_state.u.size()) != old_model.dof_count())
    return out;

  const auto old_bodies = index_by_name(old_model.body_name);
  for (int b = 0; b < new_model.body_count; ++b) {
    const std::string& name = new_model.body_name[static_cast<std::size_t>(b)];
    if (std::find(restart_bodies.begin(), restart_bodies.end(), name) != restart_bodies.end()) continue;
    const auto it = old_bodies.find(name);
    if (it == old_bodies.end()) continue;
    const int a = it->second;
    // World pose of the authored body frame, then the new com frame inside it.
    const sim::Pose frame = old_state.body_pose(a) * old_model.body_frame_in_com[static_cast<std::size_t>(a)];
    sim::Pose com = frame * new_model.body_frame_in_com[static_cast<std::size_t>(b)].inverse();
    com.rot.normalize();
    out.set_body_pose(b, com);
    const sim::Vec3 v = old_state.body_velocity(a);
    const sim::Vec3 w = old_state.body_angular_velocity(a);
    const sim::Vec3 moved = com.pos - old_state.body_position(a);
    const sim::Vec3 v_new = v + w.cross(moved);
    const int d = new_model.body_dof(b);
    for (int k = 0; k < 3; ++k) {
      out.u[static_cast<std::size_t>(d + k)] = v_new[k];
      out.u[static_cast<std::size_t>(d + 3 + k)] = w[k];
    }
  }

  // Joint coordinates from the remapped poses, on the branch of the old joint of the same name
  // (a wheel keeps its turns). The warm-start record stays empty: its rows and contact keys
  // belong to the old model (a fresh start costs a Newton iteration or two, nothing more).
  sim::reset_joint_positions(new_model, out);
  const auto old_joints = index_by_name(old_model.joint_name);
  const bool old_positions = static_cast<int>(old_state.joint_position.size()) == old_model.joint_count;
  for (int j = 0; old_positions && j < new_model.joint_count; ++j) {
    const auto it = old_joints.find(new_model.joint_name[static_cast<std::size_t>(j)]);
    if (it == old_joints.end() || old_model.joint_type[static_cast<std::size_t>(it->second)] != new_model.joint_type[static_cast<std::size_t>(j)])
      continue;
    out.joint_position[static_cast<std::size_t>(j)] = old_state.joint_position[static_cast<std::size_t>(it->second)];
    out.joint_position[static_cast<std::size_t>(j)] = sim::joint_position(new_model, out, j);
  }

  const int particles = std::min(old_model.particle_count, new_model.particle_count);
  for (int p = 0; p < particles; ++p) {
    for (int k = 0; k < 3; ++k) {
      out.q[static_cast<std::size_t>(new_model.particle_coord(p) + k)] =
          old_state.q[static_cast<std::size_t>(old_model.particle_coord(p) + k)];
      out.u[static_cast<std::size_t>(new_model.particle_dof(p) + k)] =
          old_state.u[static_cast<std::size_t>(old_model.particle_dof(p) + k)];
    }
  }
  return out;
}

sim::Control remap_control(const sim::Model& old_model, const sim::Control& old_control, const sim::Model& new_model) {
  sim::Control out = sim::make_initial_control(new_model);
  const auto old_joints = index_by_name(old_model.joint_name);
  for (int j = 0; j < new_model.joint_count; ++j) {
    const auto it = old_joints.find(new_model.joint_name[static_cast<std::size_t>(j)]);
    if (it == old_joints.end()) continue;
    const auto a = static_cast<std::size_t>(it->second);
    if (a < old_control.joint_target.size()) out.joint_target[static_cast<std::size_t>(j)] = old_control.joint_target[a];
    if (a < old_control.joint_target_velocity.size())
      out.joint_target_velocity[static_cast<std::size_t>(j)] = old_control.joint_target_velocity[a];
  }
  return out;
}

}  // namespace coulomb::gui
