#include "grads.h"
#include <sysgrads.h>

// Parsed for the arch the compile command names, with its definitions.
#if !defined(NVCC_CHECK) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ != 860)
#error "expected the GPU arch of the compile command (sm_86)"
#endif
#if FROM_OPTIONS_FILE != 1 || FROM_COMMAND != 2
#error "expected the definitions of the compile command and its options file"
#endif

__global__ void k(float *a, float *b, const int *ids, float v) {
  const int id = ids[threadIdx.x];
  atomicAdd(&a[id], scale(v));
  atomicAdd(&b[id], offset(v));
}
