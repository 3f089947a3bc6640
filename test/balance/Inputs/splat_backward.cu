// The backward pass of the same renderer, with raw blockIdx and threadIdx:
// back to front through each tile's list, the gradients of every splat a
// pixel saw added atomically. A template on the number of channels, as
// renderers write it.
#include <cuda_runtime.h>

#define TILE_W 16
#define TILE_H 16
#define TILE_SIZE (TILE_W * TILE_H)

template <int CH>
__global__ void gradTiles(const uint2 *__restrict__ spans,
                          const int *__restrict__ order, int width,
                          int height, const float2 *__restrict__ centres,
                          const float4 *__restrict__ shapes,
                          const float *__restrict__ tints,
                          const float *__restrict__ residual,
                          const float *__restrict__ dImage,
                          float2 *__restrict__ dCentres,
                          float *__restrict__ dTints,
                          float *__restrict__ dOpacity) {
  const int tilesAcross = (width + TILE_W - 1) / TILE_W;
  const int x = blockIdx.x * TILE_W + threadIdx.x;
  const int y = blockIdx.y * TILE_H + threadIdx.y;
  const int rank = threadIdx.y * TILE_W + threadIdx.x;
  const bool onScreen = x < width && y < height;
  const uint2 span = spans[blockIdx.y * tilesAcross + blockIdx.x];
  const int batches = (span.y - span.x + TILE_SIZE - 1) / TILE_SIZE;
  int left = span.y - span.x;
  bool finished = !onScreen;

  __shared__ int batchId[TILE_SIZE];
  __shared__ float2 batchCentre[TILE_SIZE];
  __shared__ float4 batchShape[TILE_SIZE];

  float light = onScreen ? residual[y * width + x] : 0.0f;
  float dPixel[CH];
  for (int c = 0; c < CH; ++c)
    dPixel[c] = onScreen ? dImage[(c * height + y) * width + x] : 0.0f;

  for (int b = 0; b < batches; ++b, left -= TILE_SIZE) {
    __syncthreads();
    const int at = b * TILE_SIZE + rank;
    if (span.x + at < span.y) {
      const int id = order[span.y - at - 1];
      batchId[rank] = id;
      batchCentre[rank] = centres[id];
      batchShape[rank] = shapes[id];
    }
    __syncthreads();
    for (int k = 0; !finished && k < min(TILE_SIZE, left); ++k) {
      const float dx = batchCentre[k].x - x, dy = batchCentre[k].y - y;
      const float4 s = batchShape[k];
      const float falloff = -0.5f * (s.x * dx * dx + s.z * dy * dy) - s.y * dx * dy;
      if (falloff > 0.0f)
        continue;
      const float g = expf(falloff);
      const float a = fminf(0.99f, s.w * g);
      if (a < 1.0f / 255.0f)
        continue;
      light = light / (1.0f - a);
      const int id = batchId[k];
      float dAlpha = 0.0f;
      for (int c = 0; c < CH; ++c) {
        dAlpha += tints[id * CH + c] * dPixel[c];
        atomicAdd(&dTints[id * CH + c], a * light * dPixel[c]);
      }
      const float dG = s.w * dAlpha * light;
      atomicAdd(&dCentres[id].x, dG * g * (s.x * dx + s.y * dy));
      atomicAdd(&dCentres[id].y, dG * g * (s.z * dy + s.y * dx));
      atomicAdd(&dOpacity[id], g * dAlpha * light);
    }
  }
}

void grad(const uint2 *spans, const int *order, int width, int height,
          const float2 *centres, const float4 *shapes, const float *tints,
          const float *residual, const float *dImage, float2 *dCentres,
          float *dTints, float *dOpacity) {
  dim3 grid((width + TILE_W - 1) / TILE_W, (height + TILE_H - 1) / TILE_H);
  gradTiles<3><<<grid, dim3(TILE_W, TILE_H)>>>(
      spans, order, width, height, centres, shapes, tints, residual, dImage,
      dCentres, dTints, dOpacity);
}
