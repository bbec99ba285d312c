// Signed distance fields for collision (thesis ch. 6, L1421-1675): triangle meshes, their baked
// narrow-band grids (OpenVDB bakes, NanoVDB samples, trilinear), an on-disk cache of baked grids,
// and the options of SDF contact generation (vertices, golden-section edges, PGD / Frank-Wolfe
// faces). OpenVDB and NanoVDB stay behind SdfGrid's pimpl: this header needs only Eigen.
//
// Conventions (thesis §6, L1429-1433): φ < 0 inside, ∇φ points away from the surface, the closest
// surface point of x is x − φ(x) ∇φ(x)/|∇φ(x)|. All queries are in the shape's own frame.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/result.hpp"

namespace sim {

// ---- triangle meshes ---------------------------------------------------------------------------

struct TriangleMesh {
  std::vector<Vec3> vertices;                 // shape frame [m] (vertex_count)
  std::vector<std::array<int, 3>> triangles;  // vertex indices, counter-clockwise seen from outside
  std::vector<Vec2> corner_uvs;               // texture coordinates, 3 per triangle (the file's first UV set), or none
};

// What is wrong with a mesh, for warnings. Nothing here stops a bake: degenerate triangles are
// dropped, an open or non-manifold mesh bakes an unsigned field (see SdfBakeReport::signed_field).
struct MeshDiagnostics {
  int vertex_count = 0;
  int triangle_count = 0;
  int non_finite_vertices = 0;   // NaN / inf coordinates (such a mesh cannot be baked)
  int bad_indices = 0;           // triangles with an index out of range (dropped)
  int degenerate_triangles = 0;  // repeated index or zero area (dropped)
  int boundary_edges = 0;        // edges of one triangle: the mesh is open
  int non_manifold_edges = 0;    // edges of three or more triangles
  int inconsistent_edges = 0;    // edges walked the same way by both triangles (flipped faces)
  int unused_vertices = 0;
  bool closed() const { return boundary_edges == 0 && non_manifold_edges == 0; }
  bool watertight() const { return closed() && inconsistent_edges == 0 && bad_indices == 0; }
  std::vector<std::string> warnings() const;  // one line per problem, empty for a clean mesh
};

MeshDiagnostics check_mesh(const TriangleMesh& mesh);

// Reads any format Assimp knows (OBJ, STL, PLY, glTF, ...): all meshes of the file, node
// transforms applied, triangulated, vertices within 1e-9 of the mesh's extent welded (so a closed
// STL part is closed by index; sim/src/sdf/mesh_io.hpp weld_vertices). Assimp runs in a child process
// with bounded time and memory, so a file that crashes, hangs or exhausts it is an error; so are
// out-of-range indices and non-finite values. Errors name the file.
Result<TriangleMesh> load_triangle_mesh(const std::string& path);
// Writes a Wavefront OBJ (v / f lines). Returns an error message, empty on success.
std::string save_obj(const TriangleMesh& mesh, const std::string& path);

// Generated meshes (shape frame, outward counter-clockwise triangles, watertight).
TriangleMesh make_box_mesh(const Vec3& half_extents);             // 8 vertices, 12 triangles
TriangleMesh make_sphere_mesh(Real radius, int subdivisions);     // icosphere, 20·4^s triangles
// Cone with its base disc at z = 0 and its apex at z = height (a sharp point).
TriangleMesh make_cone_mesh(Real radius, Real height, int segments);
// Thick-walled bowl (a solid of revolution, axis z): outer radius at the rim, wall thickness,
// height from the outer bottom (z = 0) to the rim; a spherical-cap profile. Non-convex.
TriangleMesh make_bowl_mesh(Real radius, Real wall, Real height, int segments, int rings);

// ---- baked grids ---------------------------------------------------------------------------------

struct SdfGridImpl;  // NanoVDB grid and its metadata (sim/src/sdf/sdf_grid_impl.hpp)

// A baked distance field: a sparse NanoVDB float grid in the shape frame (a narrow band outside,
// filled inside), sampled trilinearly, with a coarse far field that guides the local optimisation
// outside the band (sim/src/sdf/nano_sdf.hpp). Immutable and shared
// (std::shared_ptr<const SdfGrid>); safe to sample from many threads.
class SdfGrid {
 public:
  explicit SdfGrid(std::unique_ptr<SdfGridImpl> impl);
  ~SdfGrid();
  SdfGrid(const SdfGrid&) = delete;
  SdfGrid& operator=(const SdfGrid&) = delete;

  Real voxel_size() const;            // [m]
  Real background() const;            // |φ| stored outside the active band [m]
  bool is_signed() const;             // false: unsigned distance (open mesh), no inside
  Vec3 bounds_min() const;            // world box of the active voxels, shape frame [m]
  Vec3 bounds_max() const;
  std::size_t active_voxel_count() const;
  std::size_t memory_bytes() const;   // size of the NanoVDB buffers (grid and far field)
  const void* nanovdb_data() const;   // the NanoVDB grid buffer (upload it for a GPU sampler)
  const void* far_field_data() const; // the far field's NanoVDB buffer, null without one
  Real far_field_voxel_size() const;  // [m], 0 without a far field

  // φ at a point of the shape frame (trilinear) [m]. Outside the narrow band: the coarse far field
  // (a rough distance, never below background(), whose gradient still points at the surface), or
  // ±background() for a grid read without one.
  Real sample(const Vec3& p) const;
  // φ and the gradient of the trilinear interpolant (not normalised) [m], [1].
  Real sample(const Vec3& p, Vec3& gradient) const;
  // True when the sample is inside the narrow band (its gradient is meaningful).
  bool in_band(Real phi) const { return phi < background() - voxel_size(); }

  // φ on an nx × ny grid of points filling the plane `axis` = offset over the grid's bounds
  // (x, y, z = 0, 1, 2; the two other axes in increasing order), row-major, first axis fastest.
  // For slice overlays. `lo` and `hi` receive the corners of the plane region sampled.
  void sample_slice(int axis, Real offset, int nx, int ny, std::vector<float>& out, Vec3& lo, Vec3& hi) const;

  const SdfGridImpl& impl() const { return *impl_; }

 private:
  std::unique_ptr<SdfGridImpl> impl_;
};

struct SdfBakeOptions {
  Real voxel_size = 0;       // grid spacing [m]; 0: largest extent / resolution
  int resolution = 64;       // voxels along the largest extent when voxel_size = 0
  Real band = 3;             // exterior narrow band half width [voxels]
  bool fill_interior = true; // every interior voxel active, so deep points have a gradient
  bool use_cache = true;     // read and write the on-disk cache
  std::string cache_dir;     // "": default_sdf_cache_dir()
  std::string output_file;   // also write the baked grid here as .vdb ("" : no)
  // Called at each stage ("check", "bake", "nanovdb", "cache") with a fraction in [0, 1].
  std::function<void(const char* stage, double fraction)> progress;
};

struct SdfBakeReport {
  bool cache_hit = false;        // read from the cache instead of baked
  std::string cache_file;        // the cache entry used or written ("" without cache)
  double seconds = 0;            // wall time of the whole call
  double bake_seconds = 0;       // OpenVDB mesh to volume
  double convert_seconds = 0;    // OpenVDB to NanoVDB
  double io_seconds = 0;         // cache read or write
  std::size_t active_voxels = 0;
  std::size_t openvdb_bytes = 0; // OpenVDB grid memory (0 on a cache hit before conversion)
  std::size_t nanovdb_bytes = 0; // NanoVDB buffer
  std::size_t peak_rss_bytes = 0;  // process peak resident set after the bake
  Real voxel_size = 0;           // [m]
  Real band = 0;                 // exterior band [voxels]
  bool signed_field = true;      // false: the mesh is open or non-manifold, unsigned distance
  MeshDiagnostics diagnostics;
  std::vector<std::string> warnings;
  std::string cache_error;       // writing the cache entry failed (full disk, ...): no entry left; also a warning
};

// The exterior band [voxels] a triangle-mesh shape (ShapeSpec::sdf_band) is baked with: at least
// `band` and 1, and wide enough that the field reaches contact_margin + thickness (+1 voxel), so
// every contact the margin admits samples the band (thesis §6.5). compile_model and the app's
// baker panel both use it, so a panel bake is the cache entry the next compile reads.
Real sdf_shape_band(Real band, Real voxel_size, Real thickness, Real contact_margin);

// $COULOMB_CACHE/sdf if set, else $XDG_CACHE_HOME/coulomb/sdf, else ~/.cache/coulomb/sdf.
std::string default_sdf_cache_dir();

// Mesh → narrow-band signed distance grid (openvdb::tools::meshToSignedDistanceField), cached
// under a hash of the mesh and the options. Open, non-manifold or inconsistently oriented meshes
// bake an unsigned field with a warning; degenerate triangles are dropped with a warning. Fails
// only for an empty mesh, non-finite coordinates or a non-positive voxel size.
Result<std::shared_ptr<const SdfGrid>> bake_sdf(const TriangleMesh& mesh, const SdfBakeOptions& options = {},
                                                SdfBakeReport* report = nullptr);
// Reads the first float grid of a .vdb file (written by bake_sdf or any level-set tool).
Result<std::shared_ptr<const SdfGrid>> load_sdf(const std::string& vdb_path);

// ---- collision shapes -------------------------------------------------------------------------

// A triangle mesh ready for SDF collision: the mesh, its edges and representative features, and
// its baked grid. Shared by every shape that uses it (Model::meshes).
struct SdfMesh {
  TriangleMesh mesh;                                 // shape frame, degenerate triangles dropped
  std::vector<std::array<int, 2>> edges;             // unique edges, lower index first (edge_count)
  std::vector<std::array<int, 3>> triangle_edges;    // edge k of a triangle joins corners k, k+1
  std::vector<char> edge_is_feature;                 // boundary, non-manifold or not flat (edge_count)
  std::vector<int> vertex_owner;                     // representative triangle of each vertex, -1 unused
  std::vector<int> edge_owner;                       // representative triangle of each edge
  Vec3 bound_center = Vec3::Zero();                  // bounding sphere, shape frame [m]
  Real bound_radius = 0;
  std::shared_ptr<const SdfGrid> grid;
  MeshDiagnostics diagnostics;
  std::vector<std::string> cache_problems;           // the bake's "sdf cache: ..." warnings (entry re-baked, not written)
};

// Checks, builds the topology and bakes (through the cache). Warnings go to `report`.
Result<std::shared_ptr<const SdfMesh>> make_sdf_mesh(const TriangleMesh& mesh, const SdfBakeOptions& options = {},
                                                     SdfBakeReport* report = nullptr);

// ---- contact generation options --------------------------------------------------------------

enum class SdfFaceMethod { None, ProjectedGradient, FrankWolfe };

// How contacts between SDF shapes and meshes, primitives and particles are generated (thesis
// §6.2-6.4 with the corrections of the digest, friction-and-sdf-collision.md §5, §7).
struct SdfContactOptions {
  bool vertices = true;          // every vertex against the other shape's field (Guendelman)
  bool edges = true;             // golden-section search along feature edges (§6.3.1)
  SdfFaceMethod faces = SdfFaceMethod::ProjectedGradient;  // §6.2.1 / §6.2.2
  bool particle_faces = true;    // cloth triangles (Model::particle_triangles) against fields
  int iterations = 32;           // per feature, as the thesis's Table 4
  Real pgd_step = Real(0.5);     // largest PGD step in barycentric units (halved when φ does not drop, doubled back when it does)
  Real tolerance = Real(1e-5);   // projected-gradient / FW-gap / bracket tolerance, relative to the feature size
  Real cull_slack = 1;           // bounding-sphere cull slack [voxels] for interpolated fields
  int max_pair_contacts = 64;    // rigid pairs keep at most this many (deepest and extent); 0: all
};

}  // namespace sim
