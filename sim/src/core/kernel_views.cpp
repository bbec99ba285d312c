#include "core/kernel_views.hpp"

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

LoadView load_view(const Model& model, const Control& control) {
  const bool has_wrench = static_cast<int>(control.body_wrench.size()) == model.body_count;
  const bool has_force = static_cast<int>(control.particle_force.size()) == model.particle_count;
  return LoadView{model.gravity, has_wrench ? control.body_wrench.data() : nullptr,
                  has_force ? control.particle_force.data() : nullptr};
}

}  // namespace sim
