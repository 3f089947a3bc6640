// Kernels of a header that --edit-headers allows: one launched from the
// file that includes it, one from a function of the header itself.
#ifndef RENDER_BLUR_CUH
#define RENDER_BLUR_CUH
#include "params.cuh"

__global__ void blurRows(float *out, const float *in, int width) {
  const int row = blockIdx.x;
  for (int x = threadIdx.x; x < width; x += blockDim.x)
    out[row * width + x] = kWeight * in[row * width + x];
}

__global__ void clearRows(float *out, int width) {
  for (int x = threadIdx.x; x < width; x += blockDim.x)
    out[blockIdx.x * width + x] = 0.0f;
}

inline void clearAll(float *out, int rows, int width, cudaStream_t stream) {
  clearRows<<<rows, 128, 0, stream>>>(out, width);
}

#endif // RENDER_BLUR_CUH
