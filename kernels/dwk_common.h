// Helpers shared by the reference kernels, their host drivers and the tests.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// Each backward kernel file is compiled once per variant (plain, serial,
// floor, ...); the namespace keeps the symbols of the variants apart when they
// are linked into one program. A lone `nvcc -c` of a kernel file gets
// `dwk_plain`. (The prefix keeps names such as `floor` from clashing with the
// math functions.)
#ifndef DISTWAR_VARIANT_NS
#define DISTWAR_VARIANT_NS dwk_plain
#endif

// Functions usable from host (float64 references) and device (kernels).
#if defined(__CUDACC__)
#define DWK_HD __host__ __device__
#else
#define DWK_HD
#endif

#define DWK_CHECK(call)                                                        \
  do {                                                                         \
    cudaError_t dwk_err_ = (call);                                             \
    if (dwk_err_ != cudaSuccess) {                                             \
      std::fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,      \
                   cudaGetErrorString(dwk_err_));                              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
