// Structure-field textures (issue 12): a grain painted over a mesh's UVs, stored with the
// doubled-angle encoding. A grain is axial (θ and θ + π are the same direction), so a texel holds
// the vector a (cos 2θ, sin 2θ) with a ∈ [0, 1] its strength: bilinear filtering between θ and
// θ + π then averages equal vectors instead of cancelling opposite ones, and where directions
// really disagree (90° apart) the filtered strength drops towards 0 (no grain, isotropic there).
// θ is measured in the texture's UV frame (from +u towards +v); at a contact it is lifted into
// the surface through the triangle's tangent frame dP/du, dP/dv (sim/src/sdf/mesh_surface.hpp).
//
// Files: PNG (8 or 16 bits per channel, RGB) and OpenEXR (RGB, 32-bit float). Channels: R and G
// the unit doubled-angle vector (cos 2θ, sin 2θ), B the strength a. PNG maps [-1, 1] to [0, 1]
// for R and G; EXR stores them as they are. The image's top row is v = 1 (the OpenGL / Blender
// convention), so texel rows here run from v = 0 upwards. Texels sit at ((i + ½)/w, (j + ½)/h);
// lookups wrap (repeat) in u and v.
#pragma once

#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/mesh_surface.hpp"
#include "sim/result.hpp"

namespace sim {

struct StructureTexture {
  int width = 0, height = 0;
  // Per texel (row-major, rows from v = 0): x, y (the doubled-angle vector, unit when painted)
  // and the strength a. Kept as read so that writing back reproduces the file.
  std::vector<float> texels;
  // How the file stores a channel: 8 or 16 (PNG), 32 (EXR float). Writing uses the extension's
  // format and this depth (PNG: 16 unless 8).
  int bit_depth = 16;
  bool operator==(const StructureTexture&) const = default;

  bool empty() const { return width <= 0 || height <= 0; }
  float* texel(int i, int j) { return &texels[3 * (static_cast<std::size_t>(j) * width + i)]; }
  const float* texel(int i, int j) const { return &texels[3 * (static_cast<std::size_t>(j) * width + i)]; }
};

// A texture of w × h texels without grain (strength 0 everywhere). w, h in [1, 8192].
Result<StructureTexture> blank_structure_texture(int width, int height);

// The doubled-angle vector of a grain at angle θ (UV frame) and back: θ = ½ atan2(y, x) in (−π/2, π/2].
Vec2 encode_grain_angle(Real theta);
Real decode_grain_angle(const Vec2& doubled);

// The filterable vector of texel (i, j): a (x, y)/|(x, y)|, zero when a = 0 or (x, y) = 0.
Vec2 texel_vector(const StructureTexture& texture, int i, int j);
// Bilinear sample of the texel vectors at (u, v), wrapping: a doubled-angle vector of length ≤ 1.
Vec2 sample_structure_texture(const StructureTexture& texture, const Vec2& uv);

// Filtered strength below which a texture gives no grain (the surface is isotropic there, or
// adopts the other surface's grain): ½, the midpoint between painted (1) and erased (0) texels,
// so a painted region's edge lies halfway between its texels and blank ones, and crossing grains
// (90° apart, which cancel as doubled-angle vectors) leave the surface isotropic.
inline constexpr Real kMinGrainStrength = Real(0.5);

// The grain of `texture` at a point of `surface` (shape frame, not normalised; zero without
// grain there): the doubled-angle sample at the point's UV, θ = ½ atan2, and (cos θ, sin θ) of
// the UV plane lifted through the triangle's tangent frame dP/du, dP/dv.
Vec3 surface_grain(const StructureTexture& texture, const MeshSurface& surface, const SurfacePoint& point);

// Reads a .png (8/16-bit grey, grey+alpha, RGB or RGBA; palette images expanded) or .exr (its R, G
// and B channels; a missing one reads 0, B missing: strength 1) file. Errors name the file.
Result<StructureTexture> load_structure_texture(const std::string& path);
// Writes .png (16-bit unless texture.bit_depth is 8) or .exr (float), chosen by the extension,
// atomically (temporary file renamed over `path`). Returns an error message, empty on success.
std::string save_structure_texture(const StructureTexture& texture, const std::string& path);

// ---- painting (the app's comb brush, also used by tests) -------------------------------------

enum class TextureBrushMode { Comb, Smooth, Rotate, Erase };

// One dab of a brush on the texture: every texel whose centre lies within `radius_uv` of `center`
// (UV units; in u the distance is measured with u scaled by `aspect` = dP/du length over dP/dv
// length at the dab, so the dab is round on the surface) is moved towards the brush's target by
// strength · (1 − (r/radius)²)²:
//   Comb    the grain `theta` (UV frame) at full strength (a = 1)
//   Smooth  the mean vector of the texel's 3 × 3 neighbourhood
//   Rotate  its own vector turned by `theta` (the grain turns by θ, the doubled vector by 2θ)
//   Erase   zero (no grain)
// Texels are blended as doubled-angle vectors a (cos 2θ, sin 2θ) and stored as the unit vector
// and its length. Returns the number of texels changed. Wraps in u and v like the lookups.
int paint_structure_texture(StructureTexture& texture, TextureBrushMode mode, const Vec2& center, Real radius_uv,
                            Real aspect, Real theta, Real strength);

}  // namespace sim
