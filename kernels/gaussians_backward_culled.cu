// The 3DGS backward render with each warp walking only the Gaussians its
// pixels blended (patch_cull.cuh, the box test; docs/BALANCING.md, "Culled
// lists"). The
// original walks its tile's whole list back to front, and each pixel skips
// the entries behind its last contributor and the Gaussians it does not
// blend. Here the block starts at the batch holding the furthest last
// contributor of its pixels, each warp leaves out the entries behind its own
// pixels' furthest one and the Gaussians its 8x4 patch cannot see, and its
// pixels run the original's arithmetic on the rest, in the original's order:
// each pixel adds the same gradients (the atomics of different pixels land
// in another order, as they do from run to run).
#include "gaussians_balance_host.cuh"
#include "gaussians_culled.h"
#include "patch_cull.cuh"
#include "staged_gaussians.cuh"

namespace dwk {
namespace {

constexpr int C = NUM_CHANNELS;

// One batch of the list, back to front, in shared memory, with each
// Gaussian's cull key.
template <typename Cull> struct BackwardBatch {
  StagedGaussians<BLOCK_SIZE> g;
  typename Cull::Key key[BLOCK_SIZE];

  __device__ void fetch(const GaussianBackwardArgs &a, int rank, uint32_t entry,
                        uint32_t end) {
    g.stage(a, rank, entry, end);
    key[rank] = Cull::key(g.xy[rank], g.con_o[rank]);
  }
};

// A pixel's state back to front, and the original's gradients of one more
// Gaussian, in its arithmetic.
struct PixelGradients {
  float2 pixf;
  float T_final, T;
  uint32_t last_contributor;
  float accum_rec[C] = {0};
  float dL_dpixel[C];
  float dL_invdepth = 0;
  float accum_invdepth_rec = 0;
  float last_alpha = 0;
  float last_color[C] = {0};
  float last_invdepth = 0;
  float bg_dot_dpixel = 0;

  __device__ PixelGradients(const GaussianBackwardArgs &a, uint2 pix,
                            bool inside)
      : pixf{(float)pix.x, (float)pix.y} {
    const uint32_t pix_id = a.W * pix.y + pix.x;
    T_final = inside ? a.final_Ts[pix_id] : 0;
    T = T_final;
    last_contributor = inside ? a.n_contrib[pix_id] : 0;
    for (int ch = 0; ch < C; ch++)
      dL_dpixel[ch] = inside ? a.dL_dpixels[ch * a.H * a.W + pix_id] : 0;
    if (inside && a.dL_invdepths)
      dL_invdepth = a.dL_invdepths[pix_id];
    for (int ch = 0; ch < C; ch++)
      bg_dot_dpixel += a.bg_color[ch] * dL_dpixel[ch];
  }

  template <int N>
  __device__ void add(const GaussianBackwardArgs &a,
                      const StagedGaussians<N> &b, int j) {
    const float ddelx_dx = 0.5 * a.W;
    const float ddely_dy = 0.5 * a.H;
    const float2 xy = b.xy[j];
    const float2 d = {xy.x - pixf.x, xy.y - pixf.y};
    const float4 con_o = b.con_o[j];
    const float power = -0.5f * (con_o.x * d.x * d.x + con_o.z * d.y * d.y) -
                        con_o.y * d.x * d.y;
    if (power > 0.0f)
      return;
    const float G = exp(power);
    const float alpha = min(0.99f, con_o.w * G);
    if (alpha < 1.0f / 255.0f)
      return;
    T = T / (1.f - alpha);
    const float dchannel_dcolor = alpha * T;
    float dL_dalpha = 0.0f;
    const int global_id = b.id[j];
    for (int ch = 0; ch < C; ch++) {
      const float c = b.color[ch][j];
      accum_rec[ch] =
          last_alpha * last_color[ch] + (1.f - last_alpha) * accum_rec[ch];
      last_color[ch] = c;
      dL_dalpha += (c - accum_rec[ch]) * dL_dpixel[ch];
      atomicAdd(&(a.dL_dcolors[global_id * C + ch]),
                dchannel_dcolor * dL_dpixel[ch]);
    }
    if (a.dL_dinvdepths) {
      const float invd = b.invdepth[j];
      accum_invdepth_rec =
          last_alpha * last_invdepth + (1.f - last_alpha) * accum_invdepth_rec;
      last_invdepth = invd;
      dL_dalpha += (invd - accum_invdepth_rec) * dL_invdepth;
      atomicAdd(&(a.dL_dinvdepths[global_id]), dchannel_dcolor * dL_invdepth);
    }
    dL_dalpha *= T;
    last_alpha = alpha;
    dL_dalpha += (-T_final / (1.f - alpha)) * bg_dot_dpixel;
    const float dL_dG = con_o.w * dL_dalpha;
    const float gdx = G * d.x;
    const float gdy = G * d.y;
    const float dG_ddelx = -gdx * con_o.x - gdy * con_o.y;
    const float dG_ddely = -gdy * con_o.z - gdx * con_o.y;
    atomicAdd(&a.dL_dmean2D[global_id].x, dL_dG * dG_ddelx * ddelx_dx);
    atomicAdd(&a.dL_dmean2D[global_id].y, dL_dG * dG_ddely * ddely_dy);
    atomicAdd(&a.dL_dconic2D[global_id].x, -0.5f * gdx * d.x * dL_dG);
    atomicAdd(&a.dL_dconic2D[global_id].y, -0.5f * gdx * d.y * dL_dG);
    atomicAdd(&a.dL_dconic2D[global_id].w, -0.5f * gdy * d.y * dL_dG);
    atomicAdd(&(a.dL_dopacity[global_id]), G * dL_dalpha);
  }
};

// The furthest last contributor of the block's pixels (entries from there
// on, no pixel of the block blends).
__device__ uint32_t blockLastContributor(uint32_t warp_last, int lane) {
  __shared__ uint32_t furthest;
  if (threadIdx.x == 0 && threadIdx.y == 0)
    furthest = 0;
  __syncthreads();
  if (lane == 0)
    atomicMax(&furthest, warp_last);
  __syncthreads();
  return furthest;
}

// BACKWARD::renderCUDA for 16x16 tile `tile` (a block of 256 threads). List
// position p (from the tile's start) is, for the original, `contributor`
// after its decrement; batch i holds positions len - 1 - 256 i down.
template <typename Cull>
__device__ void backwardCulledTile(const GaussianBackwardArgs &a,
                                   uint32_t tile) {
  const int rank = threadIdx.y * blockDim.x + threadIdx.x;
  const PatchPlace at(tile, a.W, rank);
  const bool inside = at.pix.x < a.W && at.pix.y < a.H;
  PixelGradients p(a, at.pix, inside);
  const uint2 range = a.ranges[tile];
  const int len = range.y - range.x;
  const uint32_t warp_last = warpMax(p.last_contributor);
  const int block_last = blockLastContributor(warp_last, at.lane);
  __shared__ BackwardBatch<Cull> batch;

  const int rounds = (len + BLOCK_SIZE - 1) / BLOCK_SIZE;
  for (int i = max(0, len - block_last) / BLOCK_SIZE; i < rounds; i++) {
    __syncthreads();
    const int progress = i * BLOCK_SIZE + rank;
    if (progress < len)
      batch.fetch(a, rank, range.y - progress - 1, range.y);
    __syncthreads();
    const int count = min(BLOCK_SIZE, len - i * BLOCK_SIZE);
    // Entries before `first` lie at or behind every pixel's last contributor.
    const int first = max(0, len - i * BLOCK_SIZE - int(warp_last));
    for (int k = first / kWarpLanes; k * kWarpLanes < count; ++k) {
      const uint32_t seen = cullWord<Cull>(batch.key, batch.g.xy, batch.g.con_o,
                                           k, first, count, at);
      for (uint32_t bits = seen; bits; bits &= bits - 1) {
        const int j = k * kWarpLanes + __ffs(bits) - 1;
        const uint32_t contributor = len - 1 - i * BLOCK_SIZE - j;
        if (inside && contributor < p.last_contributor)
          p.add(a, batch.g, j);
      }
    }
  }
}

template <typename Cull>
__global__ void __launch_bounds__(BLOCK_SIZE)
    backwardCulled(GaussianBackwardArgs a) {
  backwardCulledTile<Cull>(a, blockIdx.y * a.grid.x + blockIdx.x);
}

template <typename Cull>
__global__ void __launch_bounds__(BLOCK_SIZE)
    backwardCulledDynamic(GaussianBackwardArgs a, distwar::TileQueue *queue,
                          const uint32_t *order, uint32_t tiles) {
  distwar::forEachTile(
      queue, tiles, [&](uint32_t t) { backwardCulledTile<Cull>(a, order[t]); });
}

template <typename Cull>
void launchCulled(const GaussianBackwardArgs &a, bool dynamic,
                  const TilePool &pool, cudaStream_t stream) {
  if (dynamic)
    balance_detail::launchOnPool(backwardCulledDynamic<Cull>,
                                 dim3(BLOCK_X, BLOCK_Y, 1), 1, a, pool, stream);
  else
    backwardCulled<Cull><<<a.grid, dim3(BLOCK_X, BLOCK_Y, 1), 0, stream>>>(a);
}

} // namespace

void launchCulledBackward(const GaussianBackwardArgs &a, bool dynamic,
                          const TilePool &pool, cudaStream_t stream) {
  launchCulled<BoxCull>(a, dynamic, pool, stream);
}

} // namespace dwk
