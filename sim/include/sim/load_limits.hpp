// Upper bounds on sizes and counts read from files (scene XML and its includes, recordings,
// solver options from any source). Every reader checks a count against these before it
// allocates or loops on it, and a recording's counts also against the bytes the file has left,
// so no input costs unbounded time or memory; the error names the file and line (or byte
// offset). The table with the reasons is docs/LIMITS.md; keep the two in step.
#pragma once

#include <cstdint>
#include <string>

#include "sim/math.hpp"

namespace sim {

struct SolverOptions;

// Checks the counts (substeps and iteration caps) of options set in code or edited rather than
// parsed (set_solver_option checks those) against the bounds below; returns an error message,
// empty when within bounds. Defined in core/solver_options.cpp.
std::string check_solver_counts(const SolverOptions& options);

}  // namespace sim

namespace sim::limits {

// ---- files ------------------------------------------------------------------------------------
// One text file (scene, include, URDF, MJCF, OBJ) [bytes].
inline constexpr std::uintmax_t kMaxTextFileBytes = std::uintmax_t(256) << 20;
// A scene and everything it includes, all levels together [bytes].
inline constexpr std::uintmax_t kMaxSceneTotalBytes = std::uintmax_t(512) << 20;
// <include> nesting depth, and includes in one scene counted over all levels.
inline constexpr int kMaxIncludeDepth = 16;
inline constexpr int kMaxIncludeCount = 1024;

// ---- solver options (scene <solver>, --set, recordings) --------------------------------------
inline constexpr int kMaxSubsteps = 1000;
// SolverOptions::step_retries: each retry doubles a failed step's substeps (16x at most).
inline constexpr int kMaxStepRetries = 4;
// newton_iterations, linear_iterations(_max), newton_stall_iterations, pgs_iterations.
inline constexpr int kMaxSolverIterations = 100000;
// substeps x 2 (newton_iterations + 1) x max(linear_iterations, linear_iterations_max) (or
// substeps x (pgs_iterations + 1)): the records one step's solver trace reserves.
inline constexpr double kMaxTraceRecordsPerStep = double(1 << 24);

// ---- physical ranges of a scene (compile_model; the scene loader with the line) -------------
// The time step [s]: at 0.1 s a body falls 0.1 m in one step under gravity; a larger step is a
// unit mistake (dt="1e300" ran to positions of -inf).
inline constexpr Real kMaxTimeStep = Real(0.1);
// |gravity| [m/s^2]: 100 g. (Gravity 1e9 sent a box to z = -69,527 m in one step.)
inline constexpr Real kMaxGravity = Real(1000);

// ---- generated and baked geometry --------------------------------------------------------------
inline constexpr int kMaxRopeSegments = 100000;
inline constexpr int kMaxClothSegments = 2000;  // per side
inline constexpr int kMaxBodyCount = 100000;
inline constexpr int kMaxParticleCount = 1 << 22;  // admits a 2000 x 2000 cloth
// SDF of a triangle mesh: exterior band [voxels] as written in a scene (sdf_band), voxels
// along the mesh's largest extent, and the padded grid box (extent + 2 band per axis, product).
inline constexpr Real kMaxSdfBand = 256;
inline constexpr int kMaxSdfResolution = 2048;
inline constexpr double kMaxSdfGridVoxels = double(std::uint64_t(1) << 30);
// The active voxels of the band a bake makes, estimated from the mesh's area before baking
// (estimate_sdf_band_voxels, sim/src/sdf/sdf_band_estimate.hpp): 2 area / voxel² × band + (4π/3) band³.
inline constexpr double kMaxSdfBandVoxels = double(std::uint64_t(1) << 22);
// The interior voxels a signed bake fills (enclosed volume / voxel³, estimate_sdf_interior_voxels):
// a closed cube at 200 voxels a side (8e6) baked in 6 s and 0.2 GB here, at 900 it would need
// several GB; 2^24 admits the 256³ benchmark sphere (7.8e6).
inline constexpr double kMaxSdfInteriorVoxels = double(std::uint64_t(1) << 24);

// ---- tetrahedral meshes (.msh, .node/.ele, .vtk/.vtu; TetGen output) ------------------------
// One tet-mesh file [bytes] (binary .msh of 2^24 tets is ~0.7 GB), nodes and tetrahedra in one
// mesh (node indices stay within int32 with room to spare), and the tets a TetGen run may be
// asked for (the enclosed volume over the maximum tet volume, checked before TetGen runs).
inline constexpr std::uintmax_t kMaxTetMeshFileBytes = std::uintmax_t(1) << 30;
inline constexpr std::int64_t kMaxTetMeshNodes = std::int64_t(1) << 24;
inline constexpr std::int64_t kMaxTetMeshTets = std::int64_t(1) << 26;
// Elements of any type a mesh file may declare (the others are skipped, but each costs a line).
inline constexpr std::int64_t kMaxTetMeshFileElements = std::int64_t(1) << 27;

// ---- recordings ---------------------------------------------------------------------------------
// Steps in one recording, and elements in one recorded vector (state or control).
inline constexpr std::uint64_t kMaxRecordingSteps = std::uint64_t(1) << 24;
inline constexpr std::uint64_t kMaxRecordingVector = std::uint64_t(1) << 26;

}  // namespace sim::limits
