// A kernel in a header that --edit-headers allows: its sites are in the
// header's own table, which the launch in launch-header.cu names.
#pragma once

__global__ void headerKernel(float *g, const int *ids, const float *v) {
  const int id = ids[blockIdx.x];
  const float x = v[threadIdx.x];
  atomicAdd(&g[3 * id], x);
  atomicAdd(&g[3 * id + 1], x * x);
}
