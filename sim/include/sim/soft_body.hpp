// FEM soft bodies (paper §9.2): a TetMesh becomes particles with lumped masses, its tetrahedra a
// SoftBodySpec (the element rows, constraint/tet_rows.hpp) and its boundary triangles cloth faces
// (spec.particle_triangles: face contacts against SDFs). The scene XML's <softbody> calls these,
// with a generated box (box_tet_mesh) or a mesh read by the tet-mesh readers.
#pragma once

#include <string>
#include <vector>

#include "sim/spec.hpp"
#include "sim/tet_mesh.hpp"

namespace sim {

// The material model's own Lamé parameters (Model::tet_mu, tet_lambda) from E, ν (or λ, μ given):
// μ_0 = E/(2(1+ν)), λ_0 = Eν/((1+ν)(1−2ν)); co-rotational uses (μ_0, λ_0), stable Neo-Hookean
// (μ_0, λ_0 + μ_0), whose small-strain Lamé parameters are then (μ_0, λ_0) (tet_material_kernel.hpp).
// Returns an error message ("" when valid).
std::string soft_body_lame(const SoftMaterialSpec& material, Real& mu, Real& lambda);

// A box of size `size` centred at the origin, nx × ny × nz cells of 6 tetrahedra each (the Kuhn
// subdivision along the cell diagonal: neighbouring cells' faces match), boundary computed.
TetMesh box_tet_mesh(const Vec3& size, int nx, int ny, int nz);

// A ball of `radius` centred at the origin: box_tet_mesh(2r, n, n, n) with every point moved by the
// cube-to-ball map x' = r x̂ sqrt(1 − ŷ²/2 − ẑ²/2 + ŷ²ẑ²/3) (and cyclically; x̂ = x/r in [−1, 1]),
// smooth and orientation-preserving, so the Kuhn tets stay positive (the tomato, the soft ball).
TetMesh ball_tet_mesh(Real radius, int n);

struct SoftBodyPlacement {
  Pose pose;                        // mesh frame → world
  Vec3 velocity = Vec3::Zero();     // initial velocity of every particle [m/s]
  Real particle_radius = Real(0.005);  // collision radius of the particles [m]
  int material = -1;                // friction material of the particles (index into spec.materials)
  bool faces = true;                // register the boundary triangles as particle_triangles
};

// Appends `points` placed by `placement` as particles with masses `mass` (soft bodies, shells);
// returns the first one's index.
int add_placed_particles(SceneSpec& spec, const std::vector<Vec3>& points, const std::vector<Real>& mass,
                         const SoftBodyPlacement& placement);

// Appends the mesh's points as particles (mass = density × the volume of their tets / 4, the
// lumped mass of §9.3), its tets as a SoftBodySpec and, with `faces`, its boundary triangles
// (computed when the mesh has none). Returns the index of the first particle, or -1 with `error`
// set (a negatively oriented or degenerate tet, an index out of range, a bad material).
int add_soft_body(SceneSpec& spec, const TetMesh& mesh, const SoftMaterialSpec& material,
                  const SoftBodyPlacement& placement, const std::string& name, std::string& error);

}  // namespace sim
