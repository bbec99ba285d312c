#include "compile/compile_shells.hpp"

#include <algorithm>

#include "compile/body_inertia.hpp"  // where
#include "fem/midedge_bending.hpp"
#include "kernels/bending_row_kernel.hpp"
#include "kernels/membrane_row_kernel.hpp"
#include "sim/shell.hpp"

namespace sim {

std::string compile_shells(const SceneSpec& spec, Model& m) {
  std::vector<Vec3> rest;  // the particles' rest positions, once a shell bends
  for (const ShellSpec& s : spec.shells) {
    const std::string w = detail::where(s.source, "shell") + (s.name.empty() ? "" : " '" + s.name + "'");
    if (std::string e = check_shell_material(s.material); !e.empty()) return w + ": " + e;
    Real mu_t = 0, lambda_t = 0;
    shell_membrane_lame(s.material, mu_t, lambda_t);
    auto at = [&](int p) { return spec.particles[static_cast<std::size_t>(p)].position; };
    std::vector<Real> area(s.triangles.size(), Real(0));
    for (std::size_t i = 0; i < s.triangles.size(); ++i) {
      const auto& t = s.triangles[i];
      for (int k = 0; k < 3; ++k)
        if (t[k] < 0 || t[k] >= m.particle_count)
          return w + ": triangle " + std::to_string(i) + " names particle " + std::to_string(t[k]) + " of " +
                 std::to_string(m.particle_count);
      const Mat2 dm = membrane_rest_edges(at(t[0]), at(t[1]), at(t[2]));
      const Real longest = std::max({dm(0, 0), (at(t[2]) - at(t[0])).norm(), (at(t[2]) - at(t[1])).norm()});
      area[i] = Real(0.5) * dm.determinant();
      if (!(area[i] > Real(1e-9) * longest * longest))
        return w + ": triangle " + std::to_string(i) + " is degenerate at rest (area " + std::to_string(area[i]) + " m^2)";
      for (int k = 0; k < 3; ++k) m.membrane_particle.push_back(t[k]);
      m.membrane_rest_inverse.push_back(dm.inverse());
      m.membrane_area.push_back(area[i]);
      m.membrane_mu.push_back(mu_t);
      m.membrane_lambda.push_back(lambda_t);
      m.membrane_damping.push_back(s.material.damping);
      ++m.membrane_count;
    }
    const Real d = shell_bending_stiffness(s.material);
    if (!(d > 0)) continue;
    std::vector<std::array<int, 4>> hinges;
    if (std::string e = shell_hinges(s.triangles, hinges); !e.empty()) return w + ": " + e;
    const int first_hinge = m.hinge_count;
    for (const auto& h : hinges) {
      HingeAngle rest_angle;
      hinge_angle(at(h[0]), at(h[1]), at(h[2]), at(h[3]), rest_angle);
      for (int k = 0; k < 4; ++k) m.hinge_particle.push_back(h[k]);
      m.hinge_rest_angle.push_back(rest_angle.theta);
      ++m.hinge_count;
    }
    if (rest.empty())
      for (const ParticleSpec& p : spec.particles) rest.push_back(p.position);
    std::vector<MidedgeBendingRow> bending;
    midedge_bending_rows(rest, s.triangles, hinges, d, s.material.poisson_ratio, bending);
    for (const MidedgeBendingRow& row : bending) {
      for (int j = 0; j < kBendingHinges; ++j) {
        const int h = row.hinge[static_cast<std::size_t>(j)];
        m.bending_hinge.push_back(h < 0 ? -1 : first_hinge + h);
        m.bending_weight.push_back(row.weight[static_cast<std::size_t>(j)]);
      }
      for (int k = 0; k < kBendingParticles; ++k) m.bending_particle.push_back(row.particle[static_cast<std::size_t>(k)]);
      m.bending_stiffness.push_back(row.stiffness);
      m.bending_damping.push_back(s.material.damping);
      ++m.bending_count;
    }
  }
  return {};
}

}  // namespace sim
