// A kernel of an allowed header that both passes edit: its atomics are
// batched, then the batched kernel is balanced.
#pragma once

__global__ void accumulate(float *grad, const int *__restrict__ ids,
                           const float *__restrict__ v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&grad[ids[i] * 2 + 0], v[i]);
  atomicAdd(&grad[ids[i] * 2 + 1], v[i] * v[i]);
}
