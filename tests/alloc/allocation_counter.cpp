// Interposed C allocator entry points that count their calls, then hand over to glibc's own
// (__libc_malloc and friends). Defined in the executable, they take precedence over libc's for
// every library the process loads (libstdc++'s operator new, Eigen, oneTBB), so a test sees each
// call, not the net bytes in use: a buffer freed and allocated again in the same step counts.
// Set COULOMB_ALLOC_ABORT=1 to abort on the first counted call (a core or gdb shows who made it).
#include "allocation_counter.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdlib>

#ifndef __GLIBC__
#error "the allocation counter interposes glibc's allocator"
#endif

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace {
std::atomic<std::int64_t> g_calls{0};
std::atomic<bool> g_counting{false};
std::atomic<int> g_abort{-1};  // -1: not read yet

void count() {
  if (!g_counting.load(std::memory_order_relaxed)) return;
  g_calls.fetch_add(1, std::memory_order_relaxed);
  if (g_abort.load(std::memory_order_relaxed) == 1) std::abort();
}
}  // namespace

namespace test::alloc {
std::int64_t calls() { return g_calls.load(); }
void reset() { g_calls = 0; }
void set_counting(bool on) {
  if (g_abort.load() < 0) {
    const char* e = std::getenv("COULOMB_ALLOC_ABORT");  // read here: getenv before counting starts
    g_abort = (e && e[0] == '1') ? 1 : 0;
  }
  g_counting = on;
}
}  // namespace test::alloc

extern "C" {
void* malloc(std::size_t n) {
  count();
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  count();
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  count();
  return __libc_realloc(p, n);
}
void* memalign(std::size_t alignment, std::size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
void* aligned_alloc(std::size_t alignment, std::size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
  count();
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = __libc_memalign(alignment, n);
  if (!p && n) return ENOMEM;
  *out = p;
  return 0;
}
}
