// SPDX-License-Identifier: MIT
// CK(call): the probes' check of a CUDA runtime call inside a function returning int (prints
// the call and the error, returns 1). access_probe and cluster_probe use it.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>

#define CK(x)                                             \
  do {                                                    \
    cudaError_t e = (x);                                  \
    if (e != cudaSuccess) {                               \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                           \
    }                                                     \
  } while (0)
