// Procedural structure fields (digest §3 [R]: channel, spread, slalom after thesis Fig. 6; radial;
// a formula) and the constant grain.
#include "collision/structure_field.hpp"

#include <cmath>
#include <numbers>

#include "collision/structure_expression.hpp"

namespace sim {

const char* to_string(StructureFieldKind kind) {
  switch (kind) {
    case StructureFieldKind::None: return "none";
    case StructureFieldKind::Constant: return "constant";
    case StructureFieldKind::Channel: return "channel";
    case StructureFieldKind::Spread: return "spread";
    case StructureFieldKind::Slalom: return "slalom";
    case StructureFieldKind::Radial: return "radial";
    case StructureFieldKind::Expression: return "expression";
    case StructureFieldKind::Texture: return "texture";
  }
  return "none";
}

std::optional<StructureFieldKind> parse_structure_field_kind(std::string_view text) {
  for (auto k : {StructureFieldKind::None, StructureFieldKind::Constant, StructureFieldKind::Channel,
                 StructureFieldKind::Spread, StructureFieldKind::Slalom, StructureFieldKind::Radial,
                 StructureFieldKind::Expression, StructureFieldKind::Texture})
    if (text == to_string(k)) return k;
  return std::nullopt;
}

std::string check_structure_field(const StructureFieldSpec& spec) {
  auto f = detail::compile_structure_field(spec, "grain");
  if (f) return {};
  const std::string& e = f.error();
  return e.rfind("grain: ", 0) == 0 ? e.substr(7) : e;
}

namespace detail {

Result<StructureField> compile_structure_field(const StructureFieldSpec& spec, const std::string& where,
                                               const std::string& texture_path) {
  StructureField f;
  f.kind = spec.kind;
  const auto finite = [](const Vec3& v) { return v.allFinite(); };
  if (!finite(spec.direction) || !finite(spec.normal) || !finite(spec.center))
    return Error{where + ": direction, normal and center must be finite"};
  if (spec.kind == StructureFieldKind::None) return f;
  if (spec.kind == StructureFieldKind::Constant) {
    if (!(spec.direction.norm() > 0)) return Error{where + ": direction must not be zero"};
    f.direction = spec.direction.normalized();
    return f;
  }
  if (spec.kind == StructureFieldKind::Texture) {
    f.texture = spec.image;
    if (!f.texture && !texture_path.empty()) {
      auto image = load_structure_texture(texture_path);
      if (!image) return Error{where + ": " + image.error()};
      f.texture = std::make_shared<const StructureTexture>(std::move(image.value()));
    }
    if (!f.texture || f.texture->empty() ||
        f.texture->texels.size() != 3 * static_cast<std::size_t>(f.texture->width) * f.texture->height)
      return Error{where + ": texture \"" + spec.texture + "\" has no image (read it with the scene, or paint one)"};
    return f;
  }
  // Plane frame of the procedural fields.
  if (!(spec.normal.norm() > 0)) return Error{where + ": normal must not be zero"};
  f.normal = spec.normal.normalized();
  const Vec3 x = spec.direction - spec.direction.dot(f.normal) * f.normal;
  if (!(x.norm() > Real(1e-6) * spec.direction.norm()))
    return Error{where + ": direction must not be parallel to normal"};
  f.direction = x.normalized();
  f.axis_y = f.normal.cross(f.direction);
  f.center = spec.center;
  if (spec.kind == StructureFieldKind::Channel || spec.kind == StructureFieldKind::Spread) {
    if (!(spec.width > 0) || !std::isfinite(spec.width)) return Error{where + ": width must be > 0"};
    f.width = spec.width;
  }
  if (spec.kind == StructureFieldKind::Slalom) {
    if (!(spec.wavelength > 0) || !std::isfinite(spec.wavelength)) return Error{where + ": wavelength must be > 0"};
    if (!std::isfinite(spec.amplitude)) return Error{where + ": amplitude must be finite"};
    f.amplitude = spec.amplitude;
    f.wavenumber = 2 * std::numbers::pi_v<Real> / spec.wavelength;
  }
  if (spec.kind == StructureFieldKind::Expression) {
    auto program = compile_expression(spec.expression);
    if (!program) return Error{where + ": expression \"" + spec.expression + "\": " + program.error()};
    f.program = std::move(program.value());
  }
  return f;
}

Vec3 structure_direction(const StructureField& f, const Vec3& p) {
  using K = StructureFieldKind;
  if (f.kind == K::None || f.kind == K::Texture) return Vec3::Zero();
  if (f.kind == K::Constant) return f.direction;
  const Vec3 rel = p - f.center;
  const Real x = rel.dot(f.direction), y = rel.dot(f.axis_y);
  // The grain is the flow (fx, fy) turned by +90° in the plane: (−fy, fx).
  Real fx = 1, fy = 0;
  switch (f.kind) {
    case K::Channel: fy = -y / f.width; break;
    case K::Spread: fy = y / f.width; break;
    case K::Slalom: fy = f.amplitude * f.wavenumber * std::cos(f.wavenumber * x); break;
    case K::Radial: return x * f.direction + y * f.axis_y;  // grain along the radius
    case K::Expression: {
      const Real theta = evaluate_expression(f.program, x, y, rel.dot(f.normal));
      if (!std::isfinite(theta)) return Vec3::Zero();
      return std::cos(theta) * f.direction + std::sin(theta) * f.axis_y;
    }
    default: break;
  }
  return -fy * f.direction + fx * f.axis_y;
}

}  // namespace detail
}  // namespace sim
