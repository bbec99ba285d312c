#include "cli/interrupt.hpp"

#include <csignal>

namespace coulomb {

namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the flag is written from a signal handler");

extern "C" void on_interrupt(int signal) {
  if (g_interrupted.exchange(true)) std::signal(signal, SIG_DFL);  // the second Ctrl+C: the default
}

}  // namespace

const std::atomic<bool>& install_interrupt_handler() {
  static const bool installed = [] {
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    return true;
  }();
  (void)installed;
  return g_interrupted;
}

}  // namespace coulomb
