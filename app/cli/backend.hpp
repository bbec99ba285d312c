// --backend cpu|cuda|auto for the stepping subcommands (run, bench): where the Newton loop's
// large PCR solves run (sim/device_linear_solver.hpp). auto (the default) is CUDA when this build
// has it (nvcc found at configure time) and a device is present, else the CPU, silently; cuda
// asked for where there is none runs on the CPU with a one-line message on stderr.
#pragma once

#include <memory>
#include <string>

#include "cli/cli_common.hpp"
#include "sim/device_linear_solver.hpp"

namespace coulomb {

struct Backend {
  std::shared_ptr<sim::DeviceLinearSolver> device;  // null: the CPU
  std::string description;                           // "cpu", or the device's description
  std::string why_not;                               // no device: why ("no CUDA device (...)")
};

// The CUDA device where this build has CUDA and one is present (what auto picks; the desktop app
// starts with it and its Solver panel switches between it and the CPU).
Backend detect_backend();

// False after a complaint on stderr (an unknown value: usage, exit 2).
bool choose_backend(const Args& args, const char* command, Backend& out);

}  // namespace coulomb
