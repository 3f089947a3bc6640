// A kernel file whose preamble includes a library's headers, then its own.
#include <lib/config.h>
#include <lib/scale.h>
#include "grad.cuh"

__global__ void k(float *g, const int *ids, const float *v) {
  int i = ids[threadIdx.x];
  float s = lib::scale();
  addGrad(g, i, s * v[threadIdx.x], v[threadIdx.x]);
#if LIB_FIELDS > 2
  atomicAdd(&g[3 * i + 2], s);
#endif
}
