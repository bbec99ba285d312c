// The CUDA backend's linear solver: a sim::DeviceLinearSolver (sim/device_linear_solver.hpp) that
// uploads each Newton iteration's Schur system to device memory and solves it with DevicePcr
// (sim/cuda/device_pcr.hpp) on its own stream, then downloads x. Device buffers only grow (no
// cudaMalloc once they fit the scene's largest system). Plain C++ header.
#pragma once

#include <memory>
#include <string>

#include "sim/device_linear_solver.hpp"

namespace sim::cuda {

// Below this many rows the CPU is as fast: a PCR iteration is ~13 launches (~40 µs on an H200,
// against the CPU's ~8 µs per 1,000 rows on one thread), and each Newton iteration uploads the
// system and waits for x; on the H200 machine's 16 cores whole steps broke even at ~20k rows
// (docs/benchmarks.md): the solver leaves smaller systems to the CPU.
inline constexpr int kDefaultDeviceMinRows = 20000;

// The solver on CUDA device 0, or null with `message` saying why ("no CUDA device", a driver
// error). `min_rows`: the smallest system it takes.
std::shared_ptr<DeviceLinearSolver> make_cuda_linear_solver(std::string& message,
                                                            int min_rows = kDefaultDeviceMinRows);

}  // namespace sim::cuda
