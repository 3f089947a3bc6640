// Kernels defined in headers, launched from here (test/balance/headers.test).
#include <cuda_runtime.h>

#include "render/blur.cuh"
#include "render/grad.cuh"
#include "halo.cuh"

void render(float *out, const float *in, float *grad, const int *ids,
            const float *v, int rows, int width, int n, cudaStream_t stream) {
  clearAll(out, rows, width, stream);
  blurRows<<<rows, 128, 0, stream>>>(out, in, width);
  accumulate<<<(n + 255) / 256, 256, 0, stream>>>(grad, ids, v, n);
  halo<<<rows, 32, 0, stream>>>(out, width);
  clearEdges(out, rows, width);
}
