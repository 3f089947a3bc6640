// The 3DGS forward render with each warp walking only the Gaussians its
// pixels can see (splat_cull.h; docs/BALANCING.md, "Culled lists"). The block
// fetches its tile's list in batches as the original does; each warp then
// tests the batch against its 8x4 patch of pixels, a Gaussian per lane, and
// its pixels blend the Gaussians that pass, in list order, with the
// original's arithmetic. A dropped Gaussian is one every pixel of the patch
// skips, so every output is the original's, bit for bit, n_contrib included
// (a Gaussian's place in the list is its batch's start plus its bit).
#include "gaussians_balance_host.cuh"
#include "gaussians_culled.h"
#include "patch_cull.cuh"

#include <cassert>

namespace dwk {
namespace {

// One batch of a tile's list in shared memory: what the original fetches,
// and each Gaussian's colour, inverse depth and cull key, computed once per
// block instead of once per pixel (the same values: the same loads, the
// same division).
template <uint32_t CHANNELS, typename Cull> struct Batch {
  float2 xy[BLOCK_SIZE];
  float4 conic_opacity[BLOCK_SIZE];
  float features[CHANNELS][BLOCK_SIZE];
  float invdepth[BLOCK_SIZE];
  typename Cull::Key key[BLOCK_SIZE];

  __device__ void fetch(const ForwardArgs &a, int rank, uint32_t entry) {
    const int id = a.point_list[entry];
    xy[rank] = a.means2D[id];
    conic_opacity[rank] = a.conic_opacity[id];
    for (int ch = 0; ch < CHANNELS; ch++)
      features[ch][rank] = a.features[id * CHANNELS + ch];
    if (a.invdepth)
      invdepth[rank] = 1 / a.depths[id];
    key[rank] = Cull::key(xy[rank], conic_opacity[rank]);
  }
};

// What a pixel has blended so far, and the original's blend of one more
// Gaussian, entry j of the batch, in its arithmetic.
template <uint32_t CHANNELS> struct PixelBlend {
  float2 pixf;
  float T = 1.0f;
  uint32_t last_contributor = 0;
  float C[CHANNELS] = {0};
  float expected_invdepth = 0.0f;
  bool done;

  // `contributor`: the original's count after its increment for entry j.
  template <typename Batch>
  __device__ void blend(const ForwardArgs &a, const Batch &b, int j,
                        uint32_t contributor) {
    float2 xy = b.xy[j];
    float2 d = {xy.x - pixf.x, xy.y - pixf.y};
    float4 con_o = b.conic_opacity[j];
    float power = -0.5f * (con_o.x * d.x * d.x + con_o.z * d.y * d.y) -
                  con_o.y * d.x * d.y;
    if (power > 0.0f)
      return;
    float alpha = min(0.99f, con_o.w * exp(power));
    if (alpha < 1.0f / 255.0f)
      return;
    float test_T = T * (1 - alpha);
    if (test_T < 0.0001f) {
      done = true;
      return;
    }
    for (int ch = 0; ch < CHANNELS; ch++)
      C[ch] += b.features[ch][j] * alpha * T;
    if (a.invdepth)
      expected_invdepth += b.invdepth[j] * alpha * T;
    T = test_T;
    last_contributor = contributor;
  }

  __device__ void write(const ForwardArgs &a, uint2 pix) const {
    const uint32_t pix_id = a.W * pix.y + pix.x;
    a.final_T[pix_id] = T;
    a.n_contrib[pix_id] = last_contributor;
    for (int ch = 0; ch < CHANNELS; ch++)
      a.out_color[ch * a.H * a.W + pix_id] = C[ch] + T * a.bg_color[ch];
    if (a.invdepth)
      a.invdepth[pix_id] = expected_invdepth;
  }
};

// FORWARD::renderCUDA for 16x16 tile `tile` (a block of 256 threads): its
// rounds and its vote to stop, each warp's pixels an 8x4 patch, their inner
// loop over the batch's entries the warp's test passes.
template <uint32_t CHANNELS, typename Cull>
__device__ void renderCulledTile(const ForwardArgs &a, uint32_t tile) {
  const int rank = threadIdx.y * blockDim.x + threadIdx.x;
  const PatchPlace at(tile, a.W, rank);
  const bool inside = at.pix.x < a.W && at.pix.y < a.H;
  PixelBlend<CHANNELS> p;
  p.pixf = {(float)at.pix.x, (float)at.pix.y};
  p.done = !inside;

  const uint2 range = a.ranges[tile];
  const int rounds = ((range.y - range.x + BLOCK_SIZE - 1) / BLOCK_SIZE);
  int toDo = range.y - range.x;
  __shared__ Batch<CHANNELS, Cull> batch;

  for (int i = 0; i < rounds; i++, toDo -= BLOCK_SIZE) {
    if (__syncthreads_count(p.done) == BLOCK_SIZE)
      break;
    const uint32_t entry = range.x + i * BLOCK_SIZE + rank;
    if (entry < range.y)
      batch.fetch(a, rank, entry);
    __syncthreads();
    const int count = min(BLOCK_SIZE, toDo);
    for (int k = 0; k * kWarpLanes < count; ++k) {
      if (__all_sync(kFullWarp, p.done))
        break;
      const uint32_t seen = cullWord<Cull>(
          batch.key, batch.xy, batch.conic_opacity, k, 0, count, at);
      for (uint32_t bits = seen; !p.done && bits; bits &= bits - 1) {
        const int j = k * kWarpLanes + __ffs(bits) - 1;
        p.blend(a, batch, j, i * BLOCK_SIZE + j + 1);
      }
    }
  }
  if (inside)
    p.write(a, at.pix);
}

// Six blocks per SM, 40 registers: the box test's double arithmetic would
// take 47 and leave room for five (1-3% slower on the bench's presets). The
// persistent kernel keeps its 46-48: held to 40 it spills in its tile loop
// and loses more than the sixth block gains.
constexpr int kCulledBlocksPerSM = 6;

template <uint32_t CHANNELS, typename Cull>
__global__ void __launch_bounds__(BLOCK_SIZE, kCulledBlocksPerSM)
    renderCulled(ForwardArgs a) {
  const uint32_t horizontal_blocks = (a.W + BLOCK_X - 1) / BLOCK_X;
  renderCulledTile<CHANNELS, Cull>(a,
                                   blockIdx.y * horizontal_blocks + blockIdx.x);
}

template <uint32_t CHANNELS, typename Cull>
__global__ void __launch_bounds__(BLOCK_SIZE)
    renderCulledDynamic(ForwardArgs a, distwar::TileQueue *queue,
                        const uint32_t *order, uint32_t tiles) {
  distwar::forEachTile(queue, tiles, [&](uint32_t t) {
    renderCulledTile<CHANNELS, Cull>(a, order[t]);
  });
}

template <typename Cull>
void launchCulled(const ForwardArgs &a, bool dynamic, const TilePool &pool,
                  cudaStream_t stream) {
  if (dynamic)
    balance_detail::launchOnPool(renderCulledDynamic<NUM_CHANNELS, Cull>,
                                 dim3(BLOCK_X, BLOCK_Y, 1), 1, a, pool, stream);
  else
    renderCulled<NUM_CHANNELS, Cull>
        <<<tileGrid(a.W, a.H), dim3(BLOCK_X, BLOCK_Y, 1), 0, stream>>>(a);
}

} // namespace

void launchCulledForward(const ForwardArgs &a, CullTest test, bool dynamic,
                         const TilePool &pool, cudaStream_t stream) {
  if (test == CullTest::kEllipse)
    launchCulled<EllipseCull>(a, dynamic, pool, stream);
  else
    launchCulled<BoxCull>(a, dynamic, pool, stream);
}

} // namespace dwk
