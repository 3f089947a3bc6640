// Screen tiles shared by the tile-based renderers (3DGS and the sphere
// renderer) and their float64 references: the references must bin exactly as
// the GPU does, so the rectangle is computed by this one function, in float.
#pragma once

#include "dwk_common.h"

#include <vector_types.h>

#define BLOCK_X 16
#define BLOCK_Y 16
#define BLOCK_SIZE (BLOCK_X * BLOCK_Y)

namespace dwk {

inline DWK_HD int imin(int a, int b) { return a < b ? a : b; }
inline DWK_HD int imax(int a, int b) { return a > b ? a : b; }

// The tiles [rect_min, rect_max) touched by a disc of `max_radius` pixels
// around `p` (3DGS's getRect).
inline DWK_HD void getRect(const float2 p, int max_radius, uint2 &rect_min,
                           uint2 &rect_max, dim3 grid) {
  rect_min = {
      (unsigned)imin(grid.x, imax(0, (int)((p.x - max_radius) / BLOCK_X))),
      (unsigned)imin(grid.y, imax(0, (int)((p.y - max_radius) / BLOCK_Y)))};
  rect_max = {
      (unsigned)imin(
          grid.x, imax(0, (int)((p.x + max_radius + BLOCK_X - 1) / BLOCK_X))),
      (unsigned)imin(
          grid.y, imax(0, (int)((p.y + max_radius + BLOCK_Y - 1) / BLOCK_Y)))};
}

inline dim3 tileGrid(int W, int H) {
  return dim3((W + BLOCK_X - 1) / BLOCK_X, (H + BLOCK_Y - 1) / BLOCK_Y, 1);
}

} // namespace dwk
