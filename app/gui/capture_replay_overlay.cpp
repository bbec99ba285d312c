#include "gui/capture_replay_overlay.hpp"

#include <cmath>

#include "render/element_field.hpp"

namespace coulomb::gui {

const sim::State* replay_pose_state(const sim::Model& model, const sim::SolveCapture* capture, bool replay_shown,
                                    bool playing) {
  if (!capture || !capture->filled || !replay_shown || playing) return nullptr;
  return static_cast<int>(capture->start.q.size()) == model.coord_count() ? &capture->start : nullptr;
}

glm::vec3 replay_mark_color(const ui::CaptureReplay& replay, const ui::ReplayMark& mark) {
  if (ui::replay_quantity_continuous(replay.quantity))
    return render::field_color(ui::replay_map_position(replay, mark), render::FieldRange{0.0f, 1.0f});
  const std::array<float, 3> c = ui::replay_state_color(mark.state);
  return glm::vec3(c[0], c[1], c[2]);
}

std::string fill_replay_overlay(const sim::Model& model, const sim::SolveCapture& capture,
                                std::span<const sim::Contact> contacts, const ui::CaptureReplay& replay,
                                render::ContactOverlay& out) {
  out.clear();
  const sim::State& start = capture.start;
  if (!capture.filled || static_cast<int>(start.q.size()) != model.coord_count()) return "no solve captured";
  std::string note;
  const bool have_contacts = static_cast<int>(contacts.size()) == capture.contact_count;
  if (have_contacts) {
    render::copy_contacts(model, start, contacts, replay.normal_force, replay.friction_force, out);
  } else {
    note = "the captured step's contacts were not kept (" + std::to_string(contacts.size()) + " for " +
           std::to_string(capture.contact_count) + " captured): contacts not drawn";
  }
  for (const ui::ReplayMark& mark : replay.marks) {
    glm::vec3 p(0.0f), force(0.0f);
    if (mark.contact >= 0) {
      if (!have_contacts) continue;
      p = out.point[static_cast<std::size_t>(mark.contact)];
    } else if (mark.joint >= 0 && mark.joint < model.joint_count) {
      const auto j = static_cast<std::size_t>(mark.joint);
      const int body = model.joint_body_a[j];
      const sim::Vec3 local = model.joint_frame_a[j].pos;
      const sim::Vec3 world = body >= 0 ? start.body_pose(body).apply(local) : local;
      p = glm::vec3(float(world.x()), float(world.y()), float(world.z()));
      if (j < replay.joint_force.size() && std::isfinite(replay.joint_force[j].norm())) {  // non-finite: no arrow
        const sim::Vec3& f = replay.joint_force[j];
        force = glm::vec3(float(f.x()), float(f.y()), float(f.z()));
      }
    } else if (mark.distance >= 0 && mark.distance < model.distance_count) {
      // A rope's or cloth's distance row: at the midpoint of its two particles.
      const auto d = static_cast<std::size_t>(mark.distance);
      sim::Vec3 mid = sim::Vec3::Zero();
      for (const int particle : {model.distance_particle_a[d], model.distance_particle_b[d]}) {
        const std::size_t at = 7 * static_cast<std::size_t>(model.body_count) + 3 * static_cast<std::size_t>(particle);
        mid += 0.5 * sim::Vec3(start.q[at], start.q[at + 1], start.q[at + 2]);
      }
      p = glm::vec3(float(mid.x()), float(mid.y()), float(mid.z()));
      if (d < replay.distance_force.size() && std::isfinite(replay.distance_force[d].norm())) {  // non-finite: no arrow
        const sim::Vec3& f = replay.distance_force[d];
        force = glm::vec3(float(f.x()), float(f.y()), float(f.z()));
      }
    } else if (mark.element >= 0 && mark.element < capture.rows.count()) {
      // A soft body's element or an attachment: at the mean of its row's nodes as the step began.
      const auto row = static_cast<std::size_t>(mark.element);
      const int first = capture.rows.node_first[row], last = capture.rows.node_first[row + 1];
      if (last <= first) continue;
      sim::Vec3 mean = sim::Vec3::Zero();
      for (int e = first; e < last; ++e) {
        const int node = capture.rows.node[static_cast<std::size_t>(e)];
        if (node < model.body_count) {
          mean += start.body_pose(node).pos;
        } else {
          const std::size_t at = 7 * static_cast<std::size_t>(model.body_count) + 3 * static_cast<std::size_t>(node - model.body_count);
          mean += sim::Vec3(start.q[at], start.q[at + 1], start.q[at + 2]);
        }
      }
      mean /= static_cast<sim::Real>(last - first);
      p = glm::vec3(float(mean.x()), float(mean.y()), float(mean.z()));
    } else {
      continue;
    }
    out.mark_point.push_back(p);
    out.mark_color.push_back(replay_mark_color(replay, mark));
    out.mark_force.push_back(force);
  }
  return note;
}

}  // namespace coulomb::gui
