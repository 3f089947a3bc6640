// Kernels whose tiles are drawn heaviest first, and kernels whose tiles
// stay in launch order.
#include <cstdint>

#define TILE 16

struct Bits {
  unsigned count : 4;
};

// The tile's list is a range of a sorted array: its length says the cost.
template <int C>
__global__ void splat(const uint2 *ranges, const int *ids, float *out,
                      int width) {
  const int across = (width + TILE - 1) / TILE;
  uint2 range = ranges[blockIdx.y * across + blockIdx.x];
  const int rounds = (range.y - range.x + 255) / 256;
  for (int i = 0; i < rounds; ++i)
    out[(blockIdx.y * across + blockIdx.x) * C] += ids[range.x + i];
}

// The bound depends on the thread: no cost for the tile.
__global__ void perThread(const int *counts, float *out) {
  const int n = counts[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = 0; i < n; ++i)
    out[blockIdx.x] += 1;
}

// An index read from memory: the cost would load where the kernel may not.
__global__ void indirect(const int *order, const int *counts, float *out) {
  const int n = counts[order[blockIdx.x]];
  for (int i = 0; i < n; ++i)
    out[blockIdx.x] += 1;
}

// A block may return before the loop's bound is read.
__global__ void early(const int *counts, float *out, unsigned tiles) {
  if (blockIdx.x >= tiles)
    return;
  const int n = counts[blockIdx.x];
  for (int i = 0; i < n; ++i)
    out[blockIdx.x] += 1;
}

// A counted loop from a struct's pointer.
struct Lists {
  const int *counts;
  float *out;
};
__global__ void members(Lists l, int first) {
  for (int i = first; i < l.counts[blockIdx.x]; ++i)
    l.out[blockIdx.x] += 1;
}

namespace lists {
// Launched through a using-declaration, which brings in this name alone.
__global__ void counted(const int *counts, float *out) {
  for (int i = 0; i < counts[blockIdx.x]; ++i)
    out[blockIdx.x] += 1;
}
} // namespace lists
using lists::counted;

// A launch in a host template: the cost kernel takes its arguments too.
template <int C>
void runDependent(const uint2 *ranges, const int *ids, float *out, int width,
                  dim3 grid) {
  splat<C><<<grid, dim3(TILE, TILE)>>>(ranges, ids, out, width);
}

void run(const uint2 *ranges, const int *ids, float *out, int width,
         int height, const int *counts, Bits bits, Lists lists,
         cudaStream_t s) {
  dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
  splat<3><<<grid, dim3(TILE, TILE), 0, s>>>(ranges, ids, out, {width});
  splat<1><<<grid, dim3(TILE, TILE)>>>(ranges, ids, out + /* one */ 1,
                                       /* width */ width);
  perThread<<<4, 32>>>(counts, out);
  indirect<<<4, 32>>>(counts, counts, out);
  early<<<4, 32>>>(counts, out, bits.count);
  members<<<4, 32>>>(lists, bits.count);
  counted<<<4, 32>>>(counts, out);
  lists::counted<<<4, 32>>>(counts, out);
  runDependent<2>(ranges, ids, out, width, grid);
}
