// The SDF narrowphase's feature searches on the device (collision/sdf_feature_search.hpp, the
// functions narrowphase_sdf.cpp's mesh_against runs): a mesh's topology in device memory
// (DeviceSdfMesh) searched against a grid on the device (DeviceSdfGrid) one thread a vertex, a
// feature edge or a triangle. Compiled without fused multiply-adds (--fmad=false), so each
// thread's arithmetic is the CPU's operation for operation and the searches take the same
// branches: the hits are the CPU's bit for bit. Plain C++ header.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "collision/sdf_feature_search.hpp"
#include "sdf/nano_sdf.hpp"

namespace sim::cuda {

class DeviceSdfMesh {
 public:
  // Copies the mesh's vertices and topology to the current device; null with `error` on failure.
  static std::unique_ptr<DeviceSdfMesh> upload(const SdfMesh& mesh, std::string& error);
  ~DeviceSdfMesh();
  DeviceSdfMesh(const DeviceSdfMesh&) = delete;
  DeviceSdfMesh& operator=(const DeviceSdfMesh&) = delete;
  const detail::SdfMeshView& view() const { return view_; }  // device pointers

 private:
  DeviceSdfMesh() = default;
  void* arrays_[7] = {};
  detail::SdfMeshView view_;
};

// Where one search writes (device memory): per vertex its placed position, φ and ∇φ; per edge and
// per triangle its hit and counts.
struct MeshFeatureOutputs {
  Vec3* position = nullptr;
  Real* phi = nullptr;
  Vec3* grad = nullptr;
  detail::FeatureHit* edge_hits = nullptr;
  detail::FeatureCounts* edge_counts = nullptr;
  detail::FeatureHit* face_hits = nullptr;
  detail::FeatureCounts* face_counts = nullptr;
};

// The mesh placed in the grid's frame by (R, t) against the grid: the vertex samples, then the
// feature edges (when options.edges) and the triangles (unless options.faces is None), within
// `reach` (the pair's separation bound plus the grid's cull slack), on `stream`.
cudaError_t launch_mesh_features(const detail::SdfMeshView& mesh, const detail::SdfGridView& grid, const Mat3& R,
                                 const Vec3& t, Real reach, const SdfContactOptions& options,
                                 const MeshFeatureOutputs& out, cudaStream_t stream);

}  // namespace sim::cuda
