// The order in which persistent blocks draw the 16x16 tiles: heaviest first.
// A heavy tile drawn last would run alone after every other tile is done
// (the tail that dynamic distribution exists to remove); drawn first, the
// light tiles fill in around it. Buckets by the highest bit of the count are
// enough for that, and one block computes them in a few microseconds.
#include "gaussians_balance.h"
#include "tiles.h"

#include <cassert>

namespace dwk {
namespace {

constexpr int kOrderThreads = 1024;
// Counts 0, 1, 2-3, 4-7, ..., up to 2^31 and over: 33 buckets.
constexpr int kBuckets = 33;

__device__ int bucketOf(uint2 range) {
  const uint32_t n = range.y - range.x;
  return n == 0 ? 0 : 32 - __clz(n);
}

// One block: a histogram of the buckets, the start of each (heaviest bucket
// first), then every tile placed in its bucket. The order within a bucket
// is whatever the shared atomics give: results never depend on it.
__global__ void __launch_bounds__(kOrderThreads)
    orderTiles(const uint2 *ranges, int tiles, uint32_t *order) {
  __shared__ uint32_t count[kBuckets];
  __shared__ uint32_t start[kBuckets];
  for (int b = threadIdx.x; b < kBuckets; b += blockDim.x)
    count[b] = 0;
  __syncthreads();
  for (int t = threadIdx.x; t < tiles; t += blockDim.x)
    atomicAdd(&count[bucketOf(ranges[t])], 1u);
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t sum = 0;
    for (int b = kBuckets - 1; b >= 0; --b) {
      start[b] = sum;
      sum += count[b];
    }
  }
  __syncthreads();
  for (int t = threadIdx.x; t < tiles; t += blockDim.x)
    order[atomicAdd(&start[bucketOf(ranges[t])], 1u)] = t;
}

} // namespace

void TilePool::orderHeavyFirst(const TileBins &bins, int W, int H,
                               cudaStream_t stream) {
  const dim3 grid = tileGrid(W, H);
  const int tiles = int(grid.x * grid.y);
  assert(bins.ranges.size() == size_t(tiles) && "bins of another image");
  order_.resize(tiles);
  orderTiles<<<1, kOrderThreads, 0, stream>>>(bins.ranges.data(), tiles,
                                              order_.data());
  DWK_CHECK(cudaGetLastError());
}

} // namespace dwk
