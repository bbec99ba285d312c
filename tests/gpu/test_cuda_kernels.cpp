// The device kernels (sim/cuda/kernels.cu, through its launchers) against the same kernels on the
// CPU, on the data of shipped scenes: every stage of a step the kernel layer covers, uploaded,
// launched, downloaded and compared. nvcc contracts a·b + c into fused multiply-adds (one rounding
// instead of two), so the device agrees to round-off (1e-12 of each array's scale), not to the
// bit. Built where nvcc is found; says "skipped: no CUDA device" where no GPU is present.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/kernel_views.hpp"
#include "cuda/launchers.hpp"
#include "kernels/inverse_mass_kernel.hpp"
#include "kernels/particle_kernels.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_scenes.hpp"

using sim::Mat3;
using sim::Real;
using sim::Vec3;

namespace {

// A device copy of a host array (freed on scope exit).
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host) : count_(host.size()) {
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&data_), std::max<std::size_t>(1, count_) * sizeof(T)) == cudaSuccess);
    if (count_ > 0) REQUIRE(cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  }
  explicit DeviceArray(std::size_t count) : DeviceArray(std::vector<T>(count)) {}
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) REQUIRE(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_;
};

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
  const sim::LoadView loads = sim::load_view(m, control);
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
  const sim::LoadView dev_loads{m.gravity, d_wrench.get(), d_force.get()};
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
}
