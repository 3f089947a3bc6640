// The project's own header: its atomics are the tool's to batch.
#pragma once
__device__ inline void addGrad(float *g, int i, float a, float b) {
  atomicAdd(&g[3 * i + 0], a);
  atomicAdd(&g[3 * i + 1], b);
}
