// fork + rlimits + a pipe + waitpid with a deadline (see child_process.hpp).
#include "io/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio_ext.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

namespace sim::io {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kMaxMessageBytes = 16384;  // the last part of what the child printed

// The address space mapped now [bytes] (/proc/self/statm's first field), 0 where unknown.
std::size_t mapped_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long pages = 0;
  const int got = std::fscanf(f, "%llu", &pages);
  std::fclose(f);
  return got == 1 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

void lower_limit(int resource, rlim_t value) {
  rlimit r{};
  if (::getrlimit(resource, &r) != 0) return;
  if (r.rlim_max != RLIM_INFINITY && value > r.rlim_max) value = r.rlim_max;
  r.rlim_cur = value;
  ::setrlimit(resource, &r);
}

// In the child: default signal dispositions (a parent's crash handler must not run here), no
// blocked signals, no core file, the limits; then the work.
[[noreturn]] void child_main(int fd, int messages, const std::function<void(int)>& work, const ChildLimits& limits,
                             std::size_t address_space) {
  // The parent's unwritten stdio buffers are its own; what the child prints goes to `messages`.
  __fpurge(stdout);
  __fpurge(stderr);
  ::dup2(messages, STDOUT_FILENO);
  ::dup2(messages, STDERR_FILENO);
  for (int s : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGXCPU, SIGXFSZ, SIGPIPE, SIGTERM, SIGINT})
    ::signal(s, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  lower_limit(RLIMIT_CORE, 0);
  if (address_space > 0) lower_limit(RLIMIT_AS, static_cast<rlim_t>(address_space));
  lower_limit(RLIMIT_CPU, static_cast<rlim_t>(std::ceil(limits.wall_seconds)) + 1);
  try {
    work(fd);
  } catch (const std::bad_alloc&) {
    ::_exit(kChildOutOfMemoryExit);
  } catch (...) {
    ::_exit(kChildExceptionExit);
  }
  ::_exit(0);
}

}  // namespace

ChildOutcome run_in_child(const std::function<void(int fd)>& work, const ChildLimits& limits) {
  ChildOutcome out;
  int fds[2], msg[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    out.detail = std::string("pipe: ") + std::strerror(errno);
    return out;
  }
  if (::pipe2(msg, O_CLOEXEC) != 0) {
    out.detail = std::string("pipe: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return out;
  }
  const std::size_t now = mapped_bytes();
  const std::size_t address_space = now > 0 ? now + limits.extra_address_space : 0;
  const pid_t pid = ::fork();
  if (pid < 0) {
    out.detail = std::string("fork: ") + std::strerror(errno);
    for (int f : {fds[0], fds[1], msg[0], msg[1]}) ::close(f);
    return out;
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::close(msg[0]);
    child_main(fds[1], msg[1], work, limits, address_space);
  }
  ::close(fds[1]);
  ::close(msg[1]);

  // Read until end of file, the output limit or the deadline.
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.wall_seconds));
  auto remaining_ms = [&] {
    return static_cast<int>(std::max<long long>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count()));
  };
  bool killed = false;
  bool data_open = true, messages_open = true;
  char buffer[1 << 16];
  while (data_open || messages_open) {
    const int wait_ms = remaining_ms();
    if (wait_ms <= 0) {
      out.kind = ChildOutcome::Kind::timed_out;
      killed = true;
      break;
    }
    pollfd p[2] = {{data_open ? fds[0] : -1, POLLIN, 0}, {messages_open ? msg[0] : -1, POLLIN, 0}};
    const int ready = ::poll(p, 2, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // deadline checked above
    if (messages_open && p[1].revents != 0) {
      const ssize_t n = ::read(msg[0], buffer, sizeof(buffer));
      if (n <= 0 && !(n < 0 && errno == EINTR)) messages_open = false;
      if (n > 0) {
        out.messages.append(buffer, static_cast<std::size_t>(n));
        if (out.messages.size() > kMaxMessageBytes) out.messages.erase(0, out.messages.size() - kMaxMessageBytes);
      }
    }
    if (data_open && p[0].revents != 0) {
      const ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
      if (n <= 0 && !(n < 0 && errno == EINTR)) data_open = false;  // end of file: the child is done writing
      if (n > 0 && out.output.size() + static_cast<std::size_t>(n) > limits.max_output_bytes) {
        out.kind = ChildOutcome::Kind::output_too_large;
        killed = true;
        break;
      }
      if (n > 0) out.output.append(buffer, static_cast<std::size_t>(n));
    }
  }
  ::close(fds[0]);
  ::close(msg[0]);

  // Reap it: a child that closed its end but keeps running is killed at the deadline too.
  int status = 0;
  for (;;) {
    if (killed) ::kill(pid, SIGKILL);
    const pid_t r = ::waitpid(pid, &status, killed ? 0 : WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {  // someone else reaped it (SIGCHLD ignored): the outcome is unknown
      out.kind = ChildOutcome::Kind::not_started;
      out.detail = std::string("waitpid: ") + std::strerror(errno);
      out.output.clear();
      return out;
    }
    if (remaining_ms() <= 0) {
      out.kind = ChildOutcome::Kind::timed_out;
      killed = true;
      continue;
    }
    ::usleep(1000);
  }
  if (killed) {
    out.output.clear();
    return out;
  }
  if (WIFSIGNALED(status)) {
    out.kind = ChildOutcome::Kind::crashed;
    out.signal = WTERMSIG(status);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    out.kind = ChildOutcome::Kind::finished;
  } else {
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    out.kind = out.exit_code == kChildOutOfMemoryExit ? ChildOutcome::Kind::out_of_memory : ChildOutcome::Kind::failed;
  }
  if (out.kind != ChildOutcome::Kind::finished) out.output.clear();
  return out;
}

std::string describe(const ChildOutcome& o, const ChildLimits& limits) {
  char text[160];
  switch (o.kind) {
    case ChildOutcome::Kind::finished:
      return "finished";
    case ChildOutcome::Kind::failed:
      std::snprintf(text, sizeof(text), "failed (exit status %d)", o.exit_code);
      return text;
    case ChildOutcome::Kind::out_of_memory:
      std::snprintf(text, sizeof(text), "ran out of memory (limit %.0f MB)", double(limits.extra_address_space) / 1e6);
      return text;
    case ChildOutcome::Kind::crashed: {
      const char* name = o.signal == SIGSEGV   ? "SIGSEGV, segmentation fault"
                         : o.signal == SIGABRT ? "SIGABRT, an assertion or abort()"
                         : o.signal == SIGBUS  ? "SIGBUS, bus error"
                         : o.signal == SIGFPE  ? "SIGFPE, arithmetic error"
                         : o.signal == SIGILL  ? "SIGILL, illegal instruction"
                         : o.signal == SIGXCPU ? "SIGXCPU, CPU time limit"
                         : o.signal == SIGKILL ? "SIGKILL, possibly out of memory"
                                               : nullptr;
      if (name != nullptr) std::snprintf(text, sizeof(text), "crashed (%s)", name);
      else std::snprintf(text, sizeof(text), "crashed (signal %d)", o.signal);
      return text;
    }
    case ChildOutcome::Kind::timed_out:
      std::snprintf(text, sizeof(text), "did not finish within %.3g s (killed)", limits.wall_seconds);
      return text;
    case ChildOutcome::Kind::output_too_large:
      std::snprintf(text, sizeof(text), "produced more than %.0f MB (killed)", double(limits.max_output_bytes) / 1e6);
      return text;
    case ChildOutcome::Kind::not_started:
      return "could not be started (" + o.detail + ")";
  }
  return "unknown outcome";
}

}  // namespace sim::io
