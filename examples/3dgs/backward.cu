// A 3D Gaussian Splatting style backward pass (after the public 3DGS
// rasterizer's renderCUDA backward): one block per 16x16 pixel tile, one
// thread per pixel, Gaussians loaded round by round into shared memory, and
// nine gradient atomics per Gaussian per contributing pixel. This is the
// plain-atomic input that distwar-rewrite batches.

#define BLOCK_X 16
#define BLOCK_Y 16
#define BLOCK_SIZE (BLOCK_X * BLOCK_Y)

template <int C>
__global__ void renderCUDA(const int2 *__restrict__ ranges,
                           const unsigned int *__restrict__ point_list, int W,
                           int H, const float *__restrict__ bg_color,
                           const float2 *__restrict__ points_xy_image,
                           const float4 *__restrict__ conic_opacity,
                           const float *__restrict__ colors,
                           const float *__restrict__ final_Ts,
                           const unsigned int *__restrict__ n_contrib,
                           const float *__restrict__ dL_dpixels,
                           float3 *__restrict__ dL_dmean2D,
                           float4 *__restrict__ dL_dconic2D,
                           float *__restrict__ dL_dopacity,
                           float *__restrict__ dL_dcolors) {
  const int horizontal_blocks = (W + BLOCK_X - 1) / BLOCK_X;
  const unsigned pix_min_x = blockIdx.x * BLOCK_X;
  const unsigned pix_min_y = blockIdx.y * BLOCK_Y;
  const unsigned pix_x = pix_min_x + threadIdx.x;
  const unsigned pix_y = pix_min_y + threadIdx.y;
  const unsigned pix_id = W * pix_y + pix_x;
  const float pixf_x = (float)pix_x;
  const float pixf_y = (float)pix_y;

  const bool inside = pix_x < W && pix_y < H;
  const int2 range = ranges[blockIdx.y * horizontal_blocks + blockIdx.x];
  const int rounds = (range.y - range.x + BLOCK_SIZE - 1) / BLOCK_SIZE;
  bool done = !inside;
  int toDo = range.y - range.x;

  __shared__ int collected_id[BLOCK_SIZE];
  __shared__ float2 collected_xy[BLOCK_SIZE];
  __shared__ float4 collected_conic_opacity[BLOCK_SIZE];
  __shared__ float collected_colors[C * BLOCK_SIZE];

  // Start from the back: the last contributor of this pixel.
  const float T_final = inside ? final_Ts[pix_id] : 0;
  float T = T_final;
  unsigned contributor = toDo;
  const int last_contributor = inside ? n_contrib[pix_id] : 0;

  float accum_rec[C] = {0};
  float dL_dpixel[C];
  if (inside)
    for (int i = 0; i < C; i++)
      dL_dpixel[i] = dL_dpixels[i * H * W + pix_id];

  float last_alpha = 0;
  float last_color[C] = {0};

  // Gradient of the pixel coordinate with respect to the NDC coordinate.
  const float ddelx_dx = 0.5f * W;
  const float ddely_dy = 0.5f * H;

  for (int i = 0; i < rounds; i++, toDo -= BLOCK_SIZE) {
    // Load one round of Gaussians into shared memory, back to front.
    __syncthreads();
    const int progress = i * BLOCK_SIZE + threadIdx.y * BLOCK_X + threadIdx.x;
    if (range.x + progress < range.y) {
      const int coll_id = point_list[range.y - progress - 1];
      collected_id[threadIdx.y * BLOCK_X + threadIdx.x] = coll_id;
      collected_xy[threadIdx.y * BLOCK_X + threadIdx.x] = points_xy_image[coll_id];
      collected_conic_opacity[threadIdx.y * BLOCK_X + threadIdx.x] =
          conic_opacity[coll_id];
      for (int ch = 0; ch < C; ch++)
        collected_colors[ch * BLOCK_SIZE + threadIdx.y * BLOCK_X + threadIdx.x] =
            colors[coll_id * C + ch];
    }
    __syncthreads();

    for (int j = 0; !done && j < min(BLOCK_SIZE, toDo); j++) {
      // Skip Gaussians behind this pixel's last contributor.
      contributor--;
      if (contributor >= last_contributor)
        continue;

      const float2 xy = collected_xy[j];
      const float2 d = {xy.x - pixf_x, xy.y - pixf_y};
      const float4 con_o = collected_conic_opacity[j];
      const float power =
          -0.5f * (con_o.x * d.x * d.x + con_o.z * d.y * d.y) -
          con_o.y * d.x * d.y;
      if (power > 0.0f)
        continue;

      const float G = expf(power);
      const float alpha = fminf(0.99f, con_o.w * G);
      if (alpha < 1.0f / 255.0f)
        continue;

      T = T / (1.f - alpha);
      const float dchannel_dcolor = alpha * T;

      // Colour gradients, interleaved with the running per-channel state.
      float dL_dalpha = 0.0f;
      const int global_id = collected_id[j];
      for (int ch = 0; ch < C; ch++) {
        const float c = collected_colors[ch * BLOCK_SIZE + j];
        accum_rec[ch] = last_alpha * last_color[ch] +
                        (1.f - last_alpha) * accum_rec[ch];
        last_color[ch] = c;

        const float dL_dchannel = dL_dpixel[ch];
        dL_dalpha += (c - accum_rec[ch]) * dL_dchannel;
        atomicAdd(&(dL_dcolors[global_id * C + ch]),
                  dchannel_dcolor * dL_dchannel);
      }
      dL_dalpha *= T;
      last_alpha = alpha;

      // The background colour shows through what is left of T.
      float bg_dot_dpixel = 0;
      for (int ch = 0; ch < C; ch++)
        bg_dot_dpixel += bg_color[ch] * dL_dpixel[ch];
      dL_dalpha += (-T_final / (1.f - alpha)) * bg_dot_dpixel;

      const float dL_dG = con_o.w * dL_dalpha;
      const float gdx = G * d.x;
      const float gdy = G * d.y;
      const float dG_ddelx = -gdx * con_o.x - gdy * con_o.y;
      const float dG_ddely = -gdy * con_o.z - gdx * con_o.y;

      // Mean2D, conic and opacity gradients.
      atomicAdd(&dL_dmean2D[global_id].x, dL_dG * dG_ddelx * ddelx_dx);
      atomicAdd(&dL_dmean2D[global_id].y, dL_dG * dG_ddely * ddely_dy);

      atomicAdd(&dL_dconic2D[global_id].x, -0.5f * gdx * d.x * dL_dG);
      atomicAdd(&dL_dconic2D[global_id].y, -0.5f * gdx * d.y * dL_dG);
      atomicAdd(&dL_dconic2D[global_id].w, -0.5f * gdy * d.y * dL_dG);

      atomicAdd(&(dL_dopacity[global_id]), G * dL_dalpha);
    }
  }
}

// The instantiation the renderer uses: three colour channels.
template __global__ void renderCUDA<3>(
    const int2 *, const unsigned int *, int, int, const float *,
    const float2 *, const float4 *, const float *, const float *,
    const unsigned int *, const float *, float3 *, float4 *, float *, float *);
