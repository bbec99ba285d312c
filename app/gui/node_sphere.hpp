// The sphere around some nodes of a solve's rows (bodies 0..body_count-1, then particles): the
// camera frames a Solve capture row's bodies with it (issue 15 item 2: a contact couples two, a
// joint two, an FEM row four). Each body counts as its bounding sphere (at least 5 cm), each
// particle as ten radii (at least 10 cm), as ViewportWindow::frame_item frames one.
#pragma once

#include <span>

#include "sim/math.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

namespace coulomb::gui {

struct NodeSphere {
  sim::Vec3 center = sim::Vec3::Zero();
  double radius = 0;  // 0: no node of the model among them
};

// The box around the nodes' spheres, as its centre and half diagonal. Nodes outside the model are
// skipped.
NodeSphere node_sphere(const sim::Model& model, const sim::State& state, std::span<const int> nodes);

}  // namespace coulomb::gui
