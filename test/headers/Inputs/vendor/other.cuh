#pragma once
__device__ inline void addOther(float *g, int id, float v) {
  atomicAdd(&g[id * 2], v);
  atomicAdd(&g[id * 2 + 1], v);
}
