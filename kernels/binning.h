// Tile binning of projected primitives (3DGS's duplicateWithKeys + radix sort
// + identifyTileRanges), shared by the Gaussian and the sphere renderers.
#pragma once

#include "device_buffer.h"

#include <cstdint>

namespace dwk {

struct TileBins {
  DeviceBuffer<uint2> ranges;        // per tile: [begin, end) in point_list
  DeviceBuffer<uint32_t> point_list; // primitive ids, per tile front to back
  int num_rendered = 0;              // primitive-tile pairs

  // Scratch space, kept between frames.
  DeviceBuffer<uint32_t> tiles_touched, point_offsets;
  DeviceBuffer<uint64_t> keys_unsorted, keys_sorted;
  DeviceBuffer<uint32_t> values_unsorted;
  DeviceBuffer<char> cub_temp;
};

// Duplicates each primitive with radius > 0 once per touched 16x16 tile under
// a (tile << 32 | depth bits) key, sorts the keys (stable: equal depths keep
// primitive order), and records each tile's range. Depths must be positive.
// Synchronises on the number of pairs, as 3DGS does.
void binPrimitives(int P, const float2 *means2D, const int *radii,
                   const float *depths, int W, int H, TileBins &bins,
                   cudaStream_t stream);

} // namespace dwk
