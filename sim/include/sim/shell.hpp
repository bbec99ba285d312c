// Shells and membrane cloth (paper §9.1's compliance form on triangles): triangles over particles
// with membrane rows and, over each interior edge, a bending hinge (constraint/shell_rows.hpp). The
// scene XML's <cloth model="membrane"> and <shell> build them through these.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sim/soft_body.hpp"
#include "sim/spec.hpp"

namespace sim {

// E, ν, thickness, density and damping checked; "" when valid.
std::string check_shell_material(const ShellMaterialSpec& material);

// The plate's bending stiffness D [N m]: the material's `bending` when >= 0, else E t³/(12(1 − ν²)).
Real shell_bending_stiffness(const ShellMaterialSpec& material);

// Plane-stress Lamé parameters times the thickness [N/m]: μ t = E t/(2(1+ν)), λ* t = E ν t/(1−ν²).
void shell_membrane_lame(const ShellMaterialSpec& material, Real& mu_t, Real& lambda_t);

// Each point's lumped mass: ρ t A/3 from every triangle it is a corner of [kg].
std::vector<Real> shell_lumped_masses(const std::vector<Vec3>& points, const std::vector<std::array<int, 3>>& triangles,
                                      Real areal_density);

// The hinges of a triangle set: every edge of exactly two triangles as (x0, x1 the edge, x2, x3 the
// two opposite corners), in the order of the edges' sorted keys. Returns an error naming an edge of
// three or more triangles (not a surface) or a triangle with a repeated corner, else "".
std::string shell_hinges(const std::vector<std::array<int, 3>>& triangles, std::vector<std::array<int, 4>>& hinges);

// Pose, velocity, particle radius, friction material and `faces` (register the triangles as
// particle_triangles for SDF face contacts), as a soft body's.
using ShellPlacement = SoftBodyPlacement;

// Appends the points as particles (lumped masses ρ t A/3) and the triangles as a ShellSpec. Returns
// the first particle's index, or -1 with `error` set (a bad material, an index out of range, a
// degenerate triangle).
int add_shell(SceneSpec& spec, const std::vector<Vec3>& points, const std::vector<std::array<int, 3>>& triangles,
              const ShellMaterialSpec& material, const ShellPlacement& placement, const std::string& name,
              std::string& error);

}  // namespace sim
