// SIM_HD marks a function compiled for the host and, under nvcc, for the device too: the kernel
// layer's loop bodies (sim/src/kernels/, kernels/kernel_macros.hpp) and the few public value
// types and functions they use (sim/math.hpp's Pose and orthonormal_basis). Nothing under a host
// compiler.
#pragma once

#if defined(__CUDACC__)
#define SIM_HD __host__ __device__
#else
#define SIM_HD
#endif
