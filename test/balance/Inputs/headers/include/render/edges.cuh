// A kernel of an allowed header, launched only from a header that is not:
// that launch cannot be rewritten, so the kernel stays as written.
#pragma once

__global__ void edges(float *out, int width) {
  out[blockIdx.x * width] = 0.0f;
  out[blockIdx.x * width + width - 1] = 0.0f;
}
