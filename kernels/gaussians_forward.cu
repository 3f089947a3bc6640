// Forward pass of the 3DGS render stage (FORWARD::renderCUDA with the
// inverse-depth output) and the GPU-resident scene around it. It has no
// atomics: distwar-rewrite's batching passes it through; --balance=tiles
// turns its kernel into a loop over tiles (distwar_kernels_tiles).
#include "gaussians.h"
#include "tiles.h"

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The kernel and its launch live in DWK_FORWARD_NS (dwk); a copy of this file
// rewritten by distwar-rewrite --balance=tiles is compiled next to the
// original with another namespace and DWK_FORWARD_ONLY (no scene methods):
// kernels/CMakeLists.txt, distwar_kernels_tiles.
#ifndef DWK_FORWARD_NS
#define DWK_FORWARD_NS dwk
#endif

namespace DWK_FORWARD_NS {
namespace {

// Main rasterization method. Collaboratively works on one tile per
// block, each thread treats one pixel. Alternates between fetching
// and rasterizing data.
template <uint32_t CHANNELS>
__global__ void __launch_bounds__(BLOCK_X *BLOCK_Y)
    renderCUDA(const uint2 *__restrict__ ranges,
               const uint32_t *__restrict__ point_list, int W, int H,
               const float2 *__restrict__ points_xy_image,
               const float *__restrict__ features,
               const float4 *__restrict__ conic_opacity,
               float *__restrict__ final_T, uint32_t *__restrict__ n_contrib,
               const float *__restrict__ bg_color,
               float *__restrict__ out_color, const float *__restrict__ depths,
               float *__restrict__ invdepth) {
  // Identify current tile and associated min/max pixel range.
  auto block = cg::this_thread_block();
  uint32_t horizontal_blocks = (W + BLOCK_X - 1) / BLOCK_X;
  uint2 pix_min = {block.group_index().x * BLOCK_X,
                   block.group_index().y * BLOCK_Y};
  uint2 pix = {pix_min.x + block.thread_index().x,
               pix_min.y + block.thread_index().y};
  uint32_t pix_id = W * pix.y + pix.x;
  float2 pixf = {(float)pix.x, (float)pix.y};

  // Check if this thread is associated with a valid pixel or outside.
  bool inside = pix.x < W && pix.y < H;
  // Done threads can help with fetching, but don't rasterize
  bool done = !inside;

  // Load start/end range of IDs to process in bit sorted list.
  uint2 range =
      ranges[block.group_index().y * horizontal_blocks + block.group_index().x];
  const int rounds = ((range.y - range.x + BLOCK_SIZE - 1) / BLOCK_SIZE);
  int toDo = range.y - range.x;

  // Allocate storage for batches of collectively fetched data.
  __shared__ int collected_id[BLOCK_SIZE];
  __shared__ float2 collected_xy[BLOCK_SIZE];
  __shared__ float4 collected_conic_opacity[BLOCK_SIZE];

  // Initialize helper variables
  float T = 1.0f;
  uint32_t contributor = 0;
  uint32_t last_contributor = 0;
  float C[CHANNELS] = {0};
  float expected_invdepth = 0.0f;

  // Iterate over batches until all done or range is complete
  for (int i = 0; i < rounds; i++, toDo -= BLOCK_SIZE) {
    // End if entire block votes that it is done rasterizing
    int num_done = __syncthreads_count(done);
    if (num_done == BLOCK_SIZE)
      break;

    // Collectively fetch per-Gaussian data from global to shared
    int progress = i * BLOCK_SIZE + block.thread_rank();
    if (range.x + progress < range.y) {
      int coll_id = point_list[range.x + progress];
      collected_id[block.thread_rank()] = coll_id;
      collected_xy[block.thread_rank()] = points_xy_image[coll_id];
      collected_conic_opacity[block.thread_rank()] = conic_opacity[coll_id];
    }
    block.sync();

    // Iterate over current batch
    for (int j = 0; !done && j < min(BLOCK_SIZE, toDo); j++) {
      // Keep track of current position in range
      contributor++;

      // Resample using conic matrix (cf. "Surface
      // Splatting" by Zwicker et al., 2001)
      float2 xy = collected_xy[j];
      float2 d = {xy.x - pixf.x, xy.y - pixf.y};
      float4 con_o = collected_conic_opacity[j];
      float power = -0.5f * (con_o.x * d.x * d.x + con_o.z * d.y * d.y) -
                    con_o.y * d.x * d.y;
      if (power > 0.0f)
        continue;

      // Eq. (2) from 3D Gaussian splatting paper.
      // Obtain alpha by multiplying with Gaussian opacity
      // and its exponential falloff from mean.
      // Avoid numerical instabilities (see paper appendix).
      float alpha = min(0.99f, con_o.w * exp(power));
      if (alpha < 1.0f / 255.0f)
        continue;
      float test_T = T * (1 - alpha);
      if (test_T < 0.0001f) {
        done = true;
        continue;
      }

      // Eq. (3) from 3D Gaussian splatting paper.
      for (int ch = 0; ch < CHANNELS; ch++)
        C[ch] += features[collected_id[j] * CHANNELS + ch] * alpha * T;

      if (invdepth)
        expected_invdepth += (1 / depths[collected_id[j]]) * alpha * T;

      T = test_T;

      // Keep track of last range entry to update this
      // pixel.
      last_contributor = contributor;
    }
  }

  // All threads that treat valid pixel write out their final
  // rendering data to the frame and auxiliary buffers.
  if (inside) {
    final_T[pix_id] = T;
    n_contrib[pix_id] = last_contributor;
    for (int ch = 0; ch < CHANNELS; ch++)
      out_color[ch * H * W + pix_id] = C[ch] + T * bg_color[ch];

    if (invdepth)
      invdepth[pix_id] = expected_invdepth;
  }
}

} // namespace

void gaussianForward(::dwk::GaussianDeviceScene &d, cudaStream_t stream) {
  renderCUDA<NUM_CHANNELS>
      <<<::dwk::tileGrid(d.W, d.H), dim3(BLOCK_X, BLOCK_Y, 1), 0, stream>>>(
          d.bins.ranges.data(), d.bins.point_list.data(), d.W, d.H,
          d.means2D.data(), d.colors.data(), d.conic_opacity.data(),
          d.final_T.data(), d.n_contrib.data(), d.bg_color.data(),
          d.out_color.data(), d.depths.data(), d.out_invdepth.data());
  DWK_CHECK(cudaGetLastError());
}

} // namespace DWK_FORWARD_NS

#ifndef DWK_FORWARD_ONLY
namespace dwk {

GaussianDeviceScene::GaussianDeviceScene(const GaussianScene &scene)
    : W(scene.W), H(scene.H), P(scene.P) {
  means2D.upload(scene.means2D);
  conic_opacity.upload(scene.conic_opacity);
  colors.upload(scene.colors);
  depths.upload(scene.depths);
  radii.upload(scene.radii);
  bg_color.upload(scene.bg_color);
  dL_dpixels.upload(scene.dL_dpixels);
  dL_invdepths.upload(scene.dL_invdepths);
  final_T.resize(size_t(W) * H);
  n_contrib.resize(size_t(W) * H);
  out_color.resize(size_t(NUM_CHANNELS) * W * H);
  out_invdepth.resize(size_t(W) * H);
  dL_dmean2D.resize(P);
  dL_dconic2D.resize(P);
  dL_dopacity.resize(P);
  dL_dcolors.resize(size_t(P) * NUM_CHANNELS);
  dL_dinvdepths.resize(P);
}

void GaussianDeviceScene::bin(cudaStream_t stream) {
  binPrimitives(P, means2D.data(), radii.data(), depths.data(), W, H, bins,
                stream);
}

void GaussianDeviceScene::forward(cudaStream_t stream) {
  gaussianForward(*this, stream);
}

void GaussianDeviceScene::zeroGradients(cudaStream_t stream) {
  dL_dmean2D.zero(stream);
  dL_dconic2D.zero(stream);
  dL_dopacity.zero(stream);
  dL_dcolors.zero(stream);
  dL_dinvdepths.zero(stream);
}

void GaussianDeviceScene::poisonForwardOutputs(cudaStream_t stream) {
  final_T.poison(stream);
  n_contrib.poison(stream);
  out_color.poison(stream);
  out_invdepth.poison(stream);
}

GaussianBackwardArgs GaussianDeviceScene::backwardArgs(bool with_depth) {
  GaussianBackwardArgs a;
  a.grid = tileGrid(W, H);
  a.block = dim3(BLOCK_X, BLOCK_Y, 1);
  a.ranges = bins.ranges.data();
  a.point_list = bins.point_list.data();
  a.W = W;
  a.H = H;
  a.bg_color = bg_color.data();
  a.means2D = means2D.data();
  a.conic_opacity = conic_opacity.data();
  a.colors = colors.data();
  a.depths = depths.data();
  a.final_Ts = final_T.data();
  a.n_contrib = n_contrib.data();
  a.dL_dpixels = dL_dpixels.data();
  a.dL_invdepths = with_depth ? dL_invdepths.data() : nullptr;
  a.dL_dmean2D = dL_dmean2D.data();
  a.dL_dconic2D = dL_dconic2D.data();
  a.dL_dopacity = dL_dopacity.data();
  a.dL_dcolors = dL_dcolors.data();
  a.dL_dinvdepths = with_depth ? dL_dinvdepths.data() : nullptr;
  return a;
}

} // namespace dwk
#endif // DWK_FORWARD_ONLY
