// Ctrl+C (SIGINT) and SIGTERM in the CLI: the first one raises a flag that step() reads between
// solver iterations (Workspace::cancel), so even a step that would run for minutes stops within
// an iteration; the command then writes what it has and exits 130. A second signal restores the
// default action (kills at once), for a command stuck outside a step.
#pragma once

#include <atomic>

namespace coulomb {

// Installs the handlers (once) and returns the flag they raise.
const std::atomic<bool>& install_interrupt_handler();

}  // namespace coulomb
