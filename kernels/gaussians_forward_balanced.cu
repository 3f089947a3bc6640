// The 3DGS forward render, load-balanced three ways (Balanced-3DGS, sections
// 4.1-4.3; docs/BALANCING.md): the original kernel drawing its 16x16 tiles
// from a pool, a warp per pixel with the lanes on successive Gaussians
// (static tiles), and both together with tiles of a few pixels. Every kernel
// writes the outputs of gaussians_forward.cu: final_T, n_contrib, the colour
// over the background, the inverse depth.
#include "gaussians_balance.h"
#include "gaussians_balance_host.cuh"
#include "gaussians_culled.h"
#include "tiles.h"
#include "warp_scan.cuh"

#include <cassert>

namespace dwk {
namespace {

// --- 4.1: the original kernel on tiles from a pool --------------------------

// FORWARD::renderCUDA's body for 16x16 tile `tile` (a block of 256
// threads, 16x16 or 256x1), unchanged but for where the tile comes from.
template <uint32_t CHANNELS>
__device__ void renderOriginalTile(const ForwardArgs &a, uint32_t tile) {
  const uint32_t horizontal_blocks = (a.W + BLOCK_X - 1) / BLOCK_X;
  const uint2 pix_min = {(tile % horizontal_blocks) * BLOCK_X,
                         (tile / horizontal_blocks) * BLOCK_Y};
  const int rank = threadIdx.y * blockDim.x + threadIdx.x;
  const uint2 pix = {pix_min.x + rank % BLOCK_X, pix_min.y + rank / BLOCK_X};
  const uint32_t pix_id = a.W * pix.y + pix.x;
  const float2 pixf = {(float)pix.x, (float)pix.y};
  const bool inside = pix.x < a.W && pix.y < a.H;
  bool done = !inside;

  const uint2 range = a.ranges[tile];
  const int rounds = ((range.y - range.x + BLOCK_SIZE - 1) / BLOCK_SIZE);
  int toDo = range.y - range.x;

  __shared__ int collected_id[BLOCK_SIZE];
  __shared__ float2 collected_xy[BLOCK_SIZE];
  __shared__ float4 collected_conic_opacity[BLOCK_SIZE];

  float T = 1.0f;
  uint32_t contributor = 0;
  uint32_t last_contributor = 0;
  float C[CHANNELS] = {0};
  float expected_invdepth = 0.0f;

  for (int i = 0; i < rounds; i++, toDo -= BLOCK_SIZE) {
    int num_done = __syncthreads_count(done);
    if (num_done == BLOCK_SIZE)
      break;
    int progress = i * BLOCK_SIZE + rank;
    if (range.x + progress < range.y) {
      int coll_id = a.point_list[range.x + progress];
      collected_id[rank] = coll_id;
      collected_xy[rank] = a.means2D[coll_id];
      collected_conic_opacity[rank] = a.conic_opacity[coll_id];
    }
    __syncthreads();
    for (int j = 0; !done && j < min(BLOCK_SIZE, toDo); j++) {
      contributor++;
      float2 xy = collected_xy[j];
      float2 d = {xy.x - pixf.x, xy.y - pixf.y};
      float4 con_o = collected_conic_opacity[j];
      float power = -0.5f * (con_o.x * d.x * d.x + con_o.z * d.y * d.y) -
                    con_o.y * d.x * d.y;
      if (power > 0.0f)
        continue;
      float alpha = min(0.99f, con_o.w * exp(power));
      if (alpha < 1.0f / 255.0f)
        continue;
      float test_T = T * (1 - alpha);
      if (test_T < 0.0001f) {
        done = true;
        continue;
      }
      for (int ch = 0; ch < CHANNELS; ch++)
        C[ch] += a.features[collected_id[j] * CHANNELS + ch] * alpha * T;
      if (a.invdepth)
        expected_invdepth += (1 / a.depths[collected_id[j]]) * alpha * T;
      T = test_T;
      last_contributor = contributor;
    }
  }

  if (inside) {
    a.final_T[pix_id] = T;
    a.n_contrib[pix_id] = last_contributor;
    for (int ch = 0; ch < CHANNELS; ch++)
      a.out_color[ch * a.H * a.W + pix_id] = C[ch] + T * a.bg_color[ch];
    if (a.invdepth)
      a.invdepth[pix_id] = expected_invdepth;
  }
}

template <uint32_t CHANNELS>
__global__ void __launch_bounds__(BLOCK_SIZE)
    renderDynamicTiles(ForwardArgs a, distwar::TileQueue *queue,
                       const uint32_t *order, uint32_t tiles) {
  distwar::forEachTile(queue, tiles, [&](uint32_t t) {
    renderOriginalTile<CHANNELS>(a, order[t]);
  });
}

// --- 4.2: a warp per pixel ---------------------------------------------------

// What one lane holds of the Gaussian at one position of a tile's list.
struct Splat {
  int id; // -1: past the end of the list
  float2 xy;
  float4 con_o;
};

__device__ __forceinline__ Splat loadSplat(const ForwardArgs &a, uint32_t j,
                                           uint32_t end) {
  Splat s{-1, {0, 0}, {0, 0, 0, 0}};
  if (j < end) {
    s.id = a.point_list[j];
    s.xy = a.means2D[s.id];
    s.con_o = a.conic_opacity[s.id];
  }
  return s;
}

// The pixel's alpha for `s`, or 0 where the original skips it (power > 0,
// alpha < 1/255), in the original's arithmetic.
__device__ __forceinline__ float blendAlpha(const Splat &s, float2 pixf) {
  if (s.id < 0)
    return 0.0f;
  const float2 d = {s.xy.x - pixf.x, s.xy.y - pixf.y};
  const float power =
      -0.5f * (s.con_o.x * d.x * d.x + s.con_o.z * d.y * d.y) -
      s.con_o.y * d.x * d.y;
  if (power > 0.0f)
    return 0.0f;
  const float alpha = min(0.99f, s.con_o.w * exp(power));
  return alpha < 1.0f / 255.0f ? 0.0f : alpha;
}

// One pixel rendered by the whole warp, 32 Gaussians per step: lane l
// blends the Gaussian at list position first + l. The transmittance in front
// of each lane's Gaussian is the running T times the prefix product of
// (1 - alpha); the first lane whose Gaussian would take T under 1e-4 stops
// the pixel there, as the original's `done` does. Each lane sums its own
// share of the colour; write() adds the shares. Warp-uniform throughout:
// every branch depends on votes or broadcasts only.
template <uint32_t CHANNELS> struct WarpPixel {
  float2 pixf;
  float T = 1.0f;
  uint32_t last_contributor = 0;
  float C[CHANNELS] = {0};
  float expected_invdepth = 0.0f;

  __device__ explicit WarpPixel(uint2 pix)
      : pixf{(float)pix.x, (float)pix.y} {}

  // One step; `first`: the list position (from the tile's start) of lane
  // 0's Gaussian. True when the pixel is done.
  __device__ bool step(const ForwardArgs &a, const Splat &s, uint32_t first) {
    const unsigned lane = laneIndex();
    const float alpha = blendAlpha(s, pixf);
    const bool blends = alpha > 0.0f;
    if (!__any_sync(kFullWarp, blends))
      return false;
    const float through = inclusiveProduct(1.0f - alpha, lane);
    const float test_T = T * through;
    const float front = T * exclusiveOf(through, lane, 1.0f);
    const unsigned stops =
        __ballot_sync(kFullWarp, blends && test_T < 0.0001f);
    const int stop = stops ? __ffs(stops) - 1 : kWarpLanes;
    const bool contributes = blends && int(lane) < stop;
    if (contributes) {
      const float w = alpha * front;
      for (int ch = 0; ch < CHANNELS; ch++)
        C[ch] += a.features[s.id * CHANNELS + ch] * w;
      if (a.invdepth)
        expected_invdepth += (1 / a.depths[s.id]) * w;
    }
    const unsigned contributors = __ballot_sync(kFullWarp, contributes);
    if (contributors)
      last_contributor = first + 32 - __clz(contributors);
    T = __shfl_sync(kFullWarp, stops ? front : test_T,
                    stops ? stop : kWarpLanes - 1);
    return stops != 0;
  }

  // The pixel's outputs, as the original writes them.
  __device__ void write(const ForwardArgs &a, uint2 pix) {
    for (int ch = 0; ch < CHANNELS; ch++)
      C[ch] = warpSum(C[ch]);
    expected_invdepth = warpSum(expected_invdepth);
    if (laneIndex() != 0)
      return;
    const uint32_t pix_id = a.W * pix.y + pix.x;
    a.final_T[pix_id] = T;
    a.n_contrib[pix_id] = last_contributor;
    for (int ch = 0; ch < CHANNELS; ch++)
      a.out_color[ch * a.H * a.W + pix_id] = C[ch] + T * a.bg_color[ch];
    if (a.invdepth)
      a.invdepth[pix_id] = expected_invdepth;
  }
};

// One pixel by the warp alone, its Gaussians read from global memory, the
// next step's loads issued before this step's arithmetic.
template <uint32_t CHANNELS>
__device__ void renderPixelByWarp(const ForwardArgs &a, uint2 range,
                                  uint2 pix) {
  const unsigned lane = laneIndex();
  WarpPixel<CHANNELS> p(pix);
  Splat next = loadSplat(a, range.x + lane, range.y);
  for (uint32_t base = range.x; base < range.y; base += kWarpLanes) {
    const Splat s = next;
    next = loadSplat(a, base + kWarpLanes + lane, range.y);
    if (p.step(a, s, base - range.x))
      break;
  }
  p.write(a, pix);
}

// A block per 16x16 tile as the original; warp w renders rows 2w and 2w + 1,
// one pixel after the other.
template <uint32_t CHANNELS>
__global__ void __launch_bounds__(BLOCK_SIZE)
    renderGaussianWise(ForwardArgs a) {
  const uint32_t horizontal_blocks = (a.W + BLOCK_X - 1) / BLOCK_X;
  const uint2 range = a.ranges[blockIdx.y * horizontal_blocks + blockIdx.x];
  const unsigned warp = threadIdx.x / kWarpLanes;
  for (int k = 0; k < kWarpLanes; ++k) {
    const uint2 pix = {blockIdx.x * BLOCK_X + k % BLOCK_X,
                       blockIdx.y * BLOCK_Y + 2 * warp + k / BLOCK_X};
    if (pix.x < a.W && pix.y < a.H)
      renderPixelByWarp<CHANNELS>(a, range, pix);
  }
}

// --- 4.3: a warp per pixel, blocks drawing a few pixels ----------------------

// 48 warps per SM: the registers of a warp per pixel (40) allow no more.
constexpr int kFineThreadsPerSM = 1536;

// Piece `piece` of 16x16 tile `tile`: TW x TH pixels, one per warp of the
// block. The block's pixels share their tile's list: it goes through shared
// memory in batches of one Gaussian per thread, so that each Gaussian is
// read from global memory once per piece rather than once per pixel (per
// pixel, the lists of heavy tiles make the kernel bound by L2 bandwidth). A
// warp whose pixel is done keeps loading batches for the others; the block
// leaves the list when all are done.
template <uint32_t CHANNELS, int TW, int TH>
__device__ void renderPiece(const ForwardArgs &a, uint32_t tile,
                            uint32_t piece) {
  static_assert(BLOCK_X % TW == 0 && BLOCK_Y % TH == 0,
                "pieces must tile a 16x16 tile");
  constexpr uint32_t kAcross = BLOCK_X / TW;
  constexpr int kBatch = TW * TH * kWarpLanes;
  // Arrays, not an array of Splat: lanes reading consecutive 32-byte
  // structs would conflict on the shared-memory banks.
  __shared__ int batch_id[kBatch];
  __shared__ float2 batch_xy[kBatch];
  __shared__ float4 batch_con_o[kBatch];
  assert(blockDim.x == kBatch && "a warp per pixel of the piece");
  const uint32_t horizontal_blocks = (a.W + BLOCK_X - 1) / BLOCK_X;
  const unsigned warp = threadIdx.x / kWarpLanes, lane = laneIndex();
  const uint2 pix = {
      (tile % horizontal_blocks) * BLOCK_X + (piece % kAcross) * TW + warp % TW,
      (tile / horizontal_blocks) * BLOCK_Y + (piece / kAcross) * TH +
          warp / TW};
  const bool inside = pix.x < a.W && pix.y < a.H;
  const uint2 range = a.ranges[tile];
  WarpPixel<CHANNELS> p(pix);
  bool done = !inside;
  for (uint32_t start = range.x; start < range.y; start += kBatch) {
    // Also keeps the batch until every warp has finished reading it.
    if (__syncthreads_and(done))
      break;
    const Splat mine = loadSplat(a, start + threadIdx.x, range.y);
    batch_id[threadIdx.x] = mine.id;
    batch_xy[threadIdx.x] = mine.xy;
    batch_con_o[threadIdx.x] = mine.con_o;
    __syncthreads();
    const uint32_t count = min(uint32_t(kBatch), range.y - start);
    for (uint32_t k = 0; !done && k < count; k += kWarpLanes) {
      const Splat s{batch_id[k + lane], batch_xy[k + lane],
                    batch_con_o[k + lane]};
      done = p.step(a, s, start + k - range.x);
    }
  }
  if (inside)
    p.write(a, pix);
}

template <int TW, int TH>
constexpr uint32_t kPiecesPerTile = (BLOCK_X / TW) * (BLOCK_Y / TH);

// Pool tile t is piece t % pieces of 16x16 tile order[t / pieces].
template <uint32_t CHANNELS, int TW, int TH>
__global__ void __launch_bounds__(TW *TH *kWarpLanes,
                                  kFineThreadsPerSM / (TW * TH * kWarpLanes))
    renderFineGrained(ForwardArgs a, distwar::TileQueue *queue,
                      const uint32_t *order, uint32_t tiles) {
  constexpr uint32_t kPieces = kPiecesPerTile<TW, TH>;
  distwar::forEachTile(queue, tiles * kPieces, [&](uint32_t t) {
    renderPiece<CHANNELS, TW, TH>(a, order[t / kPieces], t % kPieces);
  });
}

// Only the heavy tiles (the first `*heavy_tiles` of the order) in 4x2
// pieces, the others whole as the original renders them: a warp per pixel
// costs 2 to 3 times the original's work per Gaussian and pixel, which pays
// only where one tile would otherwise hold up the grid. The pool holds the
// heavy tiles' pieces, then the light tiles.
template <uint32_t CHANNELS>
__global__ void __launch_bounds__(BLOCK_SIZE, kFineThreadsPerSM / BLOCK_SIZE)
    renderSplitHeavy(ForwardArgs a, distwar::TileQueue *queue,
                     const uint32_t *order, const uint32_t *heavy_tiles,
                     uint32_t tiles) {
  constexpr uint32_t kPieces = kPiecesPerTile<4, 2>;
  const uint32_t heavy = *heavy_tiles, pieces = heavy * kPieces;
  distwar::forEachTile(queue, pieces + tiles - heavy, [&](uint32_t t) {
    if (t < pieces)
      renderPiece<CHANNELS, 4, 2>(a, order[t / kPieces], t % kPieces);
    else
      renderOriginalTile<CHANNELS>(a, order[heavy + t - pieces]);
  });
}

template <int TW, int TH>
void launchFineGrained(const ForwardArgs &a, TilePool &pool,
                       cudaStream_t stream) {
  balance_detail::launchOnPool(renderFineGrained<NUM_CHANNELS, TW, TH>,
                               TW * TH * kWarpLanes, kPiecesPerTile<TW, TH>, a,
                               pool, stream);
}

constexpr balance_detail::NamedKernel<ForwardKernel> kForwardKernels[] = {
    {ForwardKernel::kOriginal, "original"},
    {ForwardKernel::kDynamicTiles, "dynamic-tiles"},
    {ForwardKernel::kGaussianWise, "gaussian-wise"},
    {ForwardKernel::kFineGrained2x2, "fine-2x2"},
    {ForwardKernel::kFineGrained4x2, "fine-4x2"},
    {ForwardKernel::kFineGrained4x4, "fine-4x4"},
    {ForwardKernel::kSplitHeavy, "split-heavy"},
    {ForwardKernel::kCulled, "culled"},
    {ForwardKernel::kCulledDynamic, "culled-dynamic"},
    {ForwardKernel::kCulledBox, "culled-box"},
    {ForwardKernel::kCulledBoxDynamic, "culled-box-dynamic"},
};

} // namespace

const std::vector<ForwardKernel> &allForwardKernels() {
  static const std::vector<ForwardKernel> all =
      balance_detail::kernelsOf(kForwardKernels);
  return all;
}

const char *name(ForwardKernel k) {
  return balance_detail::nameIn(kForwardKernels, k);
}

void renderForward(GaussianDeviceScene &d, ForwardKernel k, TilePool &pool,
                   cudaStream_t stream) {
  const ForwardArgs a = forwardArgs(d);
  const dim3 grid = tileGrid(d.W, d.H);
  const bool dynamic = k != ForwardKernel::kOriginal &&
                       k != ForwardKernel::kGaussianWise &&
                       k != ForwardKernel::kCulled &&
                       k != ForwardKernel::kCulledBox;
  assert((!dynamic || pool.tiles() == size_t(grid.x) * grid.y) &&
         "orderHeavyFirst() after binning, before a dynamic kernel");
  switch (k) {
  case ForwardKernel::kOriginal:
    d.forward(stream);
    return;
  case ForwardKernel::kDynamicTiles:
    balance_detail::launchOnPool(renderDynamicTiles<NUM_CHANNELS>,
                                 dim3(BLOCK_X, BLOCK_Y, 1), 1, a, pool, stream);
    break;
  case ForwardKernel::kGaussianWise:
    renderGaussianWise<NUM_CHANNELS><<<grid, BLOCK_SIZE, 0, stream>>>(a);
    break;
  case ForwardKernel::kFineGrained2x2:
    launchFineGrained<2, 2>(a, pool, stream);
    break;
  case ForwardKernel::kFineGrained4x2:
    launchFineGrained<4, 2>(a, pool, stream);
    break;
  case ForwardKernel::kFineGrained4x4:
    launchFineGrained<4, 4>(a, pool, stream);
    break;
  case ForwardKernel::kSplitHeavy:
    // The pool's size is known on the device only: as many blocks as fit.
    balance_detail::launchOnPool(renderSplitHeavy<NUM_CHANNELS>, BLOCK_SIZE,
                                 kPiecesPerTile<4, 2>, a, pool, stream,
                                 pool.heavyTiles());
    break;
  case ForwardKernel::kCulled:
  case ForwardKernel::kCulledDynamic:
    launchCulledForward(a, CullTest::kEllipse, dynamic, pool, stream);
    break;
  case ForwardKernel::kCulledBox:
  case ForwardKernel::kCulledBoxDynamic:
    launchCulledForward(a, CullTest::kBox, dynamic, pool, stream);
    break;
  }
  DWK_CHECK(cudaGetLastError());
}

} // namespace dwk
