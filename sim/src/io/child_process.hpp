// Running third-party code that may crash, hang or exhaust memory in a forked child process with
// bounded wall time, CPU time and address space; the child's bytes come back over a pipe, and a
// crash, abort, time-out or out-of-memory becomes a described outcome instead of the caller's.
//
// The work runs right after fork() in a copy of the calling process, in which only the forking
// thread exists: it must not use TBB, Qt, OpenVDB or locks other threads may have held (malloc
// and stdio are safe: glibc's fork takes and resets their locks). A lock that is still left held
// shows up as a time-out, never as a hang. The child ends with _exit (no atexit handlers, no
// static destructors, no stdio flush of the parent's buffers).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "io/fd_io.hpp"

namespace sim::io {

struct ChildLimits {
  double wall_seconds = 5;                    // the child is killed (SIGKILL) after this
  std::size_t extra_address_space = 1u << 30; // RLIMIT_AS: the address space at fork plus this [bytes]
  std::size_t max_output_bytes = 1u << 30;    // more output than this kills the child
};

struct ChildOutcome {
  enum class Kind {
    finished,       // exited with status 0; `output` holds what it wrote
    failed,         // exited with another status (`exit_code`)
    out_of_memory,  // std::bad_alloc escaped the work (the address-space limit, or a real shortage)
    crashed,        // killed by a signal (`signal`): SIGSEGV, SIGABRT, SIGXCPU, ...
    timed_out,      // still running at the wall-time limit: killed
    output_too_large,
    not_started,    // pipe() or fork() failed (`detail` says why)
  };
  Kind kind = Kind::not_started;
  std::string output;
  std::string messages;  // what the child printed to stdout and stderr (its last 16 KiB)
  int exit_code = 0;
  int signal = 0;
  std::string detail;
};

// Exit statuses of a child whose work threw std::bad_alloc, or something else.
inline constexpr int kChildOutOfMemoryExit = 70;
inline constexpr int kChildExceptionExit = 71;

// Forks; the child runs `work(fd)` (writing its result to fd) under `limits` and exits 0 when it
// returns; its stdout and stderr go to ChildOutcome::messages. The parent collects the bytes and
// reaps the child.
ChildOutcome run_in_child(const std::function<void(int fd)>& work, const ChildLimits& limits);

// "crashed (SIGSEGV, segmentation fault)", "timed out after 5 s", ... for messages.
std::string describe(const ChildOutcome& outcome, const ChildLimits& limits);

}  // namespace sim::io
