// Whether this test binary runs under AddressSanitizer (the sanitizer build, docs/FUZZING.md).
// There a failed allocation in operator new is reported by ASan's allocator and aborts the
// process (SIGABRT) instead of throwing std::bad_alloc.
#pragma once

namespace test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace test
