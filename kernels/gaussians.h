// 3D Gaussian splatting, render stage only: projected 2D Gaussians are binned,
// rendered and differentiated as in the 3DGS rasterizer (forward.cu /
// backward.cu of diff-gaussian-rasterization). The projection stays outside so
// that the benchmark isolates the render backward.
#pragma once

#include "binning.h"
#include "device_buffer.h"

#include <cstdint>
#include <string>
#include <vector>

#define NUM_CHANNELS 3

namespace dwk {

struct GaussianPreset {
  const char *name;
  int P, W, H;
  double median_radius;    // pixels, of the 3-sigma extent of the major axis
  double radius_log_sigma; // log-normal spread: heavy tail
  double max_radius;
  double clustered; // share of Gaussians placed in clusters
  int clusters;
  double low_opacity_share; // bimodal opacity: share in the low mode
  const char *description;
  // A hot spot (severe imbalance between tiles): `hot` of the P Gaussians
  // centred within a normal spread of `hot_spread` pixels around a tile
  // corner near the image centre, 3-sigma radius `hot_radius` (log-normal,
  // the preset's spread), faint (opacity U(hot_opacity / 4, hot_opacity))
  // and in front of the rest (depth U(0.01, 0.2)): the few tiles under it
  // hold lists hundreds of times longer than the others, and their pixels
  // traverse most of them.
  int hot = 0;
  double hot_spread = 0, hot_radius = 0, hot_opacity = 0;
};

// Documented in README.md. "tiny" is for the float64 CPU reference.
const std::vector<GaussianPreset> &gaussianPresets();
const GaussianPreset *findGaussianPreset(const std::string &name);

struct GaussianScene {
  std::string preset;
  int W = 0, H = 0, P = 0;
  std::vector<float2> means2D;
  std::vector<float4> conic_opacity; // conic a, b, c; opacity
  std::vector<float> colors;         // P * NUM_CHANNELS
  std::vector<float> depths;         // > 0, distinct
  std::vector<int> radii;            // binning radius, pixels
  std::vector<float> bg_color;       // NUM_CHANNELS
  std::vector<float> dL_dpixels;     // NUM_CHANNELS * H * W (planar)
  std::vector<float> dL_invdepths;   // H * W
};

GaussianScene makeGaussianScene(const GaussianPreset &preset, uint64_t seed);

// Arguments of the backward render, as 3DGS's BACKWARD::render receives them.
struct GaussianBackwardArgs {
  dim3 grid, block;
  const uint2 *ranges;
  const uint32_t *point_list;
  int W, H;
  const float *bg_color;
  const float2 *means2D;
  const float4 *conic_opacity;
  const float *colors;
  const float *depths;
  const float *final_Ts;
  const uint32_t *n_contrib;
  const float *dL_dpixels;
  const float *dL_invdepths; // nullptr: no depth loss
  float3 *dL_dmean2D;
  float4 *dL_dconic2D;
  float *dL_dopacity;
  float *dL_dcolors;
  float *dL_dinvdepths; // nullptr: no depth loss
};

// A scene resident on the GPU: inputs, bins, forward outputs, gradients.
class GaussianDeviceScene {
public:
  explicit GaussianDeviceScene(const GaussianScene &scene);
  void bin(cudaStream_t stream = 0);
  void forward(cudaStream_t stream = 0); // needs bin()
  void zeroGradients(cudaStream_t stream = 0);
  void poisonForwardOutputs(cudaStream_t stream = 0);
  GaussianBackwardArgs backwardArgs(bool with_depth);

  int W, H, P;
  DeviceBuffer<float2> means2D;
  DeviceBuffer<float4> conic_opacity;
  DeviceBuffer<float> colors, depths, bg_color, dL_dpixels, dL_invdepths;
  DeviceBuffer<int> radii;
  TileBins bins;
  // Forward outputs.
  DeviceBuffer<float> final_T, out_color, out_invdepth;
  DeviceBuffer<uint32_t> n_contrib;
  // Gradients (accumulated into: zero before each backward).
  DeviceBuffer<float3> dL_dmean2D;
  DeviceBuffer<float4> dL_dconic2D;
  DeviceBuffer<float> dL_dopacity, dL_dcolors, dL_dinvdepths;
};

} // namespace dwk

// Declares the forward render of a namespace other than dwk (a copy of
// gaussians_forward.cu compiled with DWK_FORWARD_NS).
#define DWK_DECLARE_GAUSSIAN_FORWARD(ns)                                       \
  namespace ns {                                                               \
  void gaussianForward(::dwk::GaussianDeviceScene &d, cudaStream_t stream);    \
  }

// Declares the backward entry points of one variant namespace.
#define DWK_DECLARE_GAUSSIAN_BACKWARD(ns)                                      \
  namespace ns {                                                               \
  void gaussianBackward(const ::dwk::GaussianBackwardArgs &args,               \
                        cudaStream_t stream);                                  \
  }
