// SdfGrid: the baked field as a NanoVDB float grid, sampled trilinearly (nano_sdf.hpp, the same
// code the collision kernels run).
#include <algorithm>
#include <cmath>

#include "sdf/nano_sdf.hpp"
#include "sdf/sdf_grid_impl.hpp"

namespace sim {

SdfGrid::SdfGrid(std::unique_ptr<SdfGridImpl> impl) : impl_(std::move(impl)) {}
SdfGrid::~SdfGrid() = default;

Real SdfGrid::voxel_size() const { return impl_->voxel; }
Real SdfGrid::background() const { return impl_->background; }
bool SdfGrid::is_signed() const { return impl_->is_signed; }
Vec3 SdfGrid::bounds_min() const { return impl_->lo; }
Vec3 SdfGrid::bounds_max() const { return impl_->hi; }
std::size_t SdfGrid::active_voxel_count() const { return impl_->active_voxels; }
std::size_t SdfGrid::memory_bytes() const { return impl_->handle.size() + impl_->far_handle.size(); }
const void* SdfGrid::nanovdb_data() const { return impl_->handle.data(); }
const void* SdfGrid::far_field_data() const { return impl_->far_grid ? impl_->far_handle.data() : nullptr; }
Real SdfGrid::far_field_voxel_size() const { return impl_->far_grid ? impl_->far_voxel : Real(0); }

Real SdfGrid::sample(const Vec3& p) const {
  detail::NanoSdf field(*impl_);
  return field.eval(p, nullptr);
}

Real SdfGrid::sample(const Vec3& p, Vec3& gradient) const {
  detail::NanoSdf field(*impl_);
  return field.eval(p, &gradient);
}

void SdfGrid::sample_slice(int axis, Real offset, int nx, int ny, std::vector<float>& out, Vec3& lo, Vec3& hi) const {
  axis = std::clamp(axis, 0, 2);
  const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
  nx = std::max(nx, 1);
  ny = std::max(ny, 1);
  lo = impl_->lo;
  hi = impl_->hi;
  lo[axis] = hi[axis] = offset;
  out.resize(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny));
  detail::NanoSdf field(*impl_);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      Vec3 p = lo;
      p[u] = nx > 1 ? lo[u] + (hi[u] - lo[u]) * i / (nx - 1) : Real(0.5) * (lo[u] + hi[u]);
      p[v] = ny > 1 ? lo[v] + (hi[v] - lo[v]) * j / (ny - 1) : Real(0.5) * (lo[v] + hi[v]);
      out[static_cast<std::size_t>(j) * nx + i] = static_cast<float>(field.eval(p, nullptr));
    }
  }
}

namespace detail {

namespace {

// Uniform voxel size and origin of an axis-aligned grid; false otherwise.
bool axis_aligned(const nanovdb::FloatGrid* grid, Real& voxel, Vec3& origin) {
  if (grid == nullptr) return false;
  const nanovdb::Vec3d size = grid->voxelSize();
  const double h = size[0];
  if (!(h > 0) || std::abs(size[1] - h) > 1e-9 * h || std::abs(size[2] - h) > 1e-9 * h) return false;
  const nanovdb::Vec3d o = grid->indexToWorld(nanovdb::Vec3d(0, 0, 0));
  for (int a = 0; a < 3; ++a) {
    nanovdb::Vec3d e(0, 0, 0);
    e[a] = 1;
    const nanovdb::Vec3d w = grid->indexToWorld(e) - o;
    for (int b = 0; b < 3; ++b)
      if (std::abs(w[b] - (a == b ? h : 0.0)) > 1e-9 * h) return false;
  }
  voxel = static_cast<Real>(h);
  origin = Vec3(Real(o[0]), Real(o[1]), Real(o[2]));
  return true;
}

}  // namespace

std::shared_ptr<const SdfGrid> wrap_nanovdb(nanovdb::GridHandle<nanovdb::HostBuffer> handle,
                                            nanovdb::GridHandle<nanovdb::HostBuffer> far, bool is_signed) {
  auto impl = std::make_unique<SdfGridImpl>();
  impl->handle = std::move(handle);
  impl->grid = impl->handle.grid<float>();
  if (!axis_aligned(impl->grid, impl->voxel, impl->origin)) return nullptr;
  const nanovdb::FloatGrid* grid = impl->grid;
  impl->background = std::abs(static_cast<Real>(grid->tree().background()));
  impl->is_signed = is_signed;
  impl->active_voxels = static_cast<std::size_t>(grid->activeVoxelCount());
  const nanovdb::CoordBBox box = grid->indexBBox();
  if (!box.empty()) {
    for (int a = 0; a < 3; ++a) {
      impl->lo[a] = impl->origin[a] + impl->voxel * Real(box.min()[a]);
      impl->hi[a] = impl->origin[a] + impl->voxel * Real(box.max()[a]);
    }
  }
  if (far.size() > 0) {
    impl->far_handle = std::move(far);
    impl->far_grid = impl->far_handle.grid<float>();
    if (axis_aligned(impl->far_grid, impl->far_voxel, impl->far_origin)) {
      impl->far_background = std::abs(static_cast<Real>(impl->far_grid->tree().background()));
    } else {
      impl->far_grid = nullptr;
    }
  }
  return std::make_shared<const SdfGrid>(std::move(impl));
}

}  // namespace detail
}  // namespace sim
