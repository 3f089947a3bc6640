// The order in which persistent blocks draw the 16x16 tiles: heaviest first.
// A heavy tile drawn last would run alone after every other tile is done
// (the tail that dynamic distribution exists to remove); drawn first, the
// light tiles fill in around it. Buckets by the highest bit of the count are
// enough for that, and one block computes them in a few microseconds. The
// tiles over `heavyFactor` times the mean count come first of all, and their
// number is kept on the device: the split kernels render them in pieces.
#include "gaussians_balance.h"
#include "tiles.h"

#include <cassert>

namespace dwk {
namespace {

constexpr int kOrderThreads = 1024;
// Counts 0, 1, 2-3, 4-7, ..., up to 2^31 and over: 33 buckets, twice (the
// heavy tiles' buckets above the others').
constexpr int kBits = 33;
constexpr int kBuckets = 2 * kBits;

__device__ uint32_t countOf(uint2 range) { return range.y - range.x; }

__device__ int bucketOf(uint32_t n, uint32_t heavy_above) {
  return (n > heavy_above ? kBits : 0) + (n == 0 ? 0 : 32 - __clz(n));
}

// One block: the mean count and the heavy threshold, a histogram of the
// buckets, the start of each (heaviest bucket first), then every tile placed
// in its bucket. The order within a bucket is whatever the shared atomics
// give: results never depend on it.
__global__ void __launch_bounds__(kOrderThreads)
    orderTiles(const uint2 *ranges, int tiles, float heavy_factor,
               uint32_t *order, uint32_t *heavy_tiles) {
  __shared__ unsigned long long total;
  __shared__ uint32_t count[kBuckets];
  __shared__ uint32_t start[kBuckets];
  if (threadIdx.x == 0)
    total = 0;
  for (int b = threadIdx.x; b < kBuckets; b += blockDim.x)
    count[b] = 0;
  __syncthreads();
  for (int t = threadIdx.x; t < tiles; t += blockDim.x)
    atomicAdd(&total, (unsigned long long)countOf(ranges[t]));
  __syncthreads();
  const uint32_t heavy_above =
      uint32_t(min(4e9, double(heavy_factor) * double(total) / max(tiles, 1)));
  for (int t = threadIdx.x; t < tiles; t += blockDim.x)
    atomicAdd(&count[bucketOf(countOf(ranges[t]), heavy_above)], 1u);
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t sum = 0;
    for (int b = kBuckets - 1; b >= 0; --b) {
      start[b] = sum;
      sum += count[b];
      if (b == kBits)
        *heavy_tiles = sum;
    }
  }
  __syncthreads();
  for (int t = threadIdx.x; t < tiles; t += blockDim.x)
    order[atomicAdd(&start[bucketOf(countOf(ranges[t]), heavy_above)], 1u)] =
        t;
}

__global__ void launchOrder(uint32_t *order, int tiles,
                            uint32_t *heavy_tiles) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < tiles)
    order[t] = t;
  if (t == 0)
    *heavy_tiles = 0;
}

} // namespace

void TilePool::orderHeavyFirst(const TileBins &bins, int W, int H,
                               cudaStream_t stream, float heavyFactor) {
  const dim3 grid = tileGrid(W, H);
  const int tiles = int(grid.x * grid.y);
  assert(bins.ranges.size() == size_t(tiles) && "bins of another image");
  assert(heavyFactor > 0 && "a tile is heavy above a positive multiple");
  order_.resize(tiles);
  heavy_.resize(1);
  orderTiles<<<1, kOrderThreads, 0, stream>>>(
      bins.ranges.data(), tiles, heavyFactor, order_.data(), heavy_.data());
  DWK_CHECK(cudaGetLastError());
}

void TilePool::orderAsLaunched(int W, int H, cudaStream_t stream) {
  const dim3 grid = tileGrid(W, H);
  const int tiles = int(grid.x * grid.y);
  order_.resize(tiles);
  heavy_.resize(1);
  launchOrder<<<(tiles + 255) / 256, 256, 0, stream>>>(order_.data(), tiles,
                                                       heavy_.data());
  DWK_CHECK(cudaGetLastError());
}

} // namespace dwk
