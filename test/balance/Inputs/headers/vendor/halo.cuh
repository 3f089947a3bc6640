// A header no --edit-headers entry names: its kernel, launched from the
// file, and its launch of edges stay as written.
#pragma once
#include "render/edges.cuh"

__global__ void halo(float *out, int width) {
  if (threadIdx.x == 0)
    out[blockIdx.x * width] += 1.0f;
}

inline void clearEdges(float *out, int rows, int width) {
  edges<<<rows, 1>>>(out, width);
}
