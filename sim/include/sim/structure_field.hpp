// Structure fields for anisotropic friction (thesis ch. 3.3; digest
// ../shared/papers/notes/friction-and-sdf-collision.md §3): at every surface point one axial
// direction in the tangent plane, the direction of greatest friction (the "grain"). The matchstick
// model (sim/src/constraint/friction_cone.hpp) turns the grains of both surfaces of a contact into
// an elliptic friction cone.
//
// A field belongs to a material (every shape of that material) or to a body (overriding its
// shapes' materials' fields) and is expressed in the owner's frame: the authored body frame for
// body shapes, the world for world shapes and particles, so a grain turns with its body.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/math.hpp"
#include "sim/structure_texture.hpp"

namespace sim {

enum class StructureFieldKind : std::uint8_t {
  None,        // isotropic
  Constant,    // one direction (wood grain)
  Channel,     // flow lines converging on the x axis: things sliding along +x gather in a band
  Spread,      // flow lines diverging from the x axis
  Slalom,      // flow lines y = amplitude · sin(2π x / wavelength)
  Radial,      // grain pointing away from the centre (flow along circles about it)
  Expression,  // grain angle θ(x, y, z, r) written as a formula
  Texture,     // grain painted in a texture over a mesh's UVs (doubled-angle encoded)
};

const char* to_string(StructureFieldKind kind);
// Every kind's name, in enum order (None first): "none", "constant", ...
inline constexpr int kStructureFieldKindCount = 8;
std::optional<StructureFieldKind> parse_structure_field_kind(std::string_view text);

// The procedural fields live in a plane frame of the owner: origin `center`, x axis `direction`
// (made orthogonal to `normal`), y = normal × x. Channel, spread and slalom are defined by their
// *flow*, the low-friction direction in which sliding things end up moving (thesis Fig. 6: the
// friction force turns a slide towards the minor axis); their grain is the flow turned by 90° in
// the plane:
//   channel  flow ∝ (1, −y/width)          spread  flow ∝ (1, y/width)
//   slalom   flow ∝ (1, a k cos(k x)), k = 2π/wavelength (the tangent of y = a sin(k x))
//   radial   grain ∝ (x, y)                 expression  grain = (cos θ, sin θ), θ from the formula
// Constant: the grain is `direction` itself (any direction; projected into each contact plane).
struct StructureFieldSpec {
  StructureFieldKind kind = StructureFieldKind::None;
  Vec3 direction = Vec3::UnitX();  // constant: the grain; procedural: the plane frame's x axis
  Vec3 normal = Vec3::UnitZ();     // procedural: the plane's normal
  Vec3 center = Vec3::Zero();      // procedural: the plane frame's origin [m]
  Real width = 1;                  // channel, spread: lateral distance where the flow is at 45° [m]
  Real amplitude = Real(0.5);      // slalom: lateral amplitude of the flow lines [m]
  Real wavelength = 2;             // slalom: period along x [m]
  std::string expression;          // expression: θ [rad from the x axis] in x, y, z, r (plane frame)
  std::string texture;             // texture: image file (as written; resolved against the scene)
  // texture: the image, read by the scene parser (or painted in the app); compile_model samples it.
  // save_scene_file writes it to `texture` (resolved against the scene's folder) when that file is
  // missing or holds other texels. Compared by content.
  std::shared_ptr<const StructureTexture> image;
  bool operator==(const StructureFieldSpec& o) const {
    return kind == o.kind && direction == o.direction && normal == o.normal && center == o.center &&
           width == o.width && amplitude == o.amplitude && wavelength == o.wavelength && expression == o.expression &&
           texture == o.texture && (image == o.image || (image && o.image && *image == *o.image));
  }
};

// "" when the field compiles (compile_model would accept it), else what is wrong ("width must be > 0").
std::string check_structure_field(const StructureFieldSpec& spec);

// A formula compiled to postfix code (collision/structure_expression.cpp): evaluated without
// allocation at contact generation.
struct ExpressionProgram {
  enum class Op : std::uint8_t {
    Number, X, Y, Z, R, Add, Sub, Mul, Div, Pow, Neg,
    Sin, Cos, Tan, Asin, Acos, Atan, Atan2, Sqrt, Abs, Exp, Log, Min, Max, Floor,
  };
  struct Instruction {
    Op op = Op::Number;
    Real value = 0;  // Number
  };
  std::vector<Instruction> code;
  int max_stack = 0;
};

// The compiled field (Model::structure_fields). A texture field keeps its texels as filterable
// doubled-angle vectors (sim/structure_texture.hpp) and needs UVs on the shapes it covers
// (Model::shape_surface); it is looked up at a contact's UV and lifted through the triangle's frame.
struct StructureField {
  StructureFieldKind kind = StructureFieldKind::None;
  Vec3 direction = Vec3::UnitX();  // constant grain, or the plane frame's x axis (unit, ⟂ normal)
  Vec3 axis_y = Vec3::UnitY();     // normal × direction
  Vec3 normal = Vec3::UnitZ();
  Vec3 center = Vec3::Zero();
  Real width = 1, amplitude = Real(0.5), wavenumber = 1;
  ExpressionProgram program;
  std::shared_ptr<const StructureTexture> texture;  // texture: the image (shared with the spec)
};

}  // namespace sim
