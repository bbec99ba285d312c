// The kernel layer's one macro: functions marked SIM_HD are compiled for the host and, under
// nvcc, for the device too (sim/cuda/ instantiates them), so a per-row or per-contact loop body
// is written once for the CPU (called from TBB loops) and the CUDA backend. Kernel code takes
// plain views (pointers and counts), uses no STL containers, exceptions, virtuals or allocation.
// The macro itself lives in the public sim/host_device.hpp, so sim/math.hpp's Pose can use it.
#pragma once

#include "sim/host_device.hpp"
