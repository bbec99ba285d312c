// Whole reads and writes on POSIX file descriptors: retried on EINTR and partial transfers, so
// a short write (a full disk) or an early end of file is a failure the caller sees.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace sim::io {

// Writes all n bytes; false on an error (errno says which; EIO for a write that wrote nothing).
inline bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w == 0) errno = EIO;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// Reads exactly n bytes from the file's position; false on an error or an early end of file.
inline bool read_exactly(int fd, void* out, std::size_t n) {
  char* p = static_cast<char*>(out);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) errno = EIO;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

}  // namespace sim::io
