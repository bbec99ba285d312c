// Counts calls to the C allocator (malloc, calloc, realloc and the aligned forms; operator new
// reaches malloc) while switched on, from any thread: the probe for "no allocation in the step
// loop". The counting definitions live in allocation_counter.cpp and replace glibc's malloc in the
// executable that links it (symbol interposition), so only a test executable of its own may.
#pragma once

#include <cstdint>

namespace test::alloc {

// Calls counted since the last reset (all threads).
std::int64_t calls();
void reset();
// Counting on or off (off at start).
void set_counting(bool on);

// Counts the calls made inside its scope.
class CountingScope {
 public:
  CountingScope() { reset(); set_counting(true); }
  ~CountingScope() { set_counting(false); }
  CountingScope(const CountingScope&) = delete;
  CountingScope& operator=(const CountingScope&) = delete;
  std::int64_t calls() const { return test::alloc::calls(); }
};

}  // namespace test::alloc
