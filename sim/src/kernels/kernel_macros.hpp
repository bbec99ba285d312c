// The kernel layer's one macro: functions marked SIM_HD are compiled for the host and, under
// nvcc, for the device too (sim/cuda/ instantiates them), so a per-row or per-contact loop body
// is written once for the CPU (called from TBB loops) and the CUDA backend. Kernel code takes
// plain views (pointers and counts), uses no STL containers, exceptions, virtuals or allocation.
#pragma once

#if defined(__CUDACC__)
#define SIM_HD __host__ __device__
#else
#define SIM_HD
#endif
