#include "gui/node_sphere.hpp"

#include <algorithm>

namespace coulomb::gui {

NodeSphere node_sphere(const sim::Model& model, const sim::State& state, std::span<const int> nodes) {
  NodeSphere out;
  if (static_cast<int>(state.q.size()) != model.coord_count()) return out;
  sim::Vec3 lo = sim::Vec3::Constant(1e300), hi = sim::Vec3::Constant(-1e300);
  bool any = false;
  for (int node : nodes) {
    sim::Vec3 p;
    double r = 0;
    if (node >= 0 && node < model.body_count) {
      p = state.body_position(node);
      r = std::max<double>(model.body_bound_radius[static_cast<std::size_t>(node)], 0.05);
    } else if (node >= model.body_count && node < model.body_count + model.particle_count) {
      const int particle = node - model.body_count;
      const auto c = static_cast<std::size_t>(model.particle_coord(particle));
      p = sim::Vec3(state.q[c], state.q[c + 1], state.q[c + 2]);
      r = std::max<double>(10 * model.particle_radius[static_cast<std::size_t>(particle)], 0.1);
    } else {
      continue;
    }
    lo = lo.cwiseMin(p - sim::Vec3::Constant(r));
    hi = hi.cwiseMax(p + sim::Vec3::Constant(r));
    any = true;
  }
  if (!any) return out;
  out.center = 0.5 * (lo + hi);
  out.radius = 0.5 * (hi - lo).norm();
  return out;
}

}  // namespace coulomb::gui
