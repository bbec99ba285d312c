#include "cuda/device_sdf_features.hpp"

#include <cuda_runtime.h>

namespace sim::cuda {

namespace {

constexpr int kBlock = 128;
inline int blocks_for(int n) { return (n + kBlock - 1) / kBlock; }

__global__ void mesh_vertices(detail::SdfMeshView mesh, detail::SdfGridView grid, Mat3 R, Vec3 t, Vec3* position,
                              Real* phi, Vec3* grad) {
  const int v = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (v >= mesh.vertex_count) return;
  detail::NanoSdf field(grid);
  phi[v] = detail::place_and_sample(field, R, t, mesh.vertices[v], position[v], grad[v]);
}

// One thread a feature edge (kEdges) or a triangle: its search, hit and counts.
template <bool kEdges>
__global__ void mesh_feature_searches(detail::SdfMeshView mesh, detail::SdfGridView grid, const Vec3* position,
                                      const Real* phi, Real reach, SdfContactOptions o, detail::FeatureHit* hits,
                                      detail::FeatureCounts* counts) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= (kEdges ? mesh.edge_count : mesh.triangle_count)) return;
  detail::NanoSdf field(grid);
  detail::FeatureCounts n;
  hits[i] = kEdges ? detail::edge_feature(field, mesh, i, position, phi, reach, o, n)
                   : detail::face_feature(field, mesh, i, position, phi, reach, o, n);
  counts[i] = n;
}

template <class T>
cudaError_t upload_array(const T* host, std::size_t count, void*& device, const T*& view) {
  if (const cudaError_t e = cudaMalloc(&device, (count > 0 ? count : 1) * sizeof(T)); e != cudaSuccess) return e;
  if (count > 0)
    if (const cudaError_t e = cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice); e != cudaSuccess)
      return e;
  view = static_cast<const T*>(device);
  return cudaSuccess;
}

}  // namespace

std::unique_ptr<DeviceSdfMesh> DeviceSdfMesh::upload(const SdfMesh& mesh, std::string& error) {
  std::unique_ptr<DeviceSdfMesh> d(new DeviceSdfMesh());
  const detail::SdfMeshView h = detail::mesh_view(mesh);
  d->view_ = h;  // the counts; every pointer is replaced below
  const std::size_t v = std::size_t(h.vertex_count), f = std::size_t(h.triangle_count), e = std::size_t(h.edge_count);
  cudaError_t r = upload_array(h.vertices, v, d->arrays_[0], d->view_.vertices);
  if (r == cudaSuccess) r = upload_array(h.triangles, 3 * f, d->arrays_[1], d->view_.triangles);
  if (r == cudaSuccess) r = upload_array(h.edges, 2 * e, d->arrays_[2], d->view_.edges);
  if (r == cudaSuccess) r = upload_array(h.triangle_edges, 3 * f, d->arrays_[3], d->view_.triangle_edges);
  if (r == cudaSuccess) r = upload_array(h.edge_is_feature, e, d->arrays_[4], d->view_.edge_is_feature);
  if (r == cudaSuccess) r = upload_array(h.vertex_owner, v, d->arrays_[5], d->view_.vertex_owner);
  if (r == cudaSuccess) r = upload_array(h.edge_owner, e, d->arrays_[6], d->view_.edge_owner);
  if (r != cudaSuccess) {
    error = std::string("uploading an SDF mesh to the device: ") + cudaGetErrorString(r);
    cudaGetLastError();
    return nullptr;
  }
  return d;
}

DeviceSdfMesh::~DeviceSdfMesh() {
  for (void* p : arrays_) cudaFree(p);
}

cudaError_t launch_mesh_features(const detail::SdfMeshView& mesh, const detail::SdfGridView& grid, const Mat3& R,
                                 const Vec3& t, Real reach, const SdfContactOptions& options,
                                 const MeshFeatureOutputs& out, cudaStream_t stream) {
  if (mesh.vertex_count > 0)
    mesh_vertices<<<blocks_for(mesh.vertex_count), kBlock, 0, stream>>>(mesh, grid, R, t, out.position, out.phi,
                                                                        out.grad);
  if (options.edges && mesh.edge_count > 0)
    mesh_feature_searches<true><<<blocks_for(mesh.edge_count), kBlock, 0, stream>>>(
        mesh, grid, out.position, out.phi, reach, options, out.edge_hits, out.edge_counts);
  if (options.faces != SdfFaceMethod::None && mesh.triangle_count > 0)
    mesh_feature_searches<false><<<blocks_for(mesh.triangle_count), kBlock, 0, stream>>>(
        mesh, grid, out.position, out.phi, reach, options, out.face_hits, out.face_counts);
  return cudaGetLastError();
}

}  // namespace sim::cuda
