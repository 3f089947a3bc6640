// Tool input (distwar-rewrite lit tests and GPU checks): the 3DGS render
// backward in the per-Gaussian layout (docs/KERNELS.md section 1): each thread owns
// one Gaussian, loops over the pixels of the tiles it touches and accumulates
// its gradients in registers, then issues its atomics once at the end. No two
// lanes share a key, so batching has nothing to gain: the tool must leave the
// atomics alone.
//
// The per-pixel blending state a pixel-major backward carries (transmittance,
// colour behind) is rebuilt by replaying the pixel's list from the back down
// to this Gaussian with the plain kernel's float operations, so the gradients
// equal the plain kernel's up to summation order. That replay makes the
// kernel quadratic in the list length: for small scenes only.
#include "gaussians_tool_inputs.h"
#include "tiles.h"

namespace DISTWAR_VARIANT_NS {
namespace per_gaussian {

template <uint32_t C>
__global__ void renderPerGaussianCUDA(
    int P, const int *__restrict__ radii, dim3 grid,
    const uint2 *__restrict__ ranges, const uint32_t *__restrict__ point_list,
    int W, int H, const float *__restrict__ bg_color,
    const float2 *__restrict__ points_xy_image,
    const float4 *__restrict__ conic_opacity, const float *__restrict__ colors,
    const float *__restrict__ depths, const float *__restrict__ final_Ts,
    const uint32_t *__restrict__ n_contrib,
    const float *__restrict__ dL_dpixels,
    const float *__restrict__ dL_invdepths, float3 *__restrict__ dL_dmean2D,
    float4 *__restrict__ dL_dconic2D, float *__restrict__ dL_dopacity,
    float *__restrict__ dL_dcolors, float *__restrict__ dL_dinvdepths) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= P || radii[idx] <= 0)
    return;

  const float ddelx_dx = 0.5 * W;
  const float ddely_dy = 0.5 * H;

  float g_colors[C] = {0};
  float g_invdepth = 0;
  float g_mean_x = 0, g_mean_y = 0;
  float g_conic_x = 0, g_conic_y = 0, g_conic_w = 0;
  float g_opacity = 0;

  uint2 rect_min, rect_max;
  ::dwk::getRect(points_xy_image[idx], radii[idx], rect_min, rect_max, grid);
  for (unsigned ty = rect_min.y; ty < rect_max.y; ty++) {
    for (unsigned tx = rect_min.x; tx < rect_max.x; tx++) {
      const uint2 range = ranges[ty * grid.x + tx];
      // This Gaussian's place in the tile's front-to-back list.
      int own = -1;
      for (uint32_t k = range.x; k < range.y; k++)
        if (point_list[k] == (uint32_t)idx) {
          own = k - range.x;
          break;
        }
      if (own < 0)
        continue;
      for (int py = 0; py < BLOCK_Y; py++) {
        for (int px = 0; px < BLOCK_X; px++) {
          const uint32_t x = tx * BLOCK_X + px, y = ty * BLOCK_Y + py;
          if (x >= (uint32_t)W || y >= (uint32_t)H)
            continue;
          const uint32_t pix_id = W * y + x;
          const int last_contributor = n_contrib[pix_id];
          if (own >= last_contributor)
            continue;
          const float2 pixf = {(float)x, (float)y};
          const float T_final = final_Ts[pix_id];
          float T = T_final;
          float dL_dpixel[C];
          for (int ch = 0; ch < C; ch++)
            dL_dpixel[ch] = dL_dpixels[ch * H * W + pix_id];
          const float dL_invdepth = dL_invdepths ? dL_invdepths[pix_id] : 0;
          float accum_rec[C] = {0}, last_color[C] = {0};
          float accum_invdepth_rec = 0, last_invdepth = 0, last_alpha = 0;
          // Back to front, as the pixel-major backward, down to this one.
          for (int k = last_contributor - 1; k >= own; k--) {
            const int id = point_list[range.x + k];
            const float2 xy = points_xy_image[id];
            const float2 d = {xy.x - pixf.x, xy.y - pixf.y};
            const float4 con_o = conic_opacity[id];
            const float power =
                -0.5f * (con_o.x * d.x * d.x + con_o.z * d.y * d.y) -
                con_o.y * d.x * d.y;
            if (power > 0.0f)
              continue;
            const float G = exp(power);
            const float alpha = min(0.99f, con_o.w * G);
            if (alpha < 1.0f / 255.0f)
              continue;
            T = T / (1.f - alpha);
            const float dchannel_dcolor = alpha * T;
            float dL_dalpha = 0.0f;
            for (int ch = 0; ch < C; ch++) {
              const float c = colors[id * C + ch];
              accum_rec[ch] = last_alpha * last_color[ch] +
                              (1.f - last_alpha) * accum_rec[ch];
              last_color[ch] = c;
              dL_dalpha += (c - accum_rec[ch]) * dL_dpixel[ch];
              if (k == own)
                g_colors[ch] += dchannel_dcolor * dL_dpixel[ch];
            }
            if (dL_dinvdepths) {
              const float invd = 1.f / depths[id];
              accum_invdepth_rec = last_alpha * last_invdepth +
                                   (1.f - last_alpha) * accum_invdepth_rec;
              last_invdepth = invd;
              dL_dalpha += (invd - accum_invdepth_rec) * dL_invdepth;
              if (k == own)
                g_invdepth += dchannel_dcolor * dL_invdepth;
            }
            last_alpha = alpha;
            if (k != own)
              continue;
            dL_dalpha *= T;
            float bg_dot_dpixel = 0;
            for (int i = 0; i < C; i++)
              bg_dot_dpixel += bg_color[i] * dL_dpixel[i];
            dL_dalpha += (-T_final / (1.f - alpha)) * bg_dot_dpixel;
            const float dL_dG = con_o.w * dL_dalpha;
            const float gdx = G * d.x;
            const float gdy = G * d.y;
            const float dG_ddelx = -gdx * con_o.x - gdy * con_o.y;
            const float dG_ddely = -gdy * con_o.z - gdx * con_o.y;
            g_mean_x += dL_dG * dG_ddelx * ddelx_dx;
            g_mean_y += dL_dG * dG_ddely * ddely_dy;
            g_conic_x += -0.5f * gdx * d.x * dL_dG;
            g_conic_y += -0.5f * gdx * d.y * dL_dG;
            g_conic_w += -0.5f * gdy * d.y * dL_dG;
            g_opacity += G * dL_dalpha;
          }
        }
      }
    }
  }

  // Once per Gaussian: every lane targets its own Gaussian.
  for (int ch = 0; ch < C; ch++)
    atomicAdd(&(dL_dcolors[idx * C + ch]), g_colors[ch]);
  if (dL_dinvdepths)
    atomicAdd(&(dL_dinvdepths[idx]), g_invdepth);
  atomicAdd(&dL_dmean2D[idx].x, g_mean_x);
  atomicAdd(&dL_dmean2D[idx].y, g_mean_y);
  atomicAdd(&dL_dconic2D[idx].x, g_conic_x);
  atomicAdd(&dL_dconic2D[idx].y, g_conic_y);
  atomicAdd(&dL_dconic2D[idx].w, g_conic_w);
  atomicAdd(&(dL_dopacity[idx]), g_opacity);
}

void gaussianBackward(const ::dwk::GaussianBackwardArgs &a, int num_gaussians,
                      const int *radii, cudaStream_t stream) {
  const int threads = 128;
  const int blocks = (num_gaussians + threads - 1) / threads;
  if (blocks == 0)
    return;
  renderPerGaussianCUDA<NUM_CHANNELS><<<blocks, threads, 0, stream>>>(
      num_gaussians, radii, a.grid, a.ranges, a.point_list, a.W, a.H,
      a.bg_color, a.means2D, a.conic_opacity, a.colors, a.depths, a.final_Ts,
      a.n_contrib, a.dL_dpixels, a.dL_invdepths, a.dL_dmean2D, a.dL_dconic2D,
      a.dL_dopacity, a.dL_dcolors, a.dL_dinvdepths);
}

} // namespace per_gaussian
} // namespace DISTWAR_VARIANT_NS
