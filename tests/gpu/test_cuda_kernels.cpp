// The device kernels (sim/cuda/kernels.cu, through its launchers) against the same kernels on the
// CPU, on the data of shipped scenes: every stage of a step the kernel layer covers (the per-body,
// per-particle and per-node stages; the rows' C and ∇C G per joint, distance and contact, and of
// the soft bodies' FEM tets, attachments, shell membranes and bending rows with their compliance, the
// contact friction frames, the friction projection and the shape boxes), uploaded, launched,
// downloaded and compared. nvcc contracts a·b + c into fused multiply-adds (one rounding
// instead of two), so the device agrees to round-off (1e-12 of each array's scale), not to the
// bit. Built where nvcc is found; says "skipped: no CUDA device" where no GPU is present.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "constraint/row_assembly.hpp"
#include "constraint/shell_rows.hpp"
#include "constraint/tet_rows.hpp"
#include "core/kernel_views.hpp"
#include "cuda/launchers.hpp"
#include "gpu/device_array.hpp"
#include "kernels/friction_projection_kernel.hpp"
#include "kernels/inverse_mass_kernel.hpp"
#include "kernels/particle_kernels.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_run.hpp"
#include "support/shipped_scenes.hpp"

using sim::Mat3;
using sim::Real;
using sim::Vec3;

using test::DeviceArray;

namespace {

// Largest difference relative to the array's largest magnitude (or 1).
Real relative_difference(const Real* a, const Real* b, std::size_t n) {
  Real scale = 1, diff = 0;
  for (std::size_t i = 0; i < n; ++i) {
    scale = std::max(scale, std::abs(a[i]));
    diff = std::max(diff, std::abs(a[i] - b[i]));
  }
  return diff / scale;
}

template <class T>
Real relative_difference(const std::vector<T>& a, const std::vector<T>& b) {
  REQUIRE(a.size() == b.size());
  return relative_difference(reinterpret_cast<const Real*>(a.data()), reinterpret_cast<const Real*>(b.data()),
                             a.size() * sizeof(T) / sizeof(Real));
}

// Position and quaternion coefficients of poses (a Pose may hold alignment padding).
std::vector<Real> pose_coordinates(const std::vector<sim::Pose>& poses) {
  std::vector<Real> out;
  for (const sim::Pose& p : poses) out.insert(out.end(), {p.pos.x(), p.pos.y(), p.pos.z(), p.rot.w(), p.rot.x(), p.rot.y(), p.rot.z()});
  return out;
}

void compare_on_device(const sim::Model& m) {
  sim::State st = sim::make_initial_state(m);
  sim::Workspace ws;
  test::run_steps(m, st, sim::make_initial_control(m), ws, 10);
  sim::Control control = sim::make_initial_control(m);
  control.body_wrench.assign(m.body_count, (sim::Vec6() << 1, -2, 3, 0.1, 0.2, -0.3).finished());
  control.particle_force.assign(m.particle_count, Vec3(0.5, -0.5, 1));
  const Real h = m.dt;
  const int nodes = m.body_count + m.particle_count;

  // CPU: the kernels over host views.
  const sim::BodyView bodies = sim::body_view(m);
  const sim::ParticleView particles = sim::particle_view(m);
  const sim::StateView start = sim::state_view(m, st);
  const sim::LoadView loads = sim::load_view(m, control, sim::SolverOptions{});
  std::vector<Mat3> iw(m.body_count), iw_inv(m.body_count);
  std::vector<Real> ut(m.dof_count()), pim(3 * m.particle_count), q(m.coord_count()), g(m.dof_count()),
      hinv(m.dof_count());
  std::vector<Real> f(m.dof_count());
  for (int i = 0; i < m.dof_count(); ++i) f[i] = std::sin(0.37 * i);
  for (int b = 0; b < m.body_count; ++b) {
    sim::body_world_inertia(bodies, start, b, sim::BodyInertiaView{iw.data(), iw_inv.data()});
    sim::predict_body_velocity(bodies, start, loads, iw.data(), iw_inv.data(), h, b, ut.data());
  }
  for (int p = 0; p < m.particle_count; ++p)
    sim::predict_particle_velocity(particles, start, loads, h, p, ut.data(), pim.data());
  const sim::StateView iterate = sim::state_view(m, st.q.data(), ut.data());
  for (int b = 0; b < m.body_count; ++b) sim::integrate_body(iterate, h, b, q.data());
  for (int p = 0; p < m.particle_count; ++p) sim::integrate_particle(iterate, h, p, q.data());
  const sim::MomentumView mv{st.u.data(), ut.data(), f.data(), iw.data(), g.data()};
  for (int b = 0; b < m.body_count; ++b) sim::body_momentum_residual(bodies, mv, h, b);
  for (int p = 0; p < m.particle_count; ++p) sim::particle_momentum_residual(particles, mv, m.body_count, h, p);
  const sim::InverseMassView iv{m.body_inv_mass.data(), iw_inv.data(), pim.data(), m.body_count};
  for (int n = 0; n < nodes; ++n) {
    const int dof = sim::node_dof_offset(m.body_count, n);
    sim::apply_inverse_mass(iv, n, g.data() + dof, hinv.data() + dof);
  }
  std::vector<sim::Pose> frame(m.body_count);
  std::vector<Mat3> rotation_t(m.body_count);
  for (int b = 0; b < m.body_count; ++b) sim::body_collision_frame(start, b, frame.data(), rotation_t.data());
  std::vector<sim::Energy> body_energy(m.body_count), particle_energy(m.particle_count);
  for (int b = 0; b < m.body_count; ++b) body_energy[b] = sim::body_energy(bodies, start, m.gravity, b);
  for (int p = 0; p < m.particle_count; ++p) particle_energy[p] = sim::particle_energy(particles, start, m.gravity, p);

  // Device: the same stages through the launchers over device views.
  const DeviceArray<Real> d_body_inv_mass(m.body_inv_mass), d_particle_inv_mass(m.particle_inv_mass);
  const DeviceArray<Vec3> d_inertia(m.body_inertia), d_inv_inertia(m.body_inv_inertia);
  const DeviceArray<Real> d_q0(st.q), d_u0(st.u), d_f(f);
  const DeviceArray<sim::Vec6> d_wrench(control.body_wrench);
  const DeviceArray<Vec3> d_force(control.particle_force);
  const DeviceArray<Mat3> d_iw(m.body_count), d_iw_inv(m.body_count);
  const DeviceArray<Real> d_ut(m.dof_count()), d_pim(3 * m.particle_count), d_q(m.coord_count()),
      d_g(m.dof_count()), d_hinv(m.dof_count());
  const DeviceArray<sim::Energy> d_body_energy(m.body_count), d_particle_energy(m.particle_count);
  const sim::BodyView dev_bodies{d_body_inv_mass.get(), d_inertia.get(), d_inv_inertia.get(), m.body_count};
  const sim::ParticleView dev_particles{d_particle_inv_mass.get(), m.particle_count};
  const sim::StateView dev_start{d_q0.get(), d_u0.get(), m.body_count, m.particle_count};
  const sim::LoadView dev_loads{m.gravity, d_wrench.get(), d_force.get(), loads.implicit_gyroscopic};
  REQUIRE(sim::cuda::launch_predict_bodies(dev_bodies, dev_start, dev_loads, sim::BodyInertiaView{d_iw.get(), d_iw_inv.get()},
                                           h, d_ut.get(), nullptr) == cudaSuccess);
  REQUIRE(sim::cuda::launch_predict_particles(dev_particles, dev_start, dev_loads, h, d_ut.get(), d_pim.get(), nullptr) ==
          cudaSuccess);
  const sim::StateView dev_iterate{d_q0.get(), d_ut.get(), m.body_count, m.particle_count};
  REQUIRE(sim::cuda::launch_integrate_positions(dev_iterate, h, d_q.get(), nullptr) == cudaSuccess);
  const sim::MomentumView dev_mv{d_u0.get(), d_ut.get(), d_f.get(), d_iw.get(), d_g.get()};
  REQUIRE(sim::cuda::launch_momentum_residual(dev_bodies, dev_particles, dev_mv, h, nullptr) == cudaSuccess);
  const sim::InverseMassView dev_iv{d_body_inv_mass.get(), d_iw_inv.get(), d_pim.get(), m.body_count};
  REQUIRE(sim::cuda::launch_inverse_mass(dev_iv, nodes, d_g.get(), d_hinv.get(), nullptr) == cudaSuccess);
  const DeviceArray<sim::Pose> d_frame(m.body_count);
  const DeviceArray<Mat3> d_rotation_t(m.body_count);
  REQUIRE(sim::cuda::launch_collision_frames(dev_start, d_frame.get(), d_rotation_t.get(), nullptr) == cudaSuccess);
  REQUIRE(sim::cuda::launch_energies(dev_bodies, dev_particles, dev_start, m.gravity, d_body_energy.get(),
                                     d_particle_energy.get(), nullptr) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);

  CHECK(relative_difference(d_iw.download(), iw) < 1e-12);
  CHECK(relative_difference(d_iw_inv.download(), iw_inv) < 1e-12);
  CHECK(relative_difference(d_ut.download(), ut) < 1e-12);
  CHECK(relative_difference(d_pim.download(), pim) == 0);
  CHECK(relative_difference(d_q.download(), q) < 1e-12);
  CHECK(relative_difference(d_g.download(), g) < 1e-12);
  CHECK(relative_difference(d_hinv.download(), hinv) < 1e-12);
  CHECK(relative_difference(pose_coordinates(d_frame.download()), pose_coordinates(frame)) < 1e-12);
  CHECK(relative_difference(d_rotation_t.download(), rotation_t) < 1e-12);
  CHECK(relative_difference(d_body_energy.download(), body_energy) < 1e-12);
  CHECK(relative_difference(d_particle_energy.download(), particle_energy) < 1e-12);
}

// The row evaluation (joints, drives, limits, distances, contacts), the friction frames and
// projection and the shape boxes: the CPU's production paths and kernels against the launchers.
void compare_rows_on_device(const test::ShippedRun& run) {
  const sim::Model& m = run.model;
  const sim::Workspace& ws = run.ws;
  const sim::ContactBuffer& contacts = ws.contacts;
  const int n = contacts.size();
  sim::RowSet rows;
  sim::assemble_rows(m, contacts, rows);
  // The elastic rows' damping reference (and γ = β/h) at q⁻, an active pressure per tet, the rows
  // at the step's end q.
  sim::Configuration before, c;
  before.assign(m, run.start.q.data());
  c.assign(m, run.state.q.data());
  sim::setup_tet_damping(m, before, m.dt, rows.first_tet, rows);
  sim::setup_shell_damping(m, before, m.dt, rows);
  rows.tet_pressure.resize(m.tet_count);
  for (int t = 0; t < m.tet_count; ++t) rows.tet_pressure[t] = Real(0.05) * m.tet_mu[t] * std::sin(Real(0.7) * t);
  std::vector<Real> reference(m.joint_count, 0);
  for (int j = 0; j < m.joint_count && j < static_cast<int>(run.start.joint_position.size()); ++j)
    reference[j] = run.start.joint_position[j];
  // The compliance the elastic rows write, unset on the device (-1) so that each must be written.
  std::vector<Real> compliance_unset = rows.row_compliance;
  std::fill(compliance_unset.begin() + rows.first_tet, compliance_unset.begin() + rows.first_attachment, Real(-1));
  std::fill(compliance_unset.begin() + rows.first_membrane, compliance_unset.begin() + rows.first_drive, Real(-1));
  sim::evaluate_rows(m, contacts, c, reference, rows);

  // The contacts as the device holds them, one array per field.
  std::vector<sim::ContactSide> side_a, side_b;
  std::vector<int> shape_a, shape_b;
  std::vector<Vec3> normal, tangent1, tangent2;
  std::vector<Real> thickness, mu_t, mu_b;
  std::vector<std::uint8_t> anisotropic;
  for (const sim::Contact& k : contacts.contacts) {
    side_a.push_back(k.a);
    side_b.push_back(k.b);
    shape_a.push_back(k.shape_a);
    shape_b.push_back(k.shape_b);
    normal.push_back(k.normal);
    tangent1.push_back(k.tangent1);
    tangent2.push_back(k.tangent2);
    thickness.push_back(k.thickness);
    mu_t.push_back(k.friction);
    mu_b.push_back(k.friction_bitangent);
    anisotropic.push_back(k.anisotropic ? 1 : 0);
  }
  std::vector<int> corners;
  for (const auto& tri : m.particle_triangles) corners.insert(corners.end(), tri.begin(), tri.end());
  const DeviceArray<sim::JointType> d_joint_type(m.joint_type);
  const DeviceArray<int> d_body_a(m.joint_body_a), d_body_b(m.joint_body_b);
  const DeviceArray<sim::Pose> d_frame_a(m.joint_frame_a), d_frame_b(m.joint_frame_b);
  const DeviceArray<Vec3> d_axis(m.joint_axis);
  const DeviceArray<Real> d_lower(m.joint_lower), d_upper(m.joint_upper);
  const DeviceArray<int> d_dist_a(m.distance_particle_a), d_dist_b(m.distance_particle_b);
  const DeviceArray<Real> d_rest(m.distance_rest);
  const DeviceArray<sim::ShapeType> d_shape_type(m.shape_type);
  const DeviceArray<int> d_shape_body(m.shape_body), d_corners(corners);
  const DeviceArray<sim::Pose> d_shape_local(m.shape_local), d_body_pose(c.body_pose);
  const DeviceArray<Real> d_shape_radius(m.shape_radius), d_shape_half(m.shape_half_length);
  const DeviceArray<Vec3> d_particle_position(c.particle_position);
  const DeviceArray<sim::ContactSide> d_side_a(side_a), d_side_b(side_b);
  const DeviceArray<int> d_shape_a(shape_a), d_shape_b(shape_b);
  const DeviceArray<Vec3> d_normal(normal), d_tangent1(tangent1), d_tangent2(tangent2);
  const DeviceArray<Real> d_thickness(thickness), d_bias(rows.row_bias);
  const DeviceArray<int> d_entry_first(rows.row_entry_first), d_bilateral(rows.joint_bilateral_first),
      d_drive(rows.joint_drive_first), d_limit(rows.joint_limit_first);
  const DeviceArray<std::uint8_t> d_mask(rows.row_slot_mask);
  const DeviceArray<sim::Vec6> d_grad(rows.entry_count);
  const DeviceArray<Real> d_value(rows.count), d_reference(reference);
  const sim::JointView joints{d_joint_type.get(), d_body_a.get(), d_body_b.get(), d_frame_a.get(), d_frame_b.get(),
                              d_axis.get(), d_lower.get(), d_upper.get(), m.joint_count};
  const sim::JointCoordinateRowsView coordinate_rows{d_drive.get(), d_limit.get(), rows.first_drive, rows.first_limit,
                                                     d_reference.get()};
  const sim::DistanceView distances{d_dist_a.get(), d_dist_b.get(), d_rest.get(), m.distance_count};
  const sim::ContactModelView model{
      sim::ShapeView{d_shape_type.get(), d_shape_body.get(), d_shape_local.get(), d_shape_radius.get(),
                     d_shape_half.get(), m.shape_count},
      sim::ParticleFaceView{d_corners.get(), static_cast<int>(m.particle_triangles.size())}, distances};
  const sim::ContactRowsView contact_rows{d_bias.get(), rows.first_normal, rows.first_friction};
  const sim::ContactGeometryView geometry{d_side_a.get(), d_side_b.get(), d_shape_a.get(), d_shape_b.get(),
                                          d_normal.get(), d_tangent1.get(), d_tangent2.get(), d_thickness.get(), n};
  const sim::ConfigurationView at{d_body_pose.get(), d_particle_position.get()};
  const sim::RowGradientView out{d_entry_first.get(), d_mask.get(), d_grad.get(), d_value.get()};
  REQUIRE(sim::cuda::launch_evaluate_rows(joints, d_bilateral.get(), coordinate_rows, distances,
                                          rows.joint_bilateral_first[m.joint_count], model, contact_rows, geometry, at,
                                          out, nullptr) == cudaSuccess);
  // The soft bodies' rows (FEM tets, attachments, shell membranes and bending rows).
  const DeviceArray<int> d_tet_particle(m.tet_particle);
  const DeviceArray<Mat3> d_tet_rest_inverse(m.tet_rest_inverse);
  const DeviceArray<Real> d_tet_volume(m.tet_volume), d_tet_mu(m.tet_mu), d_tet_lambda(m.tet_lambda),
      d_tet_damping(m.tet_damping), d_tet_pressure(rows.tet_pressure);
  const DeviceArray<sim::SoftModel> d_tet_model(m.tet_model);
  const DeviceArray<sim::SoftCompliance> d_tet_compliance(m.tet_compliance);
  const DeviceArray<int> d_attachment_particle(m.attachment_particle), d_attachment_body(m.attachment_body);
  const DeviceArray<Vec3> d_attachment_local(m.attachment_local);
  const DeviceArray<int> d_membrane_particle(m.membrane_particle), d_hinge_particle(m.hinge_particle),
      d_bending_hinge(m.bending_hinge), d_bending_particle(m.bending_particle);
  const DeviceArray<sim::Mat2> d_membrane_rest_inverse(m.membrane_rest_inverse);
  const DeviceArray<Real> d_membrane_area(m.membrane_area), d_membrane_mu(m.membrane_mu),
      d_membrane_lambda(m.membrane_lambda), d_hinge_rest(m.hinge_rest_angle), d_bending_weight(m.bending_weight),
      d_bending_stiffness(m.bending_stiffness);
  const DeviceArray<Real> d_compliance(compliance_unset), d_bound(rows.row_bound);
  const sim::cuda::SoftRowsLaunch soft{
      sim::TetView{d_tet_particle.get(), d_tet_rest_inverse.get(), d_tet_volume.get(), d_tet_mu.get(),
                   d_tet_lambda.get(), d_tet_damping.get(), d_tet_model.get(), d_tet_compliance.get(), m.tet_count},
      sim::TetRowsView{d_compliance.get(), d_bias.get(), d_bound.get(), d_tet_pressure.get(), rows.first_tet},
      sim::AttachmentView{d_attachment_particle.get(), d_attachment_body.get(), d_attachment_local.get(),
                          m.attachment_count},
      rows.first_attachment,
      sim::MembraneView{d_membrane_particle.get(), d_membrane_rest_inverse.get(), d_membrane_area.get(),
                        d_membrane_mu.get(), d_membrane_lambda.get(), m.membrane_count},
      sim::BendingView{sim::HingeView{d_hinge_particle.get(), d_hinge_rest.get(), m.hinge_count}, d_bending_hinge.get(),
                       d_bending_weight.get(), d_bending_particle.get(), d_bending_stiffness.get(), m.bending_count},
      sim::ElasticRowsView{d_compliance.get(), d_bias.get(), d_bound.get()},
      rows.first_membrane,
      rows.first_bending};
  REQUIRE(sim::cuda::launch_evaluate_soft_rows(soft, at, out, nullptr) == cudaSuccess);

  // Friction multipliers scattered around the cones, projected on both sides.
  std::vector<Real> lambda(rows.count);
  for (int i = 0; i < rows.count; ++i) lambda[i] = 3 * std::sin(1.7 * i + 0.3);
  std::vector<Real> projected = lambda;
  for (int k = 0; k < n; ++k)
    sim::project_contact_friction(projected.data(), rows.first_normal, rows.first_friction, k, mu_t[k], mu_b[k],
                                  anisotropic[k] != 0);
  const DeviceArray<Real> d_lambda(lambda), d_mu_t(mu_t), d_mu_b(mu_b);
  const DeviceArray<std::uint8_t> d_anisotropic(anisotropic);
  REQUIRE(sim::cuda::launch_friction_projection(d_lambda.get(), rows.first_normal, rows.first_friction, d_mu_t.get(),
                                                d_mu_b.get(), d_anisotropic.get(), n, nullptr) == cudaSuccess);

  // Friction frames of the contacts' normals under three coefficient sets and grains.
  std::vector<sim::FrictionCoefficients> coefficients;
  std::vector<Vec3> grain_a, grain_b;
  std::vector<sim::ContactFrictionFrame> frames;
  for (int k = 0; k < n; ++k) {
    coefficients.push_back(k % 3 == 0 ? sim::FrictionCoefficients{0.5, 0.5, 0.5} : sim::FrictionCoefficients{0.5, 0.9, 0.2});
    grain_a.push_back(k % 3 == 2 ? Vec3::Zero() : Vec3(1, std::sin(k), 0.2));
    grain_b.push_back(Vec3(std::cos(k), 1, 0));
    frames.push_back(sim::contact_friction_frame(normal[k], coefficients[k], grain_a[k], grain_b[k]));
  }
  const DeviceArray<sim::FrictionCoefficients> d_coefficients(coefficients);
  const DeviceArray<Vec3> d_grain_a(grain_a), d_grain_b(grain_b);
  const DeviceArray<sim::ContactFrictionFrame> d_frames(n);
  REQUIRE(sim::cuda::launch_contact_friction_frames(d_normal.get(), d_coefficients.get(), d_grain_a.get(),
                                                    d_grain_b.get(), d_frames.get(), n, nullptr) == cudaSuccess);

  // World boxes of the shapes at the configuration.
  std::vector<sim::ShapeExtent> extents;
  std::vector<sim::Pose> shape_pose;
  std::vector<Real> grow;
  std::vector<sim::detail::Aabb> boxes;
  for (int s = 0; s < m.shape_count; ++s) {
    if (m.shape_type[s] == sim::ShapeType::ConvexMesh) continue;
    extents.push_back(sim::ShapeExtent{m.shape_type[s], m.shape_radius[s], m.shape_half_length[s], m.shape_half_extents[s]});
    const int b = m.shape_body[s];
    shape_pose.push_back(b >= 0 ? c.body_pose[b] * m.shape_local[s] : m.shape_local[s]);
    grow.push_back(0.001 * s);
    boxes.push_back(sim::shape_world_box(extents.back(), shape_pose.back(), grow.back()));
  }
  const DeviceArray<sim::ShapeExtent> d_extents(extents);
  const DeviceArray<sim::Pose> d_shape_pose(shape_pose);
  const DeviceArray<Real> d_grow(grow);
  const DeviceArray<sim::detail::Aabb> d_boxes(extents.size());
  REQUIRE(sim::cuda::launch_shape_world_boxes(d_extents.get(), d_shape_pose.get(), d_grow.get(), d_boxes.get(),
                                              static_cast<int>(extents.size()), nullptr) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);

  CHECK(relative_difference(d_value.download(), rows.row_value) < 1e-12);
  CHECK(relative_difference(d_grad.download(), rows.entry_grad) < 1e-12);
  CHECK(relative_difference(d_compliance.download(), rows.row_compliance) < 1e-12);
  CHECK(relative_difference(d_lambda.download(), projected) < 1e-12);
  const std::vector<sim::ContactFrictionFrame> device_frames = d_frames.download();
  int frame_mismatches = 0;
  std::string first_mismatches;  // what differs, for the first three
  for (int k = 0; k < n; ++k) {
    const sim::ContactFrictionFrame &a = device_frames[k], &b = frames[k];
    if (a.anisotropic != b.anisotropic || (a.tangent1 - b.tangent1).norm() > 1e-12 ||
        (a.tangent2 - b.tangent2).norm() > 1e-12 || std::abs(a.friction - b.friction) > 1e-12 ||
        std::abs(a.friction_bitangent - b.friction_bitangent) > 1e-12 ||
        std::abs(a.grain_alignment - b.grain_alignment) > 1e-12) {
      if (++frame_mismatches <= 3)
        first_mismatches += "contact " + std::to_string(k) + ": anisotropic " + std::to_string(a.anisotropic) + "/" +
                            std::to_string(b.anisotropic) + ", |Δt1| " + std::to_string((a.tangent1 - b.tangent1).norm()) +
                            ", |Δt2| " + std::to_string((a.tangent2 - b.tangent2).norm()) + ", Δμ " +
                            std::to_string(a.friction - b.friction) + ", Δμ_b " +
                            std::to_string(a.friction_bitangent - b.friction_bitangent) + ", Δd " +
                            std::to_string(a.grain_alignment - b.grain_alignment) + "; ";
    }
  }
  INFO("device/CPU friction frames differ: " << first_mismatches);
  CHECK(frame_mismatches == 0);
  CHECK(relative_difference(d_boxes.download(), boxes) < 1e-12);
}

}  // namespace

TEST_CASE("the device kernels agree with the CPU kernels on shipped scenes", "[gpu][kernels]") {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    WARN("skipped: no CUDA device (" << cudaGetErrorString(e) << ")");
    return;
  }
  for (const char* name : {"table_pile", "cloth", "workcell"}) {
    INFO(name);
    auto spec = sim::load_scene_file(test::scene_path(name));
    REQUIRE(spec.ok());
    compare_on_device(test::compile(*spec));
  }
  // The rows, the friction frames and projection, the shape boxes.
  // The soft bodies' rows on soft_cube (tets), pneunet (tets, attachments, pressure), fetch_tomato
  // (tets in contact with a gripper) and cloth_shell (membranes, bending rows).
  for (const char* name : {"workcell", "grasp", "cloth", "sdf_bowl", "friction_slalom", "soft_cube", "pneunet",
                           "fetch_tomato", "cloth_shell"}) {
    INFO(name);
    compare_rows_on_device(test::ShippedRun(name, 10));
  }
}
