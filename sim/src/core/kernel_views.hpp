// The host side of the kernel layer: plain views (kernels/views.hpp) of the std::vector-owning
// Model, State and Control, made once per call on the host and passed by value to the kernels.
// A view does not own or resize anything: its arrays must outlive it and keep their size.
#pragma once

#include "core/kinematics.hpp"
#include "kernels/contact_row_kernels.hpp"
#include "kernels/views.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

namespace sim {

BodyView body_view(const Model& model);
ParticleView particle_view(const Model& model);
// q and u laid out as State::q / State::u for `model` (coord_count and dof_count entries).
StateView state_view(const Model& model, const Real* q, const Real* u);
StateView state_view(const Model& model, const State& state);
// Gravity and the control's wrenches and particle forces (null where the control does not hold
// one per body / per particle), and the options' choice of gyroscopic term.
LoadView load_view(const Model& model, const Control& control, const SolverOptions& options);
// The joint, distance, shape and cloth-face arrays the row kinds' kernels read.
JointView joint_view(const Model& model);
DistanceView distance_view(const Model& model);
ShapeView shape_view(const Model& model);
ParticleFaceView particle_face_view(const Model& model);
ContactModelView contact_model_view(const Model& model);
// The poses and positions of a Configuration.
ConfigurationView configuration_view(const Configuration& c);

}  // namespace sim
