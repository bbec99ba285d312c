// Host entry points of the device kernels (sim/cuda/kernels.cu): one launcher per step stage over
// the plain views of sim/src/kernels/views.hpp, whose pointers must be device memory. Each runs
// asynchronously on `stream` and returns cudaGetLastError() (a launch error; execution errors
// surface at the next synchronisation). Plain C++: included by host code compiled without nvcc.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/attachment_row_kernel.hpp"
#include "kernels/body_kernels.hpp"
#include "kernels/contact_frame_kernel.hpp"
#include "kernels/contact_kernels.hpp"
#include "kernels/contact_row_kernels.hpp"
#include "kernels/geometric_stiffness_kernel.hpp"
#include "kernels/bending_row_kernel.hpp"
#include "kernels/joint_coordinate_row_kernels.hpp"
#include "kernels/membrane_row_kernel.hpp"
#include "kernels/row_entry_kernels.hpp"
#include "kernels/shape_box_kernel.hpp"
#include "kernels/tet_row_kernel.hpp"
#include "kernels/unilateral_row_kernel.hpp"
#include "kernels/views.hpp"
#include "sdf/nano_sdf.hpp"

namespace sim::cuda {

// World inertia at q⁻ and ũ per body (eqs. 90, 46); ũ and m⁻¹ per dof per particle.
cudaError_t launch_predict_bodies(const BodyView& bodies, const StateView& start, const LoadView& loads,
                                  const BodyInertiaView& inertia, Real h, Real* u_tilde, cudaStream_t stream);
cudaError_t launch_predict_particles(const ParticleView& particles, const StateView& start, const LoadView& loads,
                                     Real h, Real* u_tilde, Real* inv_mass_per_dof, cudaStream_t stream);
// q = q⁻ + h G(q⁻) u (eq. 63).
cudaError_t launch_integrate_positions(const StateView& start, Real h, Real* q_out, cudaStream_t stream);
// Body poses and particle positions at q.
cudaError_t launch_configuration(const StateView& at, Pose* body_pose_out, Vec3* particle_position_out,
                                 cudaStream_t stream);
// Bodies' frames for collision detection (normalised pose and Rᵀ).
cudaError_t launch_collision_frames(const StateView& at, Pose* pose, Mat3* rotation_t, cudaStream_t stream);
// g = M (u − ũ) − h f (eq. 57).
cudaError_t launch_momentum_residual(const BodyView& bodies, const ParticleView& particles, const MomentumView& mv,
                                     Real h, cudaStream_t stream);
// Particles' geometric stiffness (eqs. 71-74).
cudaError_t launch_geometric_stiffness(const ParticleView& particles, const GeometricStiffnessView& v, int body_count,
                                       cudaStream_t stream);
// out = H⁻¹ in on every node (eq. 72).
cudaError_t launch_inverse_mass(const InverseMassView& v, int node_count, const Real* in, Real* out,
                                cudaStream_t stream);
// Kinetic and potential energy per body and per particle.
cudaError_t launch_energies(const BodyView& bodies, const ParticleView& particles, const StateView& at,
                            const Vec3& gravity, Energy* body_out, Energy* particle_out, cudaStream_t stream);
// NCP terms of unilateral rows [first, first + count) (eqs. 93-98).
cudaError_t launch_unilateral_rows(const UnilateralRowView& view, int first, int count, bool fischer_burmeister,
                                   Real h, cudaStream_t stream);
// out = J z over the rows' (node, block) entries; out = Jᵀ x gathered per node (eq. 59's products).
cudaError_t launch_rows_times(const RowBlocksView& view, const Real* z, Real* out, int rows, cudaStream_t stream);
cudaError_t launch_nodes_transpose_times(const NodeEntriesView& nodes, const Vec6* block_data, const Real* x,
                                         const int* node_dof, const int* node_width, Real* out, int node_count,
                                         cudaStream_t stream);
// Friction compliance W per contact (eqs. 99-106).
cudaError_t launch_friction_w(const Real* slip, const Real* mu_lambda_n, const Real* lambda_f, const Real* r, Real* w,
                              int count, bool fischer_burmeister, cudaStream_t stream);
// Contacts' multipliers from the last step's record, by key (contact_key: count keys).
cudaError_t launch_warm_start(const WarmStartView& record, const std::uint64_t* contact_key, int count,
                              int first_normal, int first_friction, Real* row_lambda, cudaStream_t stream);
// λ_n and λ_f per contact from the rows; the world force on side a per contact.
cudaError_t launch_contact_forces(const ContactLambdaView& lambdas, Real* normal_force, Vec2* friction_force,
                                  cudaStream_t stream);
cudaError_t launch_contact_world_forces(const Vec3* normal, const Vec3* tangent1, const Vec3* tangent2,
                                        const Real* normal_force, const Vec2* friction_force, Vec3* out, int count,
                                        cudaStream_t stream);

// World boxes of `count` shapes (extent, pose and growth per shape) for the broadphase.
cudaError_t launch_shape_world_boxes(const ShapeExtent* extent, const Pose* pose, const Real* grow, detail::Aabb* out,
                                     int count, cudaStream_t stream);
// C and ∇C G of every row at a configuration (constraint/row_assembly.cpp evaluate_rows): per
// joint its bilateral rows (from bilateral_first[j]) and drive and limit rows, per distance row
// first_distance + i, per contact its normal and friction rows.
cudaError_t launch_evaluate_rows(const JointView& joints, const int* bilateral_first,
                                 const JointCoordinateRowsView& coordinate_rows, const DistanceView& distances,
                                 int first_distance, const ContactModelView& model, const ContactRowsView& contact_rows_at,
                                 const ContactGeometryView& contacts, const ConfigurationView& at,
                                 const RowGradientView& rows, cudaStream_t stream);
// The soft bodies' rows over device views, each kind from its first row (RowSet::first_tet
// inside tet_rows, first_attachment, first_membrane, first_bending): FEM tetrahedra (7 rows each,
// eqs. 75-85), particle attachments (3), shell membranes (4) and bending rows (one each); the elastic
// rows also write their compliance E (tet_rows.compliance, shell_rows.compliance).
struct SoftRowsLaunch {
  TetView tets;
  TetRowsView tet_rows;
  AttachmentView attachments;
  int first_attachment;
  MembraneView membranes;
  BendingView bending;
  ElasticRowsView shell_rows;
  int first_membrane;
  int first_bending;
};
cudaError_t launch_evaluate_soft_rows(const SoftRowsLaunch& soft, const ConfigurationView& at,
                                      const RowGradientView& rows, cudaStream_t stream);
// New contacts' friction frames (isotropic disc or matchstick ellipse, thesis eqs. 32-35).
cudaError_t launch_contact_friction_frames(const Vec3* normal, const FrictionCoefficients* coefficients,
                                           const Vec3* grain_a, const Vec3* grain_b, ContactFrictionFrame* out,
                                           int count, cudaStream_t stream);
// Friction multipliers onto each contact's cone at its λ_n (disc, or ellipse where anisotropic).
cudaError_t launch_friction_projection(Real* row_lambda, int first_normal, int first_friction, const Real* mu_t,
                                       const Real* mu_b, const std::uint8_t* anisotropic, int count,
                                       cudaStream_t stream);
// φ and ∇φ of a baked grid (NanoVDB, trilinear, the far field outside the band: nano_sdf.hpp) at
// `count` points of the shape frame; `gradient` may be null. The view's grids must be device
// memory (DeviceSdfGrid, sim/cuda/device_sdf_grid.hpp).
cudaError_t launch_sdf_samples(const detail::SdfGridView& grid, const Vec3* points, int count, Real* phi,
                               Vec3* gradient, cudaStream_t stream);

}  // namespace sim::cuda
