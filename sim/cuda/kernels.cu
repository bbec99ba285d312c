// The kernel layer compiled for the device: nvcc instantiates every SIM_HD kernel of
// sim/src/kernels/ (and the NCP and friction-cone functions of sim/src/solver/ncp.hpp and
// sim/src/constraint/friction_cone.hpp) in a __global__ wrapper
// over the same plain views the CPU loops use, one thread per body, particle, row or contact.
// Built whenever nvcc is found (CI compiles it; no GPU runs here), which proves the seam compiles
// for the device; the host launchers below are what the CUDA backend will call.
#include <cuda_runtime.h>

#include "cuda/launchers.hpp"
#include "kernels/attachment_row_kernel.hpp"
#include "kernels/body_kernels.hpp"
#include "kernels/compliant_row_kernel.hpp"
#include "kernels/contact_frame_kernel.hpp"
#include "kernels/contact_kernels.hpp"
#include "kernels/contact_row_kernels.hpp"
#include "kernels/distance_row_kernel.hpp"
#include "kernels/friction_projection_kernel.hpp"
#include "kernels/geometric_stiffness_kernel.hpp"
#include "kernels/bending_row_kernel.hpp"
#include "kernels/inverse_mass_kernel.hpp"
#include "kernels/joint_coordinate_row_kernels.hpp"
#include "kernels/joint_row_kernels.hpp"
#include "kernels/membrane_row_kernel.hpp"
#include "kernels/particle_kernels.hpp"
#include "kernels/row_entry_kernels.hpp"
#include "kernels/shape_box_kernel.hpp"
#include "kernels/tet_row_kernel.hpp"
#include "kernels/unilateral_row_kernel.hpp"
#include "kernels/views.hpp"
#include "solver/ncp.hpp"

namespace sim::cuda {

namespace {

constexpr int kBlock = 256;

__device__ inline int thread_index() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }
inline int grid_for(int count) { return (count + kBlock - 1) / kBlock; }

}  // namespace

// ---- per body --------------------------------------------------------------------------------

// World inertia at q⁻ (eq. 90) and ũ (eq. 46), as the CPU's setup loop: inertia first, then ũ.
__global__ void predict_bodies(BodyView bodies, StateView start, LoadView loads, BodyInertiaView inertia, Real h,
                               Real* u_tilde) {
  const int b = thread_index();
  if (b >= bodies.count) return;
  body_world_inertia(bodies, start, b, inertia);
  predict_body_velocity(bodies, start, loads, inertia.inertia_world, inertia.inv_inertia_world, h, b, u_tilde);
}

__global__ void integrate_bodies(StateView start, Real h, Real* q_out) {
  const int b = thread_index();
  if (b < start.body_count) integrate_body(start, h, b, q_out);
}

__global__ void body_poses(StateView at, Pose* out) {
  const int b = thread_index();
  if (b < at.body_count) out[b] = body_pose(at, b);
}

__global__ void body_collision_frames(StateView at, Pose* pose, Mat3* rotation_t) {
  const int b = thread_index();
  if (b < at.body_count) body_collision_frame(at, b, pose, rotation_t);
}

__global__ void body_momentum_residuals(BodyView bodies, MomentumView mv, Real h) {
  const int b = thread_index();
  if (b < bodies.count) body_momentum_residual(bodies, mv, h, b);
}

__global__ void body_energies(BodyView bodies, StateView at, Vec3 gravity, Energy* out) {
  const int b = thread_index();
  if (b < bodies.count) out[b] = body_energy(bodies, at, gravity, b);
}

// ---- per particle ----------------------------------------------------------------------------

__global__ void predict_particles(ParticleView particles, StateView start, LoadView loads, Real h, Real* u_tilde,
                                  Real* inv_mass_per_dof) {
  const int p = thread_index();
  if (p < particles.count) predict_particle_velocity(particles, start, loads, h, p, u_tilde, inv_mass_per_dof);
}

__global__ void integrate_particles(StateView start, Real h, Real* q_out) {
  const int p = thread_index();
  if (p < start.particle_count) integrate_particle(start, h, p, q_out);
}

__global__ void particle_positions(StateView at, Vec3* out) {
  const int p = thread_index();
  if (p < at.particle_count) out[p] = at.particle_position(p);
}

__global__ void particle_momentum_residuals(ParticleView particles, MomentumView mv, int body_count, Real h) {
  const int p = thread_index();
  if (p < particles.count) particle_momentum_residual(particles, mv, body_count, h, p);
}

__global__ void particle_energies(ParticleView particles, StateView at, Vec3 gravity, Energy* out) {
  const int p = thread_index();
  if (p < particles.count) out[p] = particle_energy(particles, at, gravity, p);
}

__global__ void particle_geometric_stiffness(ParticleView particles, GeometricStiffnessView v, int body_count) {
  const int p = thread_index();
  if (p < particles.count) update_particle_geometric_stiffness(particles, v, body_count, p);
}

// ---- per node (bodies, then particles) -------------------------------------------------------

// out = H⁻¹ in on every node (eq. 60's Δu = H⁻¹(Jᵀx − g), the Schur operator's middle factor).
__global__ void inverse_mass_nodes(InverseMassView v, int node_count, const Real* in, Real* out) {
  const int n = thread_index();
  if (n >= node_count) return;
  const int dof = node_dof_offset(v.body_count, n);
  apply_inverse_mass(v, n, in + dof, out + dof);
}

// ---- per shape -------------------------------------------------------------------------------

// World boxes for the broadphase: each shape's extent at its pose, grown by its own margin.
__global__ void shape_world_boxes(const ShapeExtent* extent, const Pose* pose, const Real* grow, detail::Aabb* out,
                                  int count) {
  const int s = thread_index();
  if (s < count) out[s] = shape_world_box(extent[s], pose[s], grow[s]);
}

// ---- row evaluation (C and ∇C G at a configuration) ------------------------------------------

// Per joint: its bilateral rows from bilateral_first[j], then its drive and limit rows.
__global__ void joint_rows(JointView joints, ConfigurationView at, RowGradientView rows, const int* bilateral_first,
                           JointCoordinateRowsView coordinate_rows) {
  const int j = thread_index();
  if (j >= joints.count) return;
  evaluate_joint_rows(joints, at, rows, j, bilateral_first[j]);
  evaluate_joint_coordinate_rows(joints, at, rows, coordinate_rows, j);
}

// Per particle distance: row first + i.
__global__ void distance_rows(DistanceView distances, ConfigurationView at, RowGradientView rows, int first) {
  const int i = thread_index();
  if (i < distances.count) evaluate_distance_row(distances, at, rows, i, first + i);
}

// Per contact: its normal row and its two friction rows.
__global__ void contact_rows(ContactModelView model, ConfigurationView at, RowGradientView rows,
                             ContactRowsView contact_rows_at, ContactGeometryView contacts) {
  const int c = thread_index();
  if (c >= contacts.count) return;
  evaluate_contact_rows(model, at, rows, contact_rows_at, c, contacts.side_a[c], contacts.side_b[c],
                        contacts.shape_a[c], contacts.shape_b[c], contacts.normal[c], contacts.tangent1[c],
                        contacts.tangent2[c], contacts.thickness[c]);
}

// Per FEM tetrahedron: its seven rows in generalized compliance form (eqs. 75-85).
__global__ void tet_rows(TetView tets, ConfigurationView at, RowGradientView rows, TetRowsView tet_rows_at) {
  const int i = thread_index();
  if (i < tets.count) evaluate_tet_rows(tets, at, rows, tet_rows_at, i);
}

// Per particle attachment: its three rows from first + 3 i.
__global__ void attachment_rows(AttachmentView attachments, ConfigurationView at, RowGradientView rows, int first) {
  const int i = thread_index();
  if (i < attachments.count) evaluate_attachment_rows(attachments, at, rows, i, first);
}

// Per shell triangle: its four membrane rows from first + 4 i.
__global__ void membrane_rows(MembraneView membranes, ConfigurationView at, RowGradientView rows,
                              ElasticRowsView elastic, int first) {
  const int i = thread_index();
  if (i < membranes.count) evaluate_membrane_rows(membranes, at, rows, elastic, first, i);
}

// Per shell bending row: row first + i.
__global__ void bending_rows(BendingView bending, ConfigurationView at, RowGradientView rows, ElasticRowsView elastic,
                             int first) {
  const int i = thread_index();
  if (i < bending.count) evaluate_bending_row(bending, at, rows, elastic, first, i);
}

// ---- per row (NCP terms) ---------------------------------------------------------------------

__global__ void unilateral_rows(UnilateralRowView view, int first, int count, bool fischer_burmeister, Real h) {
  const int i = first + thread_index();
  if (i < first + count) evaluate_unilateral_row(view, i, fischer_burmeister, h);
}

// Bilateral rows [first, first + count): NCP terms and J = ∇C G.
__global__ void bilateral_rows(CompliantRowView view, const int* row_entry_first, const Vec6* grad, Vec6* jac,
                               int first, int count, Real h) {
  const int i = first + thread_index();
  if (i >= first + count) return;
  evaluate_bilateral_row(view, i, h);
  copy_row_blocks(row_entry_first, grad, jac, i);
}

// Drive rows [first, first + count) with their velocities ∇θ G u (one per row): NCP terms and J.
__global__ void drive_rows(CompliantRowView view, const int* row_entry_first, const Vec6* grad, Vec6* jac,
                           const Real* velocity, int first, int count, Real h) {
  const int k = thread_index();
  if (k >= count) return;
  const int i = first + k;
  if (evaluate_drive_row_ncp(view, i, velocity[k], h) > 0)
    copy_row_blocks(row_entry_first, grad, jac, i);
  else
    zero_row_blocks(row_entry_first, jac, i);
}

// out = J z over the rows' (node, block) entries (rows over any number of nodes).
__global__ void rows_times(RowBlocksView view, const Real* z, Real* out, int rows) {
  const int i = thread_index();
  if (i < rows) out[i] = row_times(view, i, z);
}

// out = Jᵀ x gathered per node (each thread one node; its entries in row order).
__global__ void nodes_transpose_times(NodeEntriesView nodes, const Vec6* block, const Real* x, const int* node_dof,
                                      const int* node_width, Real* out, int node_count) {
  const int n = thread_index();
  if (n >= node_count) return;
  const Vec6 acc = node_transpose_times(nodes, block, n, x);
  for (int k = 0; k < node_width[n]; ++k) out[node_dof[n] + k] = acc[k];
}

// ---- per contact -----------------------------------------------------------------------------

// Friction compliance W (eqs. 99-106) per contact: v = |Dᵀu|, μλ_n, |λ_f|, r in; W out.
__global__ void friction_w(const Real* slip, const Real* mu_lambda_n, const Real* lambda_f, const Real* r, Real* w,
                           int count, bool fischer_burmeister) {
  const int c = thread_index();
  if (c >= count) return;
  w[c] = fischer_burmeister ? friction_w_fischer_burmeister(slip[c], mu_lambda_n[c], lambda_f[c], r[c])
                            : friction_w_min_map(slip[c], mu_lambda_n[c], lambda_f[c], r[c]);
}

// The friction frame of each new contact from its combined coefficients and grains (zero: none).
__global__ void contact_friction_frames(const Vec3* normal, const FrictionCoefficients* coefficients,
                                        const Vec3* grain_a, const Vec3* grain_b, ContactFrictionFrame* out,
                                        int count) {
  const int c = thread_index();
  if (c < count) out[c] = contact_friction_frame(normal[c], coefficients[c], grain_a[c], grain_b[c]);
}

// Friction multipliers back onto each contact's cone (disc or ellipse) at its λ_n.
__global__ void friction_projections(Real* row_lambda, int first_normal, int first_friction, const Real* mu_t,
                                     const Real* mu_b, const std::uint8_t* anisotropic, int count) {
  const int c = thread_index();
  if (c < count) project_contact_friction(row_lambda, first_normal, first_friction, c, mu_t[c], mu_b[c], anisotropic[c] != 0);
}

__global__ void warm_start_contacts(WarmStartView record, const std::uint64_t* contact_key, int count,
                                    int first_normal, int first_friction, Real* row_lambda) {
  const int c = thread_index();
  if (c < count) warm_start_contact(record, contact_key[c], c, first_normal, first_friction, row_lambda);
}

__global__ void contact_forces(ContactLambdaView lambdas, Real* normal_force, Vec2* friction_force) {
  const int c = thread_index();
  if (c < lambdas.count) read_contact_force(lambdas, c, normal_force, friction_force);
}

// World force on side a per contact, from the frozen frames (normal, tangent1, tangent2 arrays).
__global__ void contact_world_forces(const Vec3* normal, const Vec3* tangent1, const Vec3* tangent2,
                                     const Real* normal_force, const Vec2* friction_force, Vec3* out, int count) {
  const int c = thread_index();
  if (c < count) out[c] = contact_world_force(normal[c], tangent1[c], tangent2[c], normal_force[c], friction_force[c]);
}

// ---- host-side launchers (asynchronous on `stream`): the CUDA backend's entry points ------------

cudaError_t launch_predict_bodies(const BodyView& bodies, const StateView& start, const LoadView& loads,
                                  const BodyInertiaView& inertia, Real h, Real* u_tilde, cudaStream_t stream) {
  if (bodies.count <= 0) return cudaSuccess;
  predict_bodies<<<grid_for(bodies.count), kBlock, 0, stream>>>(bodies, start, loads, inertia, h, u_tilde);
  return cudaGetLastError();
}

cudaError_t launch_predict_particles(const ParticleView& particles, const StateView& start, const LoadView& loads,
                                     Real h, Real* u_tilde, Real* inv_mass_per_dof, cudaStream_t stream) {
  if (particles.count <= 0) return cudaSuccess;
  predict_particles<<<grid_for(particles.count), kBlock, 0, stream>>>(particles, start, loads, h, u_tilde,
                                                                       inv_mass_per_dof);
  return cudaGetLastError();
}

// q = q⁻ + h G(q⁻) u (eq. 63) for every body and particle.
cudaError_t launch_integrate_positions(const StateView& start, Real h, Real* q_out, cudaStream_t stream) {
  if (start.body_count > 0) integrate_bodies<<<grid_for(start.body_count), kBlock, 0, stream>>>(start, h, q_out);
  if (start.particle_count > 0)
    integrate_particles<<<grid_for(start.particle_count), kBlock, 0, stream>>>(start, h, q_out);
  return cudaGetLastError();
}

// The configuration the rows read: body poses and particle positions at q.
cudaError_t launch_configuration(const StateView& at, Pose* body_pose_out, Vec3* particle_position_out,
                                 cudaStream_t stream) {
  if (at.body_count > 0) body_poses<<<grid_for(at.body_count), kBlock, 0, stream>>>(at, body_pose_out);
  if (at.particle_count > 0)
    particle_positions<<<grid_for(at.particle_count), kBlock, 0, stream>>>(at, particle_position_out);
  return cudaGetLastError();
}

cudaError_t launch_collision_frames(const StateView& at, Pose* pose, Mat3* rotation_t, cudaStream_t stream) {
  if (at.body_count <= 0) return cudaSuccess;
  body_collision_frames<<<grid_for(at.body_count), kBlock, 0, stream>>>(at, pose, rotation_t);
  return cudaGetLastError();
}

// g = M (u − ũ) − h f (eq. 57) for every body and particle.
cudaError_t launch_momentum_residual(const BodyView& bodies, const ParticleView& particles, const MomentumView& mv,
                                     Real h, cudaStream_t stream) {
  if (bodies.count > 0) body_momentum_residuals<<<grid_for(bodies.count), kBlock, 0, stream>>>(bodies, mv, h);
  if (particles.count > 0)
    particle_momentum_residuals<<<grid_for(particles.count), kBlock, 0, stream>>>(particles, mv, bodies.count, h);
  return cudaGetLastError();
}

cudaError_t launch_geometric_stiffness(const ParticleView& particles, const GeometricStiffnessView& v, int body_count,
                                       cudaStream_t stream) {
  if (particles.count <= 0) return cudaSuccess;
  particle_geometric_stiffness<<<grid_for(particles.count), kBlock, 0, stream>>>(particles, v, body_count);
  return cudaGetLastError();
}

cudaError_t launch_inverse_mass(const InverseMassView& v, int node_count, const Real* in, Real* out,
                                cudaStream_t stream) {
  if (node_count <= 0) return cudaSuccess;
  inverse_mass_nodes<<<grid_for(node_count), kBlock, 0, stream>>>(v, node_count, in, out);
  return cudaGetLastError();
}

// Per-entity energies (summed on the host or by a reduction kernel of the backend).
cudaError_t launch_energies(const BodyView& bodies, const ParticleView& particles, const StateView& at,
                            const Vec3& gravity, Energy* body_out, Energy* particle_out, cudaStream_t stream) {
  if (bodies.count > 0) body_energies<<<grid_for(bodies.count), kBlock, 0, stream>>>(bodies, at, gravity, body_out);
  if (particles.count > 0)
    particle_energies<<<grid_for(particles.count), kBlock, 0, stream>>>(particles, at, gravity, particle_out);
  return cudaGetLastError();
}

cudaError_t launch_unilateral_rows(const UnilateralRowView& view, int first, int count, bool fischer_burmeister,
                                   Real h, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  unilateral_rows<<<grid_for(count), kBlock, 0, stream>>>(view, first, count, fischer_burmeister, h);
  return cudaGetLastError();
}

cudaError_t launch_friction_w(const Real* slip, const Real* mu_lambda_n, const Real* lambda_f, const Real* r, Real* w,
                              int count, bool fischer_burmeister, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  friction_w<<<grid_for(count), kBlock, 0, stream>>>(slip, mu_lambda_n, lambda_f, r, w, count, fischer_burmeister);
  return cudaGetLastError();
}

cudaError_t launch_rows_times(const RowBlocksView& view, const Real* z, Real* out, int rows, cudaStream_t stream) {
  if (rows <= 0) return cudaSuccess;
  rows_times<<<grid_for(rows), kBlock, 0, stream>>>(view, z, out, rows);
  return cudaGetLastError();
}

cudaError_t launch_nodes_transpose_times(const NodeEntriesView& nodes, const Vec6* block_data, const Real* x,
                                         const int* node_dof, const int* node_width, Real* out, int node_count,
                                         cudaStream_t stream) {
  if (node_count <= 0) return cudaSuccess;
  nodes_transpose_times<<<grid_for(node_count), kBlock, 0, stream>>>(nodes, block_data, x, node_dof, node_width, out,
                                                                      node_count);
  return cudaGetLastError();
}

cudaError_t launch_warm_start(const WarmStartView& record, const std::uint64_t* contact_key, int count,
                              int first_normal, int first_friction, Real* row_lambda, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  warm_start_contacts<<<grid_for(count), kBlock, 0, stream>>>(record, contact_key, count, first_normal, first_friction,
                                                               row_lambda);
  return cudaGetLastError();
}

cudaError_t launch_contact_forces(const ContactLambdaView& lambdas, Real* normal_force, Vec2* friction_force,
                                  cudaStream_t stream) {
  if (lambdas.count <= 0) return cudaSuccess;
  contact_forces<<<grid_for(lambdas.count), kBlock, 0, stream>>>(lambdas, normal_force, friction_force);
  return cudaGetLastError();
}

cudaError_t launch_contact_world_forces(const Vec3* normal, const Vec3* tangent1, const Vec3* tangent2,
                                        const Real* normal_force, const Vec2* friction_force, Vec3* out, int count,
                                        cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  contact_world_forces<<<grid_for(count), kBlock, 0, stream>>>(normal, tangent1, tangent2, normal_force,
                                                                friction_force, out, count);
  return cudaGetLastError();
}

cudaError_t launch_shape_world_boxes(const ShapeExtent* extent, const Pose* pose, const Real* grow, detail::Aabb* out,
                                     int count, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  shape_world_boxes<<<grid_for(count), kBlock, 0, stream>>>(extent, pose, grow, out, count);
  return cudaGetLastError();
}

namespace {
__global__ void sdf_samples(detail::SdfGridView grid, const Vec3* points, int count, Real* phi, Vec3* gradient) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= count) return;
  detail::NanoSdf field(grid);
  phi[i] = field.eval(points[i], gradient ? gradient + i : nullptr);
}
}  // namespace

cudaError_t launch_sdf_samples(const detail::SdfGridView& grid, const Vec3* points, int count, Real* phi,
                               Vec3* gradient, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  sdf_samples<<<grid_for(count), kBlock, 0, stream>>>(grid, points, count, phi, gradient);
  return cudaGetLastError();
}

// Every row's C and ∇C G at a configuration: joints (bilateral, drive, limit), distances, contacts.
cudaError_t launch_evaluate_rows(const JointView& joints, const int* bilateral_first,
                                 const JointCoordinateRowsView& coordinate_rows, const DistanceView& distances,
                                 int first_distance, const ContactModelView& model, const ContactRowsView& contact_rows_at,
                                 const ContactGeometryView& contacts, const ConfigurationView& at,
                                 const RowGradientView& rows, cudaStream_t stream) {
  if (joints.count > 0)
    joint_rows<<<grid_for(joints.count), kBlock, 0, stream>>>(joints, at, rows, bilateral_first, coordinate_rows);
  if (distances.count > 0)
    distance_rows<<<grid_for(distances.count), kBlock, 0, stream>>>(distances, at, rows, first_distance);
  if (contacts.count > 0)
    contact_rows<<<grid_for(contacts.count), kBlock, 0, stream>>>(model, at, rows, contact_rows_at, contacts);
  return cudaGetLastError();
}

// The soft bodies' rows: tets, attachments, membranes, bending (constraint/row_assembly.cpp's order).
cudaError_t launch_evaluate_soft_rows(const SoftRowsLaunch& soft, const ConfigurationView& at,
                                      const RowGradientView& rows, cudaStream_t stream) {
  if (soft.tets.count > 0)
    tet_rows<<<grid_for(soft.tets.count), kBlock, 0, stream>>>(soft.tets, at, rows, soft.tet_rows);
  if (soft.attachments.count > 0)
    attachment_rows<<<grid_for(soft.attachments.count), kBlock, 0, stream>>>(soft.attachments, at, rows,
                                                                             soft.first_attachment);
  if (soft.membranes.count > 0)
    membrane_rows<<<grid_for(soft.membranes.count), kBlock, 0, stream>>>(soft.membranes, at, rows, soft.shell_rows,
                                                                         soft.first_membrane);
  if (soft.bending.count > 0)
    bending_rows<<<grid_for(soft.bending.count), kBlock, 0, stream>>>(soft.bending, at, rows, soft.shell_rows,
                                                                      soft.first_bending);
  return cudaGetLastError();
}

cudaError_t launch_contact_friction_frames(const Vec3* normal, const FrictionCoefficients* coefficients,
                                           const Vec3* grain_a, const Vec3* grain_b, ContactFrictionFrame* out,
                                           int count, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  contact_friction_frames<<<grid_for(count), kBlock, 0, stream>>>(normal, coefficients, grain_a, grain_b, out, count);
  return cudaGetLastError();
}

cudaError_t launch_friction_projection(Real* row_lambda, int first_normal, int first_friction, const Real* mu_t,
                                       const Real* mu_b, const std::uint8_t* anisotropic, int count,
                                       cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  friction_projections<<<grid_for(count), kBlock, 0, stream>>>(row_lambda, first_normal, first_friction, mu_t, mu_b,
                                                                anisotropic, count);
  return cudaGetLastError();
}

}  // namespace sim::cuda
