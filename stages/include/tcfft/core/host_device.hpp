// SPDX-License-Identifier: MIT
// TCFFT_HD marks small inline functions that serve both the CPU stages and GPU kernels:
// `__host__ __device__` when nvcc compiles the file, nothing for g++.
#pragma once

#if defined(__CUDACC__)
#define TCFFT_HD __host__ __device__
#else
#define TCFFT_HD
#endif
