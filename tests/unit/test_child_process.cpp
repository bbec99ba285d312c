// io/child_process.hpp: work that crashes, aborts, hangs, exhausts its address space or throws
// in the forked child becomes a described outcome in the parent, which goes on; a child that
// finishes hands back its bytes exactly (more than a pipe's buffer, so the parent must read while
// it waits).
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/sanitizer.hpp"
#include "io/child_process.hpp"

using sim::io::ChildLimits;
using sim::io::ChildOutcome;
using sim::io::run_in_child;

namespace {

using test::kAddressSanitizer;  // ASan aborts on a failed allocation (support/sanitizer.hpp)

ChildLimits quick_limits() {
  ChildLimits l;
  l.wall_seconds = 2;
  l.extra_address_space = std::size_t(256) << 20;
  return l;
}

}  // namespace

TEST_CASE("a child's output comes back byte for byte, larger than a pipe buffer", "[unit][io]") {
  std::string expected(300000, '\0');
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<char>((i * 2654435761u) >> 13);
  const ChildOutcome o = run_in_child([&](int fd) { sim::io::write_all(fd, expected.data(), expected.size()); }, quick_limits());
  REQUIRE(o.kind == ChildOutcome::Kind::finished);
  CHECK(o.output == expected);
}

TEST_CASE("a crash, an abort, a hang, an exhausted address space and an exception in the child are outcomes",
          "[unit][io]") {
  const ChildLimits limits = quick_limits();
  SECTION("segmentation fault") {
    const ChildOutcome o = run_in_child([](int) { ::raise(SIGSEGV); }, limits);
    CHECK(o.kind == ChildOutcome::Kind::crashed);
    CHECK(o.signal == SIGSEGV);
    CHECK(sim::io::describe(o, limits) == "crashed (SIGSEGV, segmentation fault)");
  }
  SECTION("abort (a failed assertion)") {
    const ChildOutcome o = run_in_child(
        [](int) {
          std::fprintf(stderr, "assertion failed: the child's last words\n");
          std::abort();
        },
        limits);
    CHECK(o.kind == ChildOutcome::Kind::crashed);
    CHECK(o.signal == SIGABRT);
    CHECK(o.messages == "assertion failed: the child's last words\n");
  }
  SECTION("an endless loop is killed at the wall-time limit") {
    const ChildOutcome o = run_in_child(
        [](int) {
          volatile unsigned long spin = 0;
          for (;;) spin = spin + 1;
        },
        limits);
    CHECK(o.kind == ChildOutcome::Kind::timed_out);
    CHECK(sim::io::describe(o, limits) == "did not finish within 2 s (killed)");
  }
  SECTION("an allocation beyond the address-space limit") {
    const ChildOutcome o = run_in_child(
        [](int fd) {
          std::vector<char> big(std::size_t(4) << 30, 1);  // 4 GiB against a 256 MiB allowance
          sim::io::write_all(fd, big.data(), 1);
        },
        limits);
    if (kAddressSanitizer) {
      CHECK(o.kind == ChildOutcome::Kind::crashed);
      CHECK(o.signal == SIGABRT);
    } else {
      CHECK(o.kind == ChildOutcome::Kind::out_of_memory);
    }
    CHECK(o.output.empty());
  }
  SECTION("an exception") {
    const ChildOutcome o = run_in_child([](int) { throw std::runtime_error("no"); }, limits);
    CHECK(o.kind == ChildOutcome::Kind::failed);
    CHECK(o.exit_code == sim::io::kChildExceptionExit);
  }
  SECTION("more output than allowed") {
    ChildLimits small = limits;
    small.max_output_bytes = 1000;
    const ChildOutcome o = run_in_child(
        [](int fd) {
          const std::string chunk(4096, 'x');
          for (;;)
            if (!sim::io::write_all(fd, chunk.data(), chunk.size())) return;
        },
        small);
    CHECK(o.kind == ChildOutcome::Kind::output_too_large);
  }
  // The parent is unharmed and can run the next child.
  const ChildOutcome after = run_in_child([](int fd) { sim::io::write_all(fd, "ok", 2); }, limits);
  CHECK(after.kind == ChildOutcome::Kind::finished);
  CHECK(after.output == "ok");
}
