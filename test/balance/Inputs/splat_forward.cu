// A tile renderer's forward pass in the shape of 3D Gaussian splatting's:
// one 16x16 block per screen tile, one thread per pixel, the tile's list of
// splats fetched into shared memory in rounds, the block stopping early
// once every pixel is opaque. The block finds its tile through cooperative
// groups (group_index() is blockIdx).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

constexpr int kTileW = 16, kTileH = 16, kTileSize = kTileW * kTileH;

__global__ void shadeTiles(const uint2 *__restrict__ spans,
                           const int *__restrict__ order, int width,
                           int height, const float2 *__restrict__ centres,
                           const float4 *__restrict__ shapes,
                           const float *__restrict__ tints,
                           float *__restrict__ image,
                           float *__restrict__ residual) {
  cg::thread_block tile = cg::this_thread_block();
  const int tilesAcross = (width + kTileW - 1) / kTileW;
  const uint2 corner = {tile.group_index().x * kTileW,
                        tile.group_index().y * kTileH};
  const uint2 px = {corner.x + tile.thread_index().x,
                    corner.y + tile.thread_index().y};
  const bool onScreen = px.x < width && px.y < height;
  bool finished = !onScreen;
  const uint2 span = spans[tile.group_index().y * tilesAcross +
                           tile.group_index().x];
  const int batches = (span.y - span.x + kTileSize - 1) / kTileSize;
  int left = span.y - span.x;

  __shared__ int batchId[kTileSize];
  __shared__ float2 batchCentre[kTileSize];
  __shared__ float4 batchShape[kTileSize];

  float light = 1.0f, colour = 0.0f;
  for (int b = 0; b < batches; ++b, left -= kTileSize) {
    if (__syncthreads_count(finished) == kTileSize)
      break;
    const int at = b * kTileSize + tile.thread_rank();
    if (span.x + at < span.y) {
      const int id = order[span.x + at];
      batchId[tile.thread_rank()] = id;
      batchCentre[tile.thread_rank()] = centres[id];
      batchShape[tile.thread_rank()] = shapes[id];
    }
    tile.sync();
    for (int k = 0; !finished && k < min(kTileSize, left); ++k) {
      const float dx = batchCentre[k].x - px.x, dy = batchCentre[k].y - px.y;
      const float4 s = batchShape[k];
      const float falloff = -0.5f * (s.x * dx * dx + s.z * dy * dy) - s.y * dx * dy;
      if (falloff > 0.0f)
        continue;
      const float a = fminf(0.99f, s.w * expf(falloff));
      if (a < 1.0f / 255.0f)
        continue;
      if (light * (1 - a) < 1e-4f) {
        finished = true;
        continue;
      }
      colour += tints[batchId[k]] * a * light;
      light *= 1 - a;
    }
  }
  if (onScreen) {
    image[px.y * width + px.x] = colour;
    residual[px.y * width + px.x] = light;
  }
}

void shade(const uint2 *spans, const int *order, int width, int height,
           const float2 *centres, const float4 *shapes, const float *tints,
           float *image, float *residual, cudaStream_t stream) {
  const dim3 tiles((width + kTileW - 1) / kTileW,
                   (height + kTileH - 1) / kTileH);
  shadeTiles<<<tiles, dim3(kTileW, kTileH), 0, stream>>>(
      spans, order, width, height, centres, shapes, tints, image, residual);
}
