// Cache keys and locations for baked grids (see sdf_cache.hpp).
#include "sdf/sdf_cache.hpp"

#include "io/fd_io.hpp"
#include "sim/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
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

constexpr char kMagic[8] = {'C', 'L', 'M', 'B', 'S', 'D', 'F', '1'};
constexpr std::size_t kChecksumOffset = kSdfCacheHeaderBytes - 8;

// FNV-1a 64 over the header before its checksum field, then the payload.
std::uint64_t entry_checksum(const char* header, std::string_view payload) {
  Fnv f{0xcbf29ce484222325ull};
  f.bytes(header, kChecksumOffset);
  f.bytes(payload.data(), payload.size());
  return f.h;
}

// Header layout: magic[8], payload bytes u64 @8, voxel f64 @16, band f64 @24, fill u8 @32,
// signed u8 @33, zeros, checksum u64 @56 (host byte order: the cache is per machine).
std::string make_header(const SdfCacheKeyParams& p, std::string_view payload) {
  std::string h(kSdfCacheHeaderBytes, '\0');
  const std::uint64_t size = payload.size();
  const std::uint8_t fill = p.fill_interior, sign = p.signed_field;
  std::memcpy(h.data(), kMagic, 8);
  std::memcpy(h.data() + 8, &size, 8);
  std::memcpy(h.data() + 16, &p.voxel_size, 8);
  std::memcpy(h.data() + 24, &p.band, 8);
  std::memcpy(h.data() + 32, &fill, 1);
  std::memcpy(h.data() + 33, &sign, 1);
  const std::uint64_t sum = entry_checksum(h.data(), payload);
  std::memcpy(h.data() + kChecksumOffset, &sum, 8);
  return h;
}

std::string errno_text() { return std::strerror(errno); }

}  // namespace

std::string write_sdf_cache_entry(const std::string& path, const SdfCacheKeyParams& params, std::string_view vdb_bytes) {
  const std::string header = make_header(params, vdb_bytes);
  return sim::write_file_atomically(path, {header, vdb_bytes});
}

SdfCacheEntry read_sdf_cache_entry(const std::string& path, const SdfCacheKeyParams& params) {
  SdfCacheEntry out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    out.error = path + ": cannot read: " + errno_text();
    return out;
  }
  struct stat st {};
  char header[kSdfCacheHeaderBytes];
  std::uint64_t size = 0, sum = 0;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    out.error = path + ": not a regular file";
  } else if (static_cast<std::uint64_t>(st.st_size) < kSdfCacheHeaderBytes || !io::read_exactly(fd, header, sizeof(header)) ||
             std::memcmp(header, kMagic, 8) != 0) {
    out.error = path + ": not a cache entry (no header: damaged, or written by another version)";
  } else {
    std::memcpy(&size, header + 8, 8);
    std::memcpy(&sum, header + kChecksumOffset, 8);
    const std::uint64_t have = static_cast<std::uint64_t>(st.st_size) - kSdfCacheHeaderBytes;
    if (have != size) {
      out.error = path + ": truncated or damaged (" + std::to_string(have) + " bytes after the header, which names " +
                  std::to_string(size) + ")";
    } else if (make_header(params, {}).compare(16, 18, header + 16, 18) != 0) {
      out.error = path + ": parameters differ from the header's";
    } else {
      out.vdb_bytes.resize(static_cast<std::size_t>(size));
      if (!io::read_exactly(fd, out.vdb_bytes.data(), out.vdb_bytes.size())) out.error = path + ": cannot read: " + errno_text();
      else if (entry_checksum(header, out.vdb_bytes) != sum) out.error = path + ": damaged (checksum mismatch)";
    }
  }
  ::close(fd);
  if (!out.error.empty()) out.vdb_bytes.clear();
  return out;
}

std::string sdf_cache_key(const TriangleMesh& mesh, const SdfCacheKeyParams& params) {
  Fnv a{0xcbf29ce484222325ull}, b{0x84222325cbf29ce4ull};
  auto feed = [&](auto v) {
    a.value(v);
    b.value(v);
  };
  const char version[] = "coulomb-sdf-v5";  // v5: entries with a checked header (v4: the far field)
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
