// Backward pass of additive Gaussian splatting, written the way 3DGS
// (diff-gaussian-rasterization) writes its renderCUDA backward: one thread per
// pixel walks its tile's list of Gaussians, skips the ones it does not see
// (`continue`), and adds its share of every gradient field with a plain
// atomicAdd. Neighbouring lanes walk the same list, so they hit the same
// Gaussian at the same time: the pattern distwar-rewrite batches.
//
// Forward model (what the gradients below differentiate), per pixel p:
//   d = mean_i - p,  power = -0.5 (a dx^2 + c dy^2) - b dx dy
//   alpha_i = opacity_i exp(power)        (skipped when alpha_i < 1/255)
//   pixel[ch] = sum over the first n_contrib[p] listed i of alpha_i color_i[ch]
//
// The extension builds this file twice: distwar-rewrite's copy, and the
// original inside namespace plain (splat_backward_plain.cu), so that one
// module holds both kernels.
#include "splat_backward.h"

#include <cuda_runtime.h>

__global__ void __launch_bounds__(SPLAT_TILE *SPLAT_TILE) splat_backward_kernel(
    int width, int height, const int2 *__restrict__ tile_ranges,
    const int *__restrict__ tile_list, const int *__restrict__ n_contrib,
    const float2 *__restrict__ means, const float3 *__restrict__ conics,
    const float *__restrict__ opacities, const float *__restrict__ colors,
    const float *__restrict__ dL_dpixels, float *__restrict__ dL_dmeans,
    float *__restrict__ dL_dconics, float *__restrict__ dL_dopacities,
    float *__restrict__ dL_dcolors) {
  const int px = blockIdx.x * SPLAT_TILE + threadIdx.x;
  const int py = blockIdx.y * SPLAT_TILE + threadIdx.y;
  const bool inside = px < width && py < height;
  const int pix = py * width + px;
  const int2 range = tile_ranges[blockIdx.y * gridDim.x + blockIdx.x];
  const int last = inside ? n_contrib[pix] : 0;

  float dL_dpixel[SPLAT_CHANNELS];
  for (int ch = 0; ch < SPLAT_CHANNELS; ++ch)
    dL_dpixel[ch] = inside ? dL_dpixels[ch * width * height + pix] : 0.f;

  for (int k = 0; inside && k < range.y - range.x; ++k) {
    // Only the first n_contrib Gaussians of the list reached this pixel.
    if (k >= last)
      continue;
    const int id = tile_list[range.x + k];
    const float2 mean = means[id];
    const float3 conic = conics[id];
    const float dx = mean.x - (float)px;
    const float dy = mean.y - (float)py;
    const float power =
        -0.5f * (conic.x * dx * dx + conic.z * dy * dy) - conic.y * dx * dy;
    if (power > 0.f)
      continue;
    const float G = __expf(power);
    const float alpha = opacities[id] * G;
    if (alpha < 1.f / 255.f)
      continue;

    float dL_dalpha = 0.f;
    for (int ch = 0; ch < SPLAT_CHANNELS; ++ch) {
      dL_dalpha += colors[id * SPLAT_CHANNELS + ch] * dL_dpixel[ch];
      atomicAdd(&dL_dcolors[id * SPLAT_CHANNELS + ch], alpha * dL_dpixel[ch]);
    }
    const float dL_dpower = alpha * dL_dalpha;
    atomicAdd(&dL_dopacities[id], G * dL_dalpha);
    atomicAdd(&dL_dmeans[2 * id + 0],
              dL_dpower * (-conic.x * dx - conic.y * dy));
    atomicAdd(&dL_dmeans[2 * id + 1],
              dL_dpower * (-conic.z * dy - conic.y * dx));
    atomicAdd(&dL_dconics[3 * id + 0], -0.5f * dx * dx * dL_dpower);
    atomicAdd(&dL_dconics[3 * id + 1], -dx * dy * dL_dpower);
    atomicAdd(&dL_dconics[3 * id + 2], -0.5f * dy * dy * dL_dpower);
  }
}

void launch_splat_backward(const SplatBackwardArgs &a, cudaStream_t stream) {
  const dim3 tiles((a.width + SPLAT_TILE - 1) / SPLAT_TILE,
                   (a.height + SPLAT_TILE - 1) / SPLAT_TILE);
  splat_backward_kernel<<<tiles, dim3(SPLAT_TILE, SPLAT_TILE), 0, stream>>>(
      a.width, a.height, a.tile_ranges, a.tile_list, a.n_contrib, a.means,
      a.conics, a.opacities, a.colors, a.dL_dpixels, a.dL_dmeans, a.dL_dconics,
      a.dL_dopacities, a.dL_dcolors);
}
