// The grid field of the SDF kernels: trilinear interpolation of a NanoVDB float grid and the
// exact gradient of that interpolant, through cached ReadAccessors (one per thread and query
// batch). The same code runs on the device (sim/cuda/device_sdf_grid.hpp, launch_sdf_samples):
// NanoVDB's accessors are __hostdev__, the samplers are SIM_HD and take an SdfGridView (plain
// pointers to the grid buffers, host or device memory), and nothing here uses STL containers,
// exceptions or virtuals.
//
// Thesis §6.5 (L1608-1610): the optimiser must see valid data along its whole path. The fine grid
// is a narrow band: outside it NanoVDB returns the background with a zero gradient, a plateau on
// which golden-section search and gradient descent stall (an edge crossing another edge in its
// middle, a sharp apex under the middle of a large face, would be missed). So every baked grid
// carries a coarse far field (a wide band at a few voxels per extent): outside the fine band the
// field returns max(coarse, background) with the coarse gradient, which still points at the
// surface. Only fine-band values (`trusted`) ever make contacts. The far field has a quarter of the
// resolution and a band reaching half the mesh's extent, so its error (about two fine voxels) is
// well inside the fine band and a search that follows it lands in the band near the minimum.
#pragma once

#include <cmath>

#include "sdf/sdf_grid_impl.hpp"

namespace sim::detail {

// A baked grid as the samplers read it: the fine grid and its far field (the fine grid again when
// there is none) with their placement. The grid pointers are into the NanoVDB buffers, wherever
// those live (SdfGridImpl's host buffers, or device copies).
struct SdfGridView {
  const nanovdb::FloatGrid* grid = nullptr;
  const nanovdb::FloatGrid* far_grid = nullptr;  // == grid when there is no far field
  bool has_far = false;
  Vec3 origin = Vec3::Zero(), far_origin = Vec3::Zero();  // world position of index (0, 0, 0) [m]
  Real voxel = 0, far_voxel = 0;                          // [m]
  Real background = 0, far_background = 0;                // [m]
  bool is_signed = true;
};

inline SdfGridView grid_view(const SdfGridImpl& g) {
  SdfGridView v;
  v.grid = g.grid;
  v.has_far = g.far_grid != nullptr;
  v.far_grid = v.has_far ? g.far_grid : g.grid;
  v.origin = g.origin;
  v.far_origin = v.has_far ? g.far_origin : g.origin;
  v.voxel = g.voxel;
  v.far_voxel = v.has_far ? g.far_voxel : g.voxel;
  v.background = g.background;
  v.far_background = v.has_far ? g.far_background : g.background;
  v.is_signed = g.is_signed;
  return v;
}

// One NanoVDB grid sampled trilinearly in world units.
struct TrilinearGrid {
  using Accessor = nanovdb::FloatGrid::AccessorType;
  Accessor acc;
  Vec3 origin;     // world position of index (0, 0, 0) [m]
  Real inv_voxel;  // [1/m]
  Real outside;    // returned far outside the index range [m]

  SIM_HD TrilinearGrid(const nanovdb::FloatGrid* grid, const Vec3& o, Real voxel, Real background)
      : acc(grid->getAccessor()), origin(o), inv_voxel(Real(1) / voxel), outside(background) {}

  // φ(x) [m]; with `grad`, ∇φ of the trilinear interpolant (not normalised).
  SIM_HD Real eval(const Vec3& x, Vec3* grad) {
    const Vec3 u = (x - origin) * inv_voxel;
    const Real fx = std::floor(u.x()), fy = std::floor(u.y()), fz = std::floor(u.z());
    constexpr Real kLimit = Real(1 << 30);
    if (!(std::abs(fx) < kLimit && std::abs(fy) < kLimit && std::abs(fz) < kLimit)) {
      if (grad) grad->setZero();
      return outside;
    }
    const Real tx = u.x() - fx, ty = u.y() - fy, tz = u.z() - fz;
    nanovdb::Coord c(static_cast<int>(fx), static_cast<int>(fy), static_cast<int>(fz));
    const Real v000 = acc.getValue(c);
    c[2] += 1; const Real v001 = acc.getValue(c);
    c[1] += 1; const Real v011 = acc.getValue(c);
    c[2] -= 1; const Real v010 = acc.getValue(c);
    c[0] += 1; const Real v110 = acc.getValue(c);
    c[2] += 1; const Real v111 = acc.getValue(c);
    c[1] -= 1; const Real v101 = acc.getValue(c);
    c[2] -= 1; const Real v100 = acc.getValue(c);
    // Along z, then y, then x.
    const Real a00 = v000 + tz * (v001 - v000), a01 = v010 + tz * (v011 - v010);
    const Real a10 = v100 + tz * (v101 - v100), a11 = v110 + tz * (v111 - v110);
    const Real b0 = a00 + ty * (a01 - a00), b1 = a10 + ty * (a11 - a10);
    if (grad) {
      const Real dz00 = v001 - v000, dz01 = v011 - v010, dz10 = v101 - v100, dz11 = v111 - v110;
      const Real gz0 = dz00 + ty * (dz01 - dz00), gz1 = dz10 + ty * (dz11 - dz10);
      (*grad)[0] = (b1 - b0) * inv_voxel;
      (*grad)[1] = ((a01 - a00) + tx * ((a11 - a10) - (a01 - a00))) * inv_voxel;
      (*grad)[2] = (gz0 + tx * (gz1 - gz0)) * inv_voxel;
    }
    return b0 + tx * (b1 - b0);
  }
};

struct NanoSdf {
  TrilinearGrid fine;
  TrilinearGrid coarse;  // the far field (the fine grid again when there is none)
  bool has_coarse;
  Real voxel;            // fine voxel [m]
  Real coarse_voxel;     // [m]
  Real far;              // fine samples at or above this are outside the band [m]
  Real plateau;          // fine samples at or above this have all eight corners outside [m]
  bool is_signed;

  SIM_HD explicit NanoSdf(const SdfGridView& g)
      : fine(g.grid, g.origin, g.voxel, g.background), coarse(g.far_grid, g.far_origin, g.far_voxel, g.far_background),
        has_coarse(g.has_far), voxel(g.voxel), coarse_voxel(g.far_voxel), far(g.background - g.voxel),
        plateau(g.background - Real(1e-6) * g.voxel), is_signed(g.is_signed) {}
  explicit NanoSdf(const SdfGridImpl& g) : NanoSdf(grid_view(g)) {}

  // Slack of the interpolated field for sphere culling [m]: the far field's values may exceed the
  // distance by about a coarse voxel.
  SIM_HD Real cull_slack(Real voxels) const { return voxels * coarse_voxel; }
  SIM_HD bool trusted(Real phi) const { return phi < far; }

  SIM_HD Real eval(const Vec3& x, Vec3* grad) {
    const Real f = fine.eval(x, grad);
    if (f < plateau || !has_coarse) return f;
    const Real c = coarse.eval(x, grad);
    return c > f ? c : f;
  }
};

}  // namespace sim::detail
