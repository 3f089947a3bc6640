// The one translation unit that instantiates CUB's radix sort (slow to
// compile).
#include "binning.h"
#include "tiles.h"

#include <cub/cub.cuh>

namespace dwk {
namespace {

__global__ void countTilesTouched(int P, const float2 *means2D,
                                  const int *radii, dim3 grid,
                                  uint32_t *tiles_touched) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= P)
    return;
  uint32_t count = 0;
  if (radii[idx] > 0) {
    uint2 rect_min, rect_max;
    getRect(means2D[idx], radii[idx], rect_min, rect_max, grid);
    count = (rect_max.x - rect_min.x) * (rect_max.y - rect_min.y);
  }
  tiles_touched[idx] = count;
}

__global__ void duplicateWithKeys(int P, const float2 *points_xy,
                                  const float *depths, const uint32_t *offsets,
                                  uint64_t *gaussian_keys_unsorted,
                                  uint32_t *gaussian_values_unsorted,
                                  const int *radii, dim3 grid) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= P)
    return;
  if (radii[idx] > 0) {
    uint32_t off = (idx == 0) ? 0 : offsets[idx - 1];
    uint2 rect_min, rect_max;
    getRect(points_xy[idx], radii[idx], rect_min, rect_max, grid);
    for (int y = rect_min.y; y < rect_max.y; y++) {
      for (int x = rect_min.x; x < rect_max.x; x++) {
        uint64_t key = y * grid.x + x;
        key <<= 32;
        key |= *((const uint32_t *)&depths[idx]);
        gaussian_keys_unsorted[off] = key;
        gaussian_values_unsorted[off] = idx;
        off++;
      }
    }
  }
}

__global__ void identifyTileRanges(int L, const uint64_t *point_list_keys,
                                   uint2 *ranges) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= L)
    return;
  uint64_t key = point_list_keys[idx];
  uint32_t currtile = key >> 32;
  if (idx == 0)
    ranges[currtile].x = 0;
  else {
    uint32_t prevtile = point_list_keys[idx - 1] >> 32;
    if (currtile != prevtile) {
      ranges[prevtile].y = idx;
      ranges[currtile].x = idx;
    }
  }
  if (idx == L - 1)
    ranges[currtile].y = L;
}

int highestBit(uint32_t n) {
  int msb = 0;
  while (n >> msb)
    ++msb;
  return msb;
}

} // namespace

void binPrimitives(int P, const float2 *means2D, const int *radii,
                   const float *depths, int W, int H, TileBins &bins,
                   cudaStream_t stream) {
  const dim3 grid = tileGrid(W, H);
  const int num_tiles = grid.x * grid.y;
  const int threads = 256, blocks = (P + threads - 1) / threads;
  bins.tiles_touched.resize(P);
  bins.point_offsets.resize(P);
  bins.ranges.resize(num_tiles);
  countTilesTouched<<<blocks, threads, 0, stream>>>(P, means2D, radii, grid,
                                                    bins.tiles_touched.data());

  size_t scan_bytes = 0;
  DWK_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes,
                                          bins.tiles_touched.data(),
                                          bins.point_offsets.data(), P));
  bins.cub_temp.resize(scan_bytes);
  DWK_CHECK(cub::DeviceScan::InclusiveSum(
      bins.cub_temp.data(), scan_bytes, bins.tiles_touched.data(),
      bins.point_offsets.data(), P, stream));
  uint32_t total = 0;
  DWK_CHECK(cudaMemcpyAsync(&total, bins.point_offsets.data() + P - 1,
                            sizeof(total), cudaMemcpyDeviceToHost, stream));
  DWK_CHECK(cudaStreamSynchronize(stream));
  bins.num_rendered = static_cast<int>(total);

  const int L = bins.num_rendered;
  bins.keys_unsorted.resize(L);
  bins.keys_sorted.resize(L);
  bins.values_unsorted.resize(L);
  bins.point_list.resize(L);
  DWK_CHECK(cudaMemsetAsync(bins.ranges.data(), 0, num_tiles * sizeof(uint2),
                            stream));
  if (L == 0)
    return;
  duplicateWithKeys<<<blocks, threads, 0, stream>>>(
      P, means2D, depths, bins.point_offsets.data(), bins.keys_unsorted.data(),
      bins.values_unsorted.data(), radii, grid);

  const int bit = highestBit(num_tiles);
  size_t sort_bytes = 0;
  DWK_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, sort_bytes, bins.keys_unsorted.data(), bins.keys_sorted.data(),
      bins.values_unsorted.data(), bins.point_list.data(), L, 0, 32 + bit));
  bins.cub_temp.resize(sort_bytes);
  DWK_CHECK(cub::DeviceRadixSort::SortPairs(
      bins.cub_temp.data(), sort_bytes, bins.keys_unsorted.data(),
      bins.keys_sorted.data(), bins.values_unsorted.data(),
      bins.point_list.data(), L, 0, 32 + bit, stream));
  identifyTileRanges<<<(L + 255) / 256, 256, 0, stream>>>(
      L, bins.keys_sorted.data(), bins.ranges.data());
  DWK_CHECK(cudaGetLastError());
}

} // namespace dwk
