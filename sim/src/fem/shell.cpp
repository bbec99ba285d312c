#include "sim/shell.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace sim {

std::string check_shell_material(const ShellMaterialSpec& m) {
  if (!(m.youngs_modulus > 0) || !std::isfinite(m.youngs_modulus)) return "Young's modulus must be positive and finite";
  if (!(m.poisson_ratio >= 0 && m.poisson_ratio < Real(0.5))) return "Poisson ratio must be in [0, 0.5)";
  if (!(m.thickness > 0) || !std::isfinite(m.thickness)) return "thickness must be positive and finite";
  if (!std::isfinite(m.bending)) return "bending must be finite";
  if (!(m.density > 0) || !std::isfinite(m.density)) return "density must be positive and finite";
  if (!(m.damping >= 0) || !std::isfinite(m.damping)) return "damping must be >= 0 and finite";
  return {};
}

Real shell_bending_stiffness(const ShellMaterialSpec& m) {
  if (m.bending >= 0) return m.bending;
  const Real t = m.thickness, nu = m.poisson_ratio;
  return m.youngs_modulus * t * t * t / (12 * (1 - nu * nu));
}

void shell_membrane_lame(const ShellMaterialSpec& m, Real& mu_t, Real& lambda_t) {
  const Real e = m.youngs_modulus, nu = m.poisson_ratio, t = m.thickness;
  mu_t = e * t / (2 * (1 + nu));
  lambda_t = e * nu * t / (1 - nu * nu);
}

std::vector<Real> shell_lumped_masses(const std::vector<Vec3>& points, const std::vector<std::array<int, 3>>& triangles,
                                      Real areal_density) {
  std::vector<Real> mass(points.size(), Real(0));
  for (const auto& t : triangles) {
    const Real area = Real(0.5) * (points[t[1]] - points[t[0]]).cross(points[t[2]] - points[t[0]]).norm();
    for (int k = 0; k < 3; ++k) mass[t[k]] += areal_density * area / 3;
  }
  return mass;
}

std::string shell_hinges(const std::vector<std::array<int, 3>>& triangles, std::vector<std::array<int, 4>>& hinges) {
  // (edge key, opposite corner) per triangle edge, sorted by key: the runs are the edges.
  std::vector<std::pair<std::uint64_t, int>> edges;
  edges.reserve(3 * triangles.size());
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const auto& t = triangles[i];
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
      return "triangle " + std::to_string(i) + " repeats a corner";
    for (int k = 0; k < 3; ++k) {
      const auto a = static_cast<std::uint32_t>(std::min(t[k], t[(k + 1) % 3]));
      const auto b = static_cast<std::uint32_t>(std::max(t[k], t[(k + 1) % 3]));
      edges.emplace_back(static_cast<std::uint64_t>(a) << 32 | b, t[(k + 2) % 3]);
    }
  }
  std::sort(edges.begin(), edges.end());
  hinges.clear();
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j].first == edges[i].first) ++j;
    const int a = static_cast<int>(edges[i].first >> 32), b = static_cast<int>(edges[i].first & 0xffffffffu);
    if (j - i > 2)
      return "edge " + std::to_string(a) + "-" + std::to_string(b) + " is shared by " + std::to_string(j - i) +
             " triangles (not a surface)";
    if (j - i == 2) hinges.push_back({a, b, edges[i].second, edges[i + 1].second});
    i = j;
  }
  return {};
}

int add_shell(SceneSpec& spec, const std::vector<Vec3>& points, const std::vector<std::array<int, 3>>& triangles,
              const ShellMaterialSpec& material, const ShellPlacement& placement, const std::string& name,
              std::string& error) {
  if (std::string e = check_shell_material(material); !e.empty()) {
    error = e;
    return -1;
  }
  const int n = static_cast<int>(points.size());
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const auto& t = triangles[i];
    for (int k = 0; k < 3; ++k)
      if (t[k] < 0 || t[k] >= n) {
        error = "triangle " + std::to_string(i) + " names point " + std::to_string(t[k]) + " of " + std::to_string(n);
        return -1;
      }
    const Vec3 e1 = points[t[1]] - points[t[0]], e2 = points[t[2]] - points[t[0]];
    const Real longest = std::max({e1.norm(), e2.norm(), (e2 - e1).norm()});
    if (!(e1.cross(e2).norm() > Real(1e-9) * longest * longest)) {
      error = "triangle " + std::to_string(i) + " is degenerate (no area)";
      return -1;
    }
  }
  const std::vector<Real> mass = shell_lumped_masses(points, triangles, material.density * material.thickness);
  const int first = add_placed_particles(spec, points, mass, placement);
  ShellSpec shell;
  shell.name = name;
  shell.material = material;
  for (const auto& t : triangles) shell.triangles.push_back({first + t[0], first + t[1], first + t[2]});
  if (placement.faces) spec.particle_triangles.insert(spec.particle_triangles.end(), shell.triangles.begin(), shell.triangles.end());
  spec.shells.push_back(std::move(shell));
  return first;
}

}  // namespace sim
