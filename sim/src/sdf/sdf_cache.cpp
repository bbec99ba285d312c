// Cache keys and locations for baked grids (see sdf_cache.hpp).
#include "sdf/sdf_cache.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace sim {
namespace detail {

namespace {

// FNV-1a 64 with a given offset basis; two bases give two independent 64-bit halves.
struct Fnv {
  std::uint64_t h;
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  }
  template <class T>
  void value(const T& v) {
    bytes(&v, sizeof(T));
  }
};

}  // namespace

std::string sdf_cache_key(const TriangleMesh& mesh, const SdfCacheKeyParams& params) {
  Fnv a{0xcbf29ce484222325ull}, b{0x84222325cbf29ce4ull};
  auto feed = [&](auto v) {
    a.value(v);
    b.value(v);
  };
  const char version[] = "coulomb-sdf-v4";  // v4: with the far field (4x coarser, half-extent reach)
  a.bytes(version, sizeof(version));
  b.bytes(version, sizeof(version));
  feed(static_cast<std::uint64_t>(mesh.vertices.size()));
  for (const Vec3& v : mesh.vertices)
    for (int k = 0; k < 3; ++k) feed(static_cast<double>(v[k]));
  feed(static_cast<std::uint64_t>(mesh.triangles.size()));
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) feed(static_cast<std::int32_t>(t[k]));
  feed(params.voxel_size);
  feed(params.band);
  feed(static_cast<std::uint8_t>(params.fill_interior));
  feed(static_cast<std::uint8_t>(params.signed_field));
  char hex[33];
  std::snprintf(hex, sizeof(hex), "%016llx%016llx", static_cast<unsigned long long>(a.h),
                static_cast<unsigned long long>(b.h ^ (a.h >> 1)));
  return hex;
}

std::string ensure_directory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec && !std::filesystem::is_directory(dir)) return dir + ": cannot create cache directory: " + ec.message();
  return {};
}

std::string sdf_cache_path(const std::string& dir, const std::string& key) {
  return (std::filesystem::path(dir) / (key + ".vdb")).string();
}

std::size_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return static_cast<std::size_t>(std::strtoull(line.c_str() + 6, nullptr, 10)) * 1024;
  }
  return 0;
}

}  // namespace detail

std::string default_sdf_cache_dir() {
  namespace fs = std::filesystem;
  if (const char* c = std::getenv("COULOMB_CACHE"); c != nullptr && *c != '\0') return (fs::path(c) / "sdf").string();
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0')
    return (fs::path(x) / "coulomb" / "sdf").string();
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0')
    return (fs::path(h) / ".cache" / "coulomb" / "sdf").string();
  return (fs::temp_directory_path() / "coulomb-cache" / "sdf").string();
}

}  // namespace sim
