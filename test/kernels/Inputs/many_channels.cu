// Feature splatting backward with many channels: per Gaussian, CH feature
// gradients in a channel loop (read from the pixel's gradient in global
// memory) and the geometry gradients after it.
template <int CH>
__global__ void __launch_bounds__(256)
featureBackward(const int *__restrict__ ranges,
                const int *__restrict__ point_list,
                const float2 *__restrict__ means,
                const float4 *__restrict__ conic_opacity,
                const float *__restrict__ features,
                const float *__restrict__ dL_dpix, float *__restrict__ dL_dfeat,
                float2 *__restrict__ dL_dmean, float4 *__restrict__ dL_dconic,
                float *__restrict__ dL_dopacity, int W, int H) {
  __shared__ int collected_id[256];
  __shared__ float2 collected_xy[256];
  __shared__ float4 collected_co[256];
  const int px = blockIdx.x * 16 + threadIdx.x % 16;
  const int py = blockIdx.y * 16 + threadIdx.x / 16;
  const bool inside = px < W && py < H;
  const int pix = inside ? py * W + px : 0;
  const int tile = blockIdx.y * gridDim.x + blockIdx.x;
  const int begin = ranges[2 * tile], end = ranges[2 * tile + 1];
  bool done = !inside;
  float T = 1.f;
  for (int base = begin; base < end; base += 256) {
    __syncthreads();
    if (base + (int)threadIdx.x < end) {
      const int id = point_list[base + threadIdx.x];
      collected_id[threadIdx.x] = id;
      collected_xy[threadIdx.x] = means[id];
      collected_co[threadIdx.x] = conic_opacity[id];
    }
    __syncthreads();
    for (int j = 0; !done && j < min(256, end - base); j++) {
      const float2 xy = collected_xy[j];
      const float4 co = collected_co[j];
      const float dx = xy.x - px, dy = xy.y - py;
      const float power = -0.5f * (co.x * dx * dx + co.z * dy * dy) - co.y * dx * dy;
      if (power > 0.f)
        continue;
      const float G = expf(power);
      const float alpha = fminf(0.99f, co.w * G);
      if (alpha < 1.f / 255.f)
        continue;
      const int gid = collected_id[j];
      const float w = alpha * T;
      float dL_dalpha = 0.f;
      for (int ch = 0; ch < CH; ch++) {
        const float g = dL_dpix[ch * W * H + pix];
        dL_dalpha += features[gid * CH + ch] * g;
        atomicAdd(&dL_dfeat[gid * CH + ch], w * g);
      }
      T *= 1.f - alpha;
      const float dL_dG = co.w * dL_dalpha;
      atomicAdd(&dL_dmean[gid].x, dL_dG * dx);
      atomicAdd(&dL_dmean[gid].y, dL_dG * dy);
      atomicAdd(&dL_dconic[gid].x, -0.5f * G * dx * dx * dL_dG);
      atomicAdd(&dL_dconic[gid].y, -G * dx * dy * dL_dG);
      atomicAdd(&dL_dconic[gid].w, -0.5f * G * dy * dy * dL_dG);
      atomicAdd(&dL_dopacity[gid], G * dL_dalpha);
    }
  }
}
template __global__ void featureBackward<128>(const int *, const int *, const float2 *,
                                     const float4 *, const float *, const float *,
                                     float *, float2 *, float4 *, float *, int, int);
