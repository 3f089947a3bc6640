// What every hand-written 3DGS forward render kernel takes: the arguments of
// FORWARD::renderCUDA in one struct. For the .cu files of the balanced
// render only: gaussians_balance.h is the interface.
#pragma once

#include "gaussians_balance.h"

#include <cstdint>

namespace dwk {

struct ForwardArgs {
  const uint2 *ranges;
  const uint32_t *point_list;
  int W, H;
  const float2 *means2D;
  const float *features;
  const float4 *conic_opacity;
  const float *depths;
  const float *bg_color;
  float *final_T;
  uint32_t *n_contrib;
  float *out_color;
  float *invdepth; // nullptr: no depth output
};

inline ForwardArgs forwardArgs(GaussianDeviceScene &d) {
  return {d.bins.ranges.data(),
          d.bins.point_list.data(),
          d.W,
          d.H,
          d.means2D.data(),
          d.colors.data(),
          d.conic_opacity.data(),
          d.depths.data(),
          d.bg_color.data(),
          d.final_T.data(),
          d.n_contrib.data(),
          d.out_color.data(),
          d.out_invdepth.data()};
}

} // namespace dwk
