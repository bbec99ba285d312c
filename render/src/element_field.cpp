#include "render/element_field.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/contact_side_particles.hpp"
#include "tet_fields.hpp"

namespace render {

const char* element_field_name(ElementField field) {
  switch (field) {
    case ElementField::None: return "none";
    case ElementField::Speed: return "speed";
    case ElementField::ContactForce: return "contact force";
    case ElementField::Mass: return "mass";
    case ElementField::VolumetricStrain: return "volumetric strain";
    case ElementField::MaxStretch: return "max stretch";
    case ElementField::VonMises: return "von Mises stress";
    case ElementField::MinDihedral: return "min dihedral angle";
  }
  return "none";
}

const char* element_field_unit(ElementField field) {
  switch (field) {
    case ElementField::Speed: return "m/s";
    case ElementField::ContactForce: return "N";
    case ElementField::Mass: return "kg";
    case ElementField::VonMises: return "Pa";
    case ElementField::MinDihedral: return "deg";
    case ElementField::VolumetricStrain:
    case ElementField::MaxStretch:
    case ElementField::None: break;
  }
  return "";
}

std::optional<ElementField> parse_element_field(const std::string& name) {
  if (name == "none") return ElementField::None;
  if (name == "speed") return ElementField::Speed;
  if (name == "contact_force" || name == "contact force") return ElementField::ContactForce;
  if (name == "mass") return ElementField::Mass;
  if (name == "volumetric_strain" || name == "volumetric strain") return ElementField::VolumetricStrain;
  if (name == "max_stretch" || name == "max stretch") return ElementField::MaxStretch;
  if (name == "von_mises" || name == "von Mises stress") return ElementField::VonMises;
  if (name == "min_dihedral" || name == "min dihedral angle") return ElementField::MinDihedral;
  return std::nullopt;
}

void compute_element_field(const sim::Model& model, const sim::State& state, const sim::Workspace* workspace,
                           ElementField field, std::vector<float>& values) {
  const int bodies = model.body_count, particles = model.particle_count;
  values.assign(std::size_t(bodies + particles), 0.0f);
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  switch (field) {
    case ElementField::None:
      break;
    case ElementField::Speed: {
      if (state.u.size() < std::size_t(model.dof_count())) break;
      for (int b = 0; b < bodies; ++b) values[std::size_t(b)] = float(state.body_velocity(b).norm());
      const sim::Real* v = state.u.data() + 6 * std::size_t(bodies);
      for (int p = 0; p < particles; ++p)
        values[std::size_t(bodies + p)] = float(sim::Vec3(v[3 * p], v[3 * p + 1], v[3 * p + 2]).norm());
      break;
    }
    case ElementField::ContactForce: {
      if (!workspace) break;
      // One pass over the contacts: each normal force goes to both of its sides.
      const sim::ContactBuffer& c = workspace->contacts;
      const int n = std::min<int>(c.size(), int(workspace->contact_normal_force.size()));
      auto add = [&](const sim::ContactSide& side, sim::Real f) {
        if (side.kind == sim::ContactSide::Body) values[std::size_t(side.index)] += float(f);
        const sim::ContactSideParticles corners = sim::contact_side_particles(model, side);
        for (int k = 0; k < corners.count; ++k)  // a face's or segment's force shared by its weights
          values[std::size_t(bodies + corners.particle[std::size_t(k)])] += float(corners.weight[std::size_t(k)] * f);
      };
      for (int k = 0; k < n; ++k) {
        add(c.contacts[std::size_t(k)].a, workspace->contact_normal_force[std::size_t(k)]);
        add(c.contacts[std::size_t(k)].b, workspace->contact_normal_force[std::size_t(k)]);
      }
      break;
    }
    case ElementField::Mass:
      for (int b = 0; b < bodies; ++b) {
        const sim::Real w = model.body_inv_mass[std::size_t(b)];
        values[std::size_t(b)] = w > 0 ? float(1 / w) : kNaN;
      }
      for (int p = 0; p < particles; ++p) {
        const sim::Real w = model.particle_inv_mass[std::size_t(p)];
        values[std::size_t(bodies + p)] = w > 0 ? float(1 / w) : kNaN;
      }
      break;
    case ElementField::VolumetricStrain:
    case ElementField::MaxStretch:
    case ElementField::VonMises:
    case ElementField::MinDihedral: {
      const TetMeasure measure = field == ElementField::VolumetricStrain ? TetMeasure::VolumetricStrain
                                 : field == ElementField::MaxStretch     ? TetMeasure::MaxStretch
                                 : field == ElementField::VonMises       ? TetMeasure::VonMises
                                                                         : TetMeasure::MinDihedral;
      std::fill(values.begin(), values.begin() + bodies, kNaN);
      tet_measure_per_particle(model, state, measure, std::span<float>(values).subspan(std::size_t(bodies)));
      break;
    }
  }
}

FieldRange field_range(std::span<const float> values) {
  FieldRange r{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
  for (float v : values)
    if (std::isfinite(v)) r.lo = std::min(r.lo, v), r.hi = std::max(r.hi, v);
  return r.lo <= r.hi ? r : FieldRange{};
}

FieldRange display_range(ElementField field, std::span<const float> values) {
  FieldRange r = field_range(values);
  const float span = field == ElementField::VolumetricStrain || field == ElementField::MaxStretch ? 0.02f
                     : field == ElementField::VonMises                                           ? 1.0f
                     : field == ElementField::MinDihedral                                        ? 1.0f
                                                                                                 : 0.0f;
  if (r.hi - r.lo < span) {
    const float mid = 0.5f * (r.lo + r.hi);
    r = {mid - 0.5f * span, mid + 0.5f * span};
  }
  return r;
}

glm::vec3 viridis(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  // Degree-6 polynomial fit of matplotlib's viridis (linear RGB of the sRGB map), Horner form.
  const glm::vec3 c0(0.2777273272234177f, 0.005407344544966578f, 0.3340998053353061f);
  const glm::vec3 c1(0.1050930431085774f, 1.404613529898575f, 1.384590162594685f);
  const glm::vec3 c2(-0.3308618287255563f, 0.214847559468213f, 0.09509516302823659f);
  const glm::vec3 c3(-4.634230498983486f, -5.799100973351585f, -19.33244095627987f);
  const glm::vec3 c4(6.228269936347081f, 14.17993336680509f, 56.69055260068105f);
  const glm::vec3 c5(4.776384997670288f, -13.74514537774601f, -65.35303263337234f);
  const glm::vec3 c6(-5.435455855934631f, 4.645852612178535f, 26.3124352495832f);
  const glm::vec3 srgb = c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
  // The fit is of the sRGB-encoded map; the shaders work in linear RGB.
  glm::vec3 linear;
  for (int i = 0; i < 3; ++i) {
    const float s = std::clamp(srgb[i], 0.0f, 1.0f);
    linear[i] = s <= 0.04045f ? s / 12.92f : std::pow((s + 0.055f) / 1.055f, 2.4f);
  }
  return linear;
}

namespace {

constexpr float kNoValueGrey = 0.35f;  // linear

glm::vec3 encode_srgb(const glm::vec3& linear) {
  glm::vec3 out;
  for (int i = 0; i < 3; ++i) {
    const float l = std::clamp(linear[i], 0.0f, 1.0f);
    out[i] = l <= 0.0031308f ? 12.92f * l : 1.055f * std::pow(l, 1.0f / 2.4f) - 0.055f;
  }
  return out;
}

}  // namespace

std::vector<glm::vec3> field_map_srgb(int stops) {
  std::vector<glm::vec3> out;
  const int n = std::max(stops, 2);
  for (int i = 0; i < n; ++i) out.push_back(encode_srgb(viridis(float(i) / float(n - 1))));
  return out;
}

glm::vec3 field_none_srgb() { return encode_srgb(glm::vec3(kNoValueGrey)); }

void draw_field_legend_bar(std::vector<std::uint8_t>& rgba, int width, int height) {
  const int bar_w = std::min(160, width / 3), bar_h = std::max(4, std::min(12, height / 20)), margin = 6;
  const int x0 = margin, y1 = height - margin, y0 = y1 - bar_h;  // [x0, x0 + bar_w) x [y0, y1)
  if (bar_w < 8 || y0 < 1 || std::size_t(width) * std::size_t(height) * 4 > rgba.size()) return;
  auto put = [&](int x, int y, const glm::vec3& c) {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    std::uint8_t* p = &rgba[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4];
    for (int k = 0; k < 3; ++k) p[k] = std::uint8_t(std::lround(255.0f * std::clamp(c[k], 0.0f, 1.0f)));
    p[3] = 255;
  };
  const glm::vec3 none = field_none_srgb();
  for (int y = y0 - 1; y <= y1; ++y)
    for (int x = x0 - 1; x <= x0 + bar_w + 2 + bar_h; ++x) {
      const bool frame = y == y0 - 1 || y == y1 || x == x0 - 1 || (x >= x0 + bar_w && x <= x0 + bar_w + 1) ||
                         x == x0 + bar_w + 2 + bar_h;
      if (frame) put(x, y, glm::vec3(0.0f));
      else if (x < x0 + bar_w) put(x, y, encode_srgb(viridis(float(x - x0) / float(bar_w - 1))));
      else put(x, y, none);
    }
}

glm::vec3 field_color(float v, const FieldRange& range) {
  if (!std::isfinite(v)) return glm::vec3(kNoValueGrey);
  const float t = range.hi > range.lo ? (v - range.lo) / (range.hi - range.lo) : 0.5f;
  return viridis(t);
}

}  // namespace render
