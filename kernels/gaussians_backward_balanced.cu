// What the load-balancing techniques of gaussians_forward_balanced.cu give
// the 3DGS backward render (docs/BALANCING.md): the original kernel drawing
// its 16x16 tiles from a pool, and a warp per pixel drawing 4x2-pixel pieces,
// either with every lane adding its own Gaussian's gradients or with the
// block's eight pixels summed per Gaussian in shared memory first.
// Hand-written, not tool output; gradients as gaussians_backward.cu's.
#include "gaussians_balance.h"
#include "gaussians_balance_host.cuh"
#include "gaussians_culled.h"
#include "staged_gaussians.cuh"
#include "tiles.h"
#include "warp_scan.cuh"

#include <cassert>

DWK_DECLARE_GAUSSIAN_BACKWARD(dwk_plain)

namespace dwk {
namespace {

constexpr int C = NUM_CHANNELS;

// --- The original kernel on tiles from a pool --------------------------------

// BACKWARD::renderCUDA's body for 16x16 tile `tile` (a block of 256
// threads, 16x16 or 256x1), unchanged but for where the tile comes from.
__device__ void backwardOriginalTile(const GaussianBackwardArgs &a,
                                     uint32_t tile) {
  const uint32_t horizontal_blocks = (a.W + BLOCK_X - 1) / BLOCK_X;
  const uint2 pix_min = {(tile % horizontal_blocks) * BLOCK_X,
                         (tile / horizontal_blocks) * BLOCK_Y};
  const int rank = threadIdx.y * blockDim.x + threadIdx.x;
  const uint2 pix = {pix_min.x + rank % BLOCK_X, pix_min.y + rank / BLOCK_X};
  const uint32_t pix_id = a.W * pix.y + pix.x;
  const float2 pixf = {(float)pix.x, (float)pix.y};
  const bool inside = pix.x < a.W && pix.y < a.H;
  const uint2 range = a.ranges[tile];
  const int rounds = ((range.y - range.x + BLOCK_SIZE - 1) / BLOCK_SIZE);
  bool done = !inside;
  int toDo = range.y - range.x;

  __shared__ int collected_id[BLOCK_SIZE];
  __shared__ float2 collected_xy[BLOCK_SIZE];
  __shared__ float4 collected_conic_opacity[BLOCK_SIZE];
  __shared__ float collected_colors[C * BLOCK_SIZE];
  __shared__ float collected_depths[BLOCK_SIZE];

  const float T_final = inside ? a.final_Ts[pix_id] : 0;
  float T = T_final;
  uint32_t contributor = toDo;
  const int last_contributor = inside ? a.n_contrib[pix_id] : 0;
  float accum_rec[C] = {0};
  float dL_dpixel[C];
  float dL_invdepth;
  float accum_invdepth_rec = 0;
  if (inside) {
    for (int i = 0; i < C; i++)
      dL_dpixel[i] = a.dL_dpixels[i * a.H * a.W + pix_id];
    if (a.dL_invdepths)
      dL_invdepth = a.dL_invdepths[pix_id];
  }
  float last_alpha = 0;
  float last_color[C] = {0};
  float last_invdepth = 0;
  const float ddelx_dx = 0.5 * a.W;
  const float ddely_dy = 0.5 * a.H;

  for (int i = 0; i < rounds; i++, toDo -= BLOCK_SIZE) {
    __syncthreads();
    const int progress = i * BLOCK_SIZE + rank;
    if (range.x + progress < range.y) {
      const int coll_id = a.point_list[range.y - progress - 1];
      collected_id[rank] = coll_id;
      collected_xy[rank] = a.means2D[coll_id];
      collected_conic_opacity[rank] = a.conic_opacity[coll_id];
      for (int i = 0; i < C; i++)
        collected_colors[i * BLOCK_SIZE + rank] = a.colors[coll_id * C + i];
      if (a.dL_invdepths)
        collected_depths[rank] = a.depths[coll_id];
    }
    __syncthreads();
    for (int j = 0; !done && j < min(BLOCK_SIZE, toDo); j++) {
      contributor--;
      if (contributor >= last_contributor)
        continue;
      const float2 xy = collected_xy[j];
      const float2 d = {xy.x - pixf.x, xy.y - pixf.y};
      const float4 con_o = collected_conic_opacity[j];
      const float power = -0.5f * (con_o.x * d.x * d.x + con_o.z * d.y * d.y) -
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
      const int global_id = collected_id[j];
      for (int ch = 0; ch < C; ch++) {
        const float c = collected_colors[ch * BLOCK_SIZE + j];
        accum_rec[ch] =
            last_alpha * last_color[ch] + (1.f - last_alpha) * accum_rec[ch];
        last_color[ch] = c;
        const float dL_dchannel = dL_dpixel[ch];
        dL_dalpha += (c - accum_rec[ch]) * dL_dchannel;
        atomicAdd(&(a.dL_dcolors[global_id * C + ch]),
                  dchannel_dcolor * dL_dchannel);
      }
      if (a.dL_dinvdepths) {
        const float invd = 1.f / collected_depths[j];
        accum_invdepth_rec = last_alpha * last_invdepth +
                             (1.f - last_alpha) * accum_invdepth_rec;
        last_invdepth = invd;
        dL_dalpha += (invd - accum_invdepth_rec) * dL_invdepth;
        atomicAdd(&(a.dL_dinvdepths[global_id]), dchannel_dcolor * dL_invdepth);
      }
      dL_dalpha *= T;
      last_alpha = alpha;
      float bg_dot_dpixel = 0;
      for (int i = 0; i < C; i++)
        bg_dot_dpixel += a.bg_color[i] * dL_dpixel[i];
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
  }
}

__global__ void __launch_bounds__(BLOCK_SIZE)
    backwardDynamicTiles(GaussianBackwardArgs a, distwar::TileQueue *queue,
                         const uint32_t *order, uint32_t tiles) {
  distwar::forEachTile(queue, tiles, [&](uint32_t t) {
    backwardOriginalTile(a, order[t]);
  });
}

// --- A warp per pixel --------------------------------------------------------

// The gradients one (pixel, Gaussian) pair adds, in this order: mean2D .x .y,
// conic .x .y .w, opacity, colours, inverse depth.
constexpr int kMean = 0, kConic = 2, kOpacity = 5, kColor = 6,
              kInvDepth = 6 + C, kFields = 7 + C;
struct PairGradients {
  float v[kFields];
};

__device__ __forceinline__ float *fieldAddress(const GaussianBackwardArgs &a,
                                               int field, int id) {
  switch (field) {
  case kMean:
    return &a.dL_dmean2D[id].x;
  case kMean + 1:
    return &a.dL_dmean2D[id].y;
  case kConic:
    return &a.dL_dconic2D[id].x;
  case kConic + 1:
    return &a.dL_dconic2D[id].y;
  case kConic + 2:
    return &a.dL_dconic2D[id].w;
  case kOpacity:
    return &a.dL_dopacity[id];
  case kInvDepth:
    return a.dL_dinvdepths ? &a.dL_dinvdepths[id] : nullptr;
  default:
    return &a.dL_dcolors[id * C + field - kColor];
  }
}

// What the warp carries from one step of a pixel to the next (every lane
// holds the same values).
struct PixelState {
  float T;        // transmittance in front of the last Gaussian blended
  float accum[4]; // running colour (C channels) and inverse depth
  float T_final, bg_dot, dL_invdepth;
  float dL_dpixel[C];
};

__device__ PixelState startPixel(const GaussianBackwardArgs &a,
                                 uint32_t pix_id) {
  PixelState p;
  p.T_final = a.final_Ts[pix_id];
  p.T = p.T_final;
  p.bg_dot = 0;
  for (int ch = 0; ch < C; ch++) {
    p.dL_dpixel[ch] = a.dL_dpixels[ch * a.H * a.W + pix_id];
    p.bg_dot += a.bg_color[ch] * p.dL_dpixel[ch];
  }
  p.dL_invdepth = a.dL_invdepths ? a.dL_invdepths[pix_id] : 0;
  for (float &v : p.accum)
    v = 0;
  return p;
}

// One step of 32 Gaussians for one pixel, back to front: lane l holds the
// Gaussian in slot k + l of `s` (none where `mine` is false), the lanes in
// the order the original visits them. Returns whether the lane's Gaussian
// blends, with its gradients in `g`. The lanes' transmittances and running
// colours come from one scan of affine maps (warp_scan.cuh); the sequential
// recurrences of the original give the same values up to rounding.
template <int N>
__device__ bool backwardStep(const GaussianBackwardArgs &a, PixelState &p,
                             float2 pixf, const StagedGaussians<N> &s, int k,
                             bool mine, PairGradients &g) {
  const unsigned lane = laneIndex();
  k += lane;
  float alpha = 0, G = 0, invd = 0, c[C] = {0};
  float2 d = {0, 0};
  float4 con_o = {0, 0, 0, 0};
  if (mine) {
    const float2 xy = s.xy[k];
    con_o = s.con_o[k];
    d = {xy.x - pixf.x, xy.y - pixf.y};
    const float power = -0.5f * (con_o.x * d.x * d.x + con_o.z * d.y * d.y) -
                        con_o.y * d.x * d.y;
    if (power <= 0.0f) {
      G = exp(power);
      alpha = min(0.99f, con_o.w * G);
      if (alpha < 1.0f / 255.0f)
        alpha = 0;
    }
    if (alpha > 0) {
      for (int ch = 0; ch < C; ch++)
        c[ch] = s.color[ch][k];
      if (a.dL_dinvdepths)
        invd = s.invdepth[k];
    }
  }
  const bool blends = alpha > 0;
  if (!__any_sync(kFullWarp, blends))
    return false;
  AffineMap<4> m;
  for (int ch = 0; ch < C; ch++)
    m.add[ch] = alpha * c[ch];
  m.add[3] = alpha * invd;
  m.scale = 1.f - alpha;
  const AffineMap<4> through = inclusiveCompose(m, lane);
  const AffineMap<4> before = exclusiveOf(through, lane);
  if (blends) {
    const float T = p.T / through.scale;
    const float dchannel_dcolor = alpha * T;
    float dL_dalpha = 0.0f;
    for (int ch = 0; ch < C; ch++) {
      const float accum = before.add[ch] + before.scale * p.accum[ch];
      dL_dalpha += (c[ch] - accum) * p.dL_dpixel[ch];
      g.v[kColor + ch] = dchannel_dcolor * p.dL_dpixel[ch];
    }
    g.v[kInvDepth] = 0;
    if (a.dL_dinvdepths) {
      const float accum = before.add[3] + before.scale * p.accum[3];
      dL_dalpha += (invd - accum) * p.dL_invdepth;
      g.v[kInvDepth] = dchannel_dcolor * p.dL_invdepth;
    }
    dL_dalpha *= T;
    dL_dalpha += (-p.T_final / (1.f - alpha)) * p.bg_dot;
    const float dL_dG = con_o.w * dL_dalpha;
    const float gdx = G * d.x;
    const float gdy = G * d.y;
    const float dG_ddelx = -gdx * con_o.x - gdy * con_o.y;
    const float dG_ddely = -gdy * con_o.z - gdx * con_o.y;
    g.v[kMean] = dL_dG * dG_ddelx * (0.5f * a.W);
    g.v[kMean + 1] = dL_dG * dG_ddely * (0.5f * a.H);
    g.v[kConic] = -0.5f * gdx * d.x * dL_dG;
    g.v[kConic + 1] = -0.5f * gdx * d.y * dL_dG;
    g.v[kConic + 2] = -0.5f * gdy * d.y * dL_dG;
    g.v[kOpacity] = G * dL_dalpha;
  }
  const AffineMap<4> all = broadcast(through, kWarpLanes - 1);
  for (int k = 0; k < 4; k++)
    p.accum[k] = all.add[k] + all.scale * p.accum[k];
  p.T /= all.scale;
  return blends;
}

template <int TW, int TH> struct Pieces {
  static_assert(BLOCK_X % TW == 0 && BLOCK_Y % TH == 0,
                "pieces must tile a 16x16 tile");
  static constexpr int kWarps = TW * TH;
  static constexpr uint32_t kAcross = BLOCK_X / TW;
  static constexpr uint32_t kPerTile = kAcross * (BLOCK_Y / TH);

  // The pixel of the calling warp in piece `piece` of tile `tile`.
  static __device__ uint2 pixel(const GaussianBackwardArgs &a, uint32_t tile,
                                uint32_t piece) {
    const uint32_t horizontal_blocks = (a.W + BLOCK_X - 1) / BLOCK_X;
    const unsigned warp = threadIdx.x / kWarpLanes;
    return {(tile % horizontal_blocks) * BLOCK_X + (piece % kAcross) * TW +
                warp % TW,
            (tile / horizontal_blocks) * BLOCK_Y + (piece / kAcross) * TH +
                warp / TW};
  }
};

// Piece `piece` of 16x16 tile `tile`, a warp per pixel. The block's pixels
// share their tile's list, so steps aligned to the list (lane l at position
// 32 k + 31 - l in every warp) give lane l of every warp the same Gaussian:
// a batch of steps is staged in shared memory once per block (one Gaussian
// per thread) instead of read once per pixel. Steps run to the block's
// longest pixel; a warp whose pixel is done (or has not reached the step)
// blends nothing in it.
//
// kSummed false: every lane adds its own Gaussian's gradients, 32 different
// addresses per atomic instruction. kSummed true: the warps' gradients are
// summed per lane in shared memory first, and each (Gaussian, field) gets
// one atomic per block instead of one per pixel (two buffers, so one barrier
// per step).
template <int TW, int TH, bool kSummed>
__device__ void backwardPiece(const GaussianBackwardArgs &a, uint32_t tile,
                              uint32_t piece) {
  using P = Pieces<TW, TH>;
  constexpr int kBatch = P::kWarps * kWarpLanes;
  __shared__ StagedGaussians<kBatch> staged;
  __shared__ float sums[kSummed ? 2 : 1][kFields][P::kWarps][kWarpLanes];
  __shared__ int lastOfWarp[P::kWarps];
  const unsigned lane = laneIndex(), warp = threadIdx.x / kWarpLanes;
  const uint2 pix = P::pixel(a, tile, piece);
  const bool inside = pix.x < a.W && pix.y < a.H;
  const uint32_t pix_id = a.W * pix.y + pix.x;
  const uint2 range = a.ranges[tile];
  const int last = inside ? int(a.n_contrib[pix_id]) : 0;
  if (lane == 0)
    lastOfWarp[warp] = last;
  __syncthreads();
  int longest = 0;
  for (int w = 0; w < P::kWarps; w++)
    longest = max(longest, lastOfWarp[w]);
  PixelState p = inside ? startPixel(a, pix_id) : PixelState{};
  const float2 pixf = {(float)pix.x, (float)pix.y};
  const int top = (longest + kWarpLanes - 1) / kWarpLanes - 1;
  int buffer = 0;
  for (int step = top; step >= 0; step--) {
    const int k = (top - step) % P::kWarps;
    if (k == 0) {
      // Every warp is past the previous batch's last step (summed: its
      // barrier; else this one).
      if (!kSummed)
        __syncthreads();
      const int position = (step - int(warp)) * kWarpLanes + 31 - int(lane);
      staged.stage(a, threadIdx.x, range.x + position,
                   position >= 0 ? range.y : 0);
      __syncthreads();
    }
    const int position = step * kWarpLanes + kWarpLanes - 1 - int(lane);
    PairGradients g;
    const bool blends = inside && backwardStep(a, p, pixf, staged,
                                               k * kWarpLanes, position < last,
                                               g);
    if constexpr (!kSummed) {
      if (blends) {
        const int id = staged.id[k * kWarpLanes + lane];
        for (int f = 0; f < kFields; f++)
          if (float *addr = fieldAddress(a, f, id))
            atomicAdd(addr, g.v[f]);
      }
    } else {
      for (int f = 0; f < kFields; f++)
        sums[buffer][f][warp][lane] = blends ? g.v[f] : 0.0f;
      __syncthreads();
      for (int i = threadIdx.x; i < kFields * kWarpLanes; i += blockDim.x) {
        const int f = i / kWarpLanes, l = i % kWarpLanes;
        float sum = 0;
        for (int w = 0; w < P::kWarps; w++)
          sum += sums[buffer][f][w][l];
        // The next batch may overwrite `staged` now: the id comes from the
        // list itself.
        if (sum != 0.0f)
          if (float *addr = fieldAddress(
                  a, f, a.point_list[range.x + step * kWarpLanes + 31 - l]))
            atomicAdd(addr, sum);
      }
      buffer ^= 1;
    }
  }
}

// 32 warps per SM as the original backward: at most 64 registers.
constexpr int kPieceThreadsPerSM = 1024;

// Pool tile t is piece t % pieces of 16x16 tile order[t / pieces].
template <int TW, int TH, bool kSummed>
__global__ void __launch_bounds__(TW *TH *kWarpLanes,
                                  kPieceThreadsPerSM / (TW * TH * kWarpLanes))
    backwardPieces(GaussianBackwardArgs a, distwar::TileQueue *queue,
                   const uint32_t *order, uint32_t tiles) {
  constexpr uint32_t kPerTile = Pieces<TW, TH>::kPerTile;
  distwar::forEachTile(queue, tiles * kPerTile, [&](uint32_t t) {
    backwardPiece<TW, TH, kSummed>(a, order[t / kPerTile], t % kPerTile);
  });
}

// The heavy tiles (the first `*heavy_tiles` of the order) in 4x2 pieces with
// per-lane atomics, the others whole as the original (see renderSplitHeavy).
__global__ void __launch_bounds__(BLOCK_SIZE, kPieceThreadsPerSM / BLOCK_SIZE)
    backwardSplitHeavy(GaussianBackwardArgs a, distwar::TileQueue *queue,
                       const uint32_t *order, const uint32_t *heavy_tiles,
                       uint32_t tiles) {
  constexpr uint32_t kPerTile = Pieces<4, 2>::kPerTile;
  const uint32_t heavy = *heavy_tiles, pieces = heavy * kPerTile;
  distwar::forEachTile(queue, pieces + tiles - heavy, [&](uint32_t t) {
    if (t < pieces)
      backwardPiece<4, 2, false>(a, order[t / kPerTile], t % kPerTile);
    else
      backwardOriginalTile(a, order[heavy + t - pieces]);
  });
}

constexpr balance_detail::NamedKernel<BackwardKernel> kBackwardKernels[] = {
    {BackwardKernel::kOriginal, "original"},
    {BackwardKernel::kDynamicTiles, "dynamic-tiles"},
    {BackwardKernel::kFineGrained, "fine-4x2"},
    {BackwardKernel::kFineGrainedSummed, "fine-4x2-summed"},
    {BackwardKernel::kSplitHeavy, "split-heavy"},
    {BackwardKernel::kCulledBox, "culled-box"},
    {BackwardKernel::kCulledBoxDynamic, "culled-box-dynamic"},
};

} // namespace

const std::vector<BackwardKernel> &allBackwardKernels() {
  static const std::vector<BackwardKernel> all =
      balance_detail::kernelsOf(kBackwardKernels);
  return all;
}

const char *name(BackwardKernel k) {
  return balance_detail::nameIn(kBackwardKernels, k);
}

void renderBackward(const GaussianBackwardArgs &a, BackwardKernel k,
                    TilePool &pool, cudaStream_t stream) {
  assert((k == BackwardKernel::kOriginal || k == BackwardKernel::kCulledBox ||
          pool.tiles() == size_t(a.grid.x) * a.grid.y) &&
         "orderHeavyFirst() after binning, before a dynamic kernel");
  constexpr int kTW = 4, kTH = 2, kThreads = kTW * kTH * kWarpLanes;
  switch (k) {
  case BackwardKernel::kOriginal:
    dwk_plain::gaussianBackward(a, stream);
    break;
  case BackwardKernel::kDynamicTiles:
    balance_detail::launchOnPool(backwardDynamicTiles,
                                 dim3(BLOCK_X, BLOCK_Y, 1), 1, a, pool, stream);
    break;
  case BackwardKernel::kFineGrained:
    balance_detail::launchOnPool(backwardPieces<kTW, kTH, false>, kThreads,
                                 Pieces<kTW, kTH>::kPerTile, a, pool, stream);
    break;
  case BackwardKernel::kFineGrainedSummed:
    balance_detail::launchOnPool(backwardPieces<kTW, kTH, true>, kThreads,
                                 Pieces<kTW, kTH>::kPerTile, a, pool, stream);
    break;
  case BackwardKernel::kSplitHeavy:
    // The pool's size is known on the device only: as many blocks as fit.
    balance_detail::launchOnPool(backwardSplitHeavy, BLOCK_SIZE,
                                 Pieces<kTW, kTH>::kPerTile, a, pool, stream,
                                 pool.heavyTiles());
    break;
  case BackwardKernel::kCulledBox:
  case BackwardKernel::kCulledBoxDynamic:
    launchCulledBackward(a, k == BackwardKernel::kCulledBoxDynamic, pool,
                         stream);
    break;
  }
  DWK_CHECK(cudaGetLastError());
}

} // namespace dwk
