#include "core/kernel_views.hpp"

#include <array>

namespace sim {

BodyView body_view(const Model& model) {
  return BodyView{model.body_inv_mass.data(), model.body_inertia.data(), model.body_inv_inertia.data(),
                  model.body_count};
}

ParticleView particle_view(const Model& model) {
  return ParticleView{model.particle_inv_mass.data(), model.particle_count};
}

StateView state_view(const Model& model, const Real* q, const Real* u) {
  return StateView{q, u, model.body_count, model.particle_count};
}

StateView state_view(const Model& model, const State& state) {
  return state_view(model, state.q.data(), state.u.data());
}

LoadView load_view(const Model& model, const Control& control, const SolverOptions& options) {
  const bool has_wrench = static_cast<int>(control.body_wrench.size()) == model.body_count;
  const bool has_force = static_cast<int>(control.particle_force.size()) == model.particle_count;
  return LoadView{model.gravity, has_wrench ? control.body_wrench.data() : nullptr,
                  has_force ? control.particle_force.data() : nullptr, options.implicit_gyroscopic};
}

JointView joint_view(const Model& m) {
  return JointView{m.joint_type.data(), m.joint_body_a.data(), m.joint_body_b.data(), m.joint_frame_a.data(),
                   m.joint_frame_b.data(), m.joint_axis.data(), m.joint_lower.data(), m.joint_upper.data(),
                   m.joint_count};
}

DistanceView distance_view(const Model& m) {
  return DistanceView{m.distance_particle_a.data(), m.distance_particle_b.data(), m.distance_rest.data(),
                      m.distance_count};
}

ShapeView shape_view(const Model& m) {
  return ShapeView{m.shape_type.data(), m.shape_body.data(), m.shape_local.data(), m.shape_radius.data(),
                   m.shape_half_length.data(), m.shape_count};
}

// Model::particle_triangles holds std::array<int, 3>, three ints with no padding: read as int[3 n].
static_assert(sizeof(std::array<int, 3>) == 3 * sizeof(int), "particle_triangles must be packed ints");
ParticleFaceView particle_face_view(const Model& m) {
  return ParticleFaceView{m.particle_triangles.empty() ? nullptr : m.particle_triangles.front().data(),
                          static_cast<int>(m.particle_triangles.size())};
}

ContactModelView contact_model_view(const Model& m) {
  return ContactModelView{shape_view(m), particle_face_view(m), distance_view(m)};
}

ConfigurationView configuration_view(const Configuration& c) {
  return ConfigurationView{c.body_pose.data(), c.particle_position.data()};
}

}  // namespace sim
