// HAND-WRITTEN, FOR COMPARISON ONLY: NOT distwar-rewrite OUTPUT.
//
// The bilinear texture gradient of cubemap_backward.cu with its texel
// gradients reduced by hand, three ways:
//   hand-coalesce    nvdiffrast's own coalescing (its CA_SET_GROUP /
//                    caAtomicAdd): per corner, the lanes of a warp with the
//                    same texel match, add into a shared-memory slot of their
//                    leader, and the leader issues one atomic per channel;
//   hand-block       a shared-memory table per block keyed by texel
//                    (distwar/block_accumulate.cuh), every lane adds itself,
//                    one atomic per (texel, channel) at the block's end;
//   hand-block-warp  the same table after a warp-level sum per texel;
//   hand-block-quad  the same table after one warp-level sum per base texel:
//                    lanes with the same (x0, y0) share all four corners, so
//                    one match and one tree serve the four of them.
// Each kernel is compiled for the exact channel count (1 to 4), so that no
// unused channel is summed or stored.
// The uv gradient and every value are computed as in the source; pixels
// outside the image stay in the kernel (an `inside` flag) because the
// match and the table's barriers need every lane.
#include "cubemap.h"

#include <distwar/block_accumulate.cuh>

// The fallback for more channels than the hand-written kernels hold.
DWK_DECLARE_CUBEMAP_BACKWARD(dwk_plain)

namespace dwk_hand_texture {

constexpr int kBlockX = 8, kBlockY = 8; // the source's launch
constexpr int kThreads = kBlockX * kBlockY;
constexpr int kWarps = kThreads / 32;
// Channels the hand-written kernels handle (the presets have 3); more runs
// the plain kernel.
constexpr int kMaxChannels = 4;
// Four corners per pixel: at most 4 * kThreads texels per block, so 512
// entries keep the load factor at or below one half.
constexpr int kCapacity = 4 * kThreads * 2;

template <int C> using TextureTable = distwar::BlockTable<kCapacity, C>;

enum class Mode { kCoalesce, kBlockLane, kBlockWarp, kBlockQuad };

// What every hand-written variant computes per pixel: the corners (-1:
// outside the texture or the pixel outside the image), their weights, and
// the uv gradient, which is written here as in the source.
struct Pixel {
  int tc[4];
  float w[4];
  float dy[kMaxChannels];
  unsigned base; // (x0, y0) packed: equal bases mean equal corners
};

__device__ __forceinline__ Pixel texturePixel(const ::dwk::TextureKernelParams &p,
                                              int px, int py, bool inside) {
  Pixel q;
  if (!inside) {
    for (int k = 0; k < 4; ++k)
      q.tc[k] = -1;
    return q;
  }
  const int pidx = px + p.imgWidth * py;
  // indexTextureLinear, written out so that the corners and the base that
  // groups lanes by them come from the same x0 and y0.
  const float u = p.uv[2 * pidx] * float(p.texWidth) - 0.5f;
  const float v = p.uv[2 * pidx + 1] * float(p.texHeight) - 0.5f;
  const float x0f = floorf(u), y0f = floorf(v);
  const float fu = u - x0f, fv = v - y0f;
  const int x0 = int(x0f), y0 = int(y0f);
  for (int k = 0; k < 4; ++k) {
    const int x = x0 + (k & 1), y = y0 + (k >> 1);
    const bool in = x >= 0 && y >= 0 && x < p.texWidth && y < p.texHeight;
    q.tc[k] = in ? (y * p.texWidth + x) * p.channels : -1;
  }
  q.base = (unsigned(y0) << 16) ^ unsigned(x0 & 0xffff);
  const float uv011 = fu * fv;
  const float uv010 = fu - uv011;
  const float uv001 = fv - uv011;
  const float uv000 = 1.f - fu - uv001;
  q.w[0] = uv000;
  q.w[1] = uv010;
  q.w[2] = uv001;
  q.w[3] = uv011;

  const float *pDy = p.dy + pidx * p.channels;
  float gu = 0.f;
  float gv = 0.f;
#pragma unroll
  for (int i = 0; i < kMaxChannels; ++i) {
    if (i >= p.channels)
      break;
    const float dy = pDy[i];
    q.dy[i] = dy;
    const float a00 = q.tc[0] >= 0 ? p.tex[q.tc[0] + i] : 0.f;
    const float a10 = q.tc[1] >= 0 ? p.tex[q.tc[1] + i] : 0.f;
    const float a01 = q.tc[2] >= 0 ? p.tex[q.tc[2] + i] : 0.f;
    const float a11 = q.tc[3] >= 0 ? p.tex[q.tc[3] + i] : 0.f;
    const float ad = a11 + a00 - a10 - a01;
    gu += dy * ((a10 - a00) + fv * ad);
    gv += dy * ((a01 - a00) + fu * ad);
  }
  p.gradUV[2 * pidx] = gu * p.texWidth;
  p.gradUV[2 * pidx + 1] = gv * p.texHeight;
  return q;
}

// nvdiffrast's coalescing for one corner: lanes of the same texel add into
// their leader's per-warp slot (shared-memory atomics), the leader issues.
template <int C>
__device__ __forceinline__ void
coalescedCorner(const ::dwk::TextureKernelParams &p,
                float (&slots)[kWarps][32][kMaxChannels], int tc,
                const float (&v)[C]) {
  const int lane = threadIdx.x + kBlockX * threadIdx.y;
  const int warp = lane / 32;
  const unsigned peers = __match_any_sync(0xffffffffu, tc);
  const int leader = __ffs(peers) - 1;
  const bool isLeader = leader == (lane & 31);
  float *slot = slots[warp][leader];
  if (isLeader)
    for (int i = 0; i < C; ++i)
      slot[i] = 0.f;
  __syncwarp();
  if (tc >= 0)
    for (int i = 0; i < C; ++i)
      atomicAdd(&slot[i], v[i]);
  __syncwarp();
  if (isLeader && tc >= 0)
    for (int i = 0; i < C; ++i)
      atomicAdd(p.gradTex + tc + i, slot[i]);
  __syncwarp(); // the slots are reused by the next corner
}

// The quad mode: one warp-level sum over the lanes with the same base
// texel, then the leader adds each of its corners to the table.
template <int C>
__device__ __forceinline__ void quadCorners(TextureTable<C> &table,
                                            const Pixel &q, bool inside,
                                            const float *gradTex) {
  float v[4 * C];
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int i = 0; i < C; ++i)
      v[k * C + i] = q.tc[k] >= 0 ? q.dy[i] * q.w[k] : 0.f;
  if (!distwar::warpSumByKey(0xffffffffu, inside, q.base, v))
    return;
  const auto addr = [gradTex](int key, int i) {
    return const_cast<float *>(gradTex) + key + i;
  };
  int none[1] = {0};
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    if (q.tc[k] < 0)
      continue;
    float corner[C];
#pragma unroll
    for (int i = 0; i < C; ++i)
      corner[i] = v[k * C + i];
    distwar::blockAccumulateLane(table, q.tc[k], corner, none, addr,
                                 distwar::NoIntFields());
  }
}

template <Mode M, int C>
__global__ void __launch_bounds__(kThreads)
    textureGradBilinearHand(const ::dwk::TextureKernelParams p) {
  __shared__ TextureTable<C> table;
  __shared__ float slots[kWarps][32][kMaxChannels];
  if constexpr (M != Mode::kCoalesce)
    distwar::blockTableInit(table);
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  const bool inside = px < p.imgWidth && py < p.imgHeight;
  const Pixel q = texturePixel(p, px, py, inside);
  // Key: the corner's element offset (unique per texel, >= 0).
  const auto addr = [&p](int key, int i) { return p.gradTex + key + i; };

  if constexpr (M == Mode::kBlockQuad) {
    quadCorners<C>(table, q, inside, p.gradTex);
  } else {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      float v[C];
      int none[1] = {0};
#pragma unroll
      for (int i = 0; i < C; ++i)
        v[i] = q.tc[k] >= 0 ? q.dy[i] * q.w[k] : 0.f;
      if constexpr (M == Mode::kCoalesce)
        coalescedCorner<C>(p, slots, q.tc[k], v);
      else if constexpr (M == Mode::kBlockWarp)
        distwar::blockAccumulateWarp(table, 0xffffffffu, q.tc[k] >= 0,
                                     q.tc[k], v, none, addr,
                                     distwar::NoIntFields());
      else if (q.tc[k] >= 0)
        distwar::blockAccumulateLane(table, q.tc[k], v, none, addr,
                                     distwar::NoIntFields());
    }
  }
  if constexpr (M != Mode::kCoalesce)
    distwar::blockTableFlush(table, addr, distwar::NoIntFields());
}

template <Mode M, int C>
void launchChannels(const ::dwk::TextureKernelParams &p, cudaStream_t stream) {
  const dim3 block(kBlockX, kBlockY, 1);
  const dim3 grid((p.imgWidth + kBlockX - 1) / kBlockX,
                  (p.imgHeight + kBlockY - 1) / kBlockY, 1);
  textureGradBilinearHand<M, C><<<grid, block, 0, stream>>>(p);
}

template <Mode M>
void launch(const ::dwk::TextureKernelParams &p, cudaStream_t stream) {
  switch (p.channels) {
  case 1:
    return launchChannels<M, 1>(p, stream);
  case 2:
    return launchChannels<M, 2>(p, stream);
  case 3:
    return launchChannels<M, 3>(p, stream);
  case 4:
    return launchChannels<M, 4>(p, stream);
  default:
    return dwk_plain::textureGradBilinear(p, stream);
  }
}

} // namespace dwk_hand_texture

namespace dwk_hand_coalesce {
void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream) {
  dwk_hand_texture::launch<dwk_hand_texture::Mode::kCoalesce>(p, stream);
}
} // namespace dwk_hand_coalesce

namespace dwk_hand_block {
void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream) {
  dwk_hand_texture::launch<dwk_hand_texture::Mode::kBlockLane>(p, stream);
}
} // namespace dwk_hand_block

namespace dwk_hand_block_warp {
void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream) {
  dwk_hand_texture::launch<dwk_hand_texture::Mode::kBlockWarp>(p, stream);
}
} // namespace dwk_hand_block_warp

namespace dwk_hand_block_quad {
void textureGradBilinear(const ::dwk::TextureKernelParams &p,
                         cudaStream_t stream) {
  dwk_hand_texture::launch<dwk_hand_texture::Mode::kBlockQuad>(p, stream);
}
} // namespace dwk_hand_block_quad
