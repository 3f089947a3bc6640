// HAND-WRITTEN, FOR COMPARISON ONLY: NOT distwar-rewrite OUTPUT.
//
// The sphere backward of spheres_backward.cu with its gradients accumulated
// per block in shared memory (distwar/block_accumulate.cuh): every pixel of
// a 16x16 tile adds the gradients of its K closest spheres to a table keyed
// by sphere, and the tile issues one global atomic per (sphere, field) at
// its end. Two variants:
//   hand-block       each lane adds to the table itself;
//   hand-block-warp  the lanes of a warp that share a sphere first sum in
//                    registers (match-any, shuffle tree), one lane adds;
//   hand-block-warp4 the same at four blocks per SM (64 registers, spills)
//                    instead of three (80 registers);
//   hand-block-warp4-vec  hand-block-warp4 whose flush adds each sphere's
//                    twelve camera gradients (48 bytes) as three float4
//                    atomics (sm_90), as the tool's output adds them.
// The gradient arithmetic is the source's, statement for statement; what
// changes is where the sums go and that pixels outside the image stay in
// the kernel (an `inside` flag instead of the early return), because the
// table's init and flush are block barriers that every thread must reach.
#include "spheres.h"

#include <distwar/block_accumulate.cuh>

namespace dwk_hand_spheres {

// Entries per tile. A tile's pixels keep at most 5 spheres each, and far
// fewer distinct ones (tens on the presets); 256 keeps linear probing short.
// More would only cost shared memory: a full table overflows to plain
// atomics, it does not lose gradients.
constexpr int kCapacity = 256;
// Float fields: MaxC colours, position 3, radius, opacity, camera 12.
constexpr int kGeometryFields = 17;

template <int MaxC>
using SphereTable = distwar::BlockTable<kCapacity, MaxC + kGeometryFields, 1>;

// Global address of float field f of sphere `key` (table layout above).
template <int MaxC>
__device__ __forceinline__ float *sphereField(const ::dwk::SphereBackwardArgs &p,
                                              int key, int f) {
  if (f < MaxC)
    return &p.grad_col[key * p.n_channels + f];
  f -= MaxC;
  if (f < 3)
    return &p.grad_pos[key].x + f;
  if (f == 3)
    return &p.grad_rad[key];
  if (f == 4)
    return &p.grad_opy[key];
  return &p.grad_cam_buf[key].cam_pos.x + (f - 5);
}

/// The table's flush as blockTableFlush, but each entry's camera fields are
/// three items of four floats, added as one float4 atomic each where the
/// sphere's CamGradInfo is 16-byte aligned (its 48 bytes keep a 16-byte
/// aligned buffer so). Zero sums are skipped, as blockTableFlush skips them.
template <int MaxC>
__device__ void flushVectors(SphereTable<MaxC> &t,
                             const ::dwk::SphereBackwardArgs &p) {
  __syncthreads();
  constexpr int kCam = MaxC + 5;       // the first camera field
  constexpr int kItems = kCam + 3 + 1; // scalars, three quads, the count
  const int n = distwar::detail::threadsInBlock();
  for (int i = distwar::detail::threadRankInBlock(); i < kCapacity * kItems;
       i += n) {
    const int slot = i / kItems;
    const int item = i - slot * kItems;
    const int key = t.keys[slot];
    if (key == distwar::kEmptyKey)
      continue;
    if (item < kCam) {
      const float v = t.values[item][slot];
      if (v != 0.f)
        atomicAdd(sphereField<MaxC>(p, key, item), v);
    } else if (item < kCam + 3) {
      const int f = kCam + 4 * (item - kCam);
      float *const a = &p.grad_cam_buf[key].cam_pos.x + 4 * (item - kCam);
      const float4 v =
          make_float4(t.values[f][slot], t.values[f + 1][slot],
                      t.values[f + 2][slot], t.values[f + 3][slot]);
      const bool any = v.x != 0.f || v.y != 0.f || v.z != 0.f || v.w != 0.f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      if (any && reinterpret_cast<unsigned long long>(a) % 16 == 0) {
        atomicAdd(reinterpret_cast<float4 *>(a), v);
        continue;
      }
#endif
      const float w[4] = {v.x, v.y, v.z, v.w};
      for (int k = 0; any && k < 4; ++k)
        if (w[k] != 0.f)
          atomicAdd(a + k, w[k]);
    } else {
      const int c = t.counts[0][slot];
      if (c != 0)
        atomicAdd(&p.n_hits[key], c);
    }
  }
}

// MinBlocks 3: 80 registers, no spills (sm_90, CUDA 13.0); without a bound
// the warp-first kernel takes 99 (two blocks per SM); at 4 it spills.
template <int MaxC, bool WarpFirst, int MinBlocks, bool VectorFlush>
__global__ void __launch_bounds__(256, MinBlocks)
    renderBackwardBlock(const ::dwk::SphereBackwardArgs p) {
  constexpr int F = MaxC + kGeometryFields;
  __shared__ SphereTable<MaxC> table;
  distwar::blockTableInit(table);
  const auto addr = [&p](int key, int f) { return sphereField<MaxC>(p, key, f); };
  const auto hits = [&p](int key, int) { return &p.n_hits[key]; };

  const int coord_x = blockIdx.x * blockDim.x + threadIdx.x;
  const int coord_y = blockIdx.y * blockDim.y + threadIdx.y;
  const bool inside = coord_x < p.W && coord_y < p.H;
  const int pix_idx = inside ? coord_y * p.W + coord_x : 0;
  const int *ids = p.ids + pix_idx * PULSAR_K;
  const int n_channels = p.n_channels;
  const float px = (float)coord_x, py = (float)coord_y;

  float grad_im_pix[PULSAR_MAX_CHANNELS];
  float bg_dot_grad = 0.f;
  for (int ch = 0; inside && ch < n_channels; ++ch) {
    grad_im_pix[ch] = p.grad_im[pix_idx * n_channels + ch];
    bg_dot_grad += p.bg[ch] * grad_im_pix[ch];
  }

  float T_final = 1.f;
  for (int k = 0; k < PULSAR_K; ++k) {
    const int sphere_idx = inside ? ids[k] : -1;
    if (sphere_idx >= 0) {
      const ::dwk::SphereProjection<float> proj = ::dwk::projectSphere<float>(
          p.cam, p.pos[sphere_idx], p.rad[sphere_idx]);
      const float dx = proj.u - px, dy = proj.v - py;
      const float coverage = 1.f - (dx * dx + dy * dy) / (proj.R * proj.R);
      T_final *= 1.f - p.opy[sphere_idx] * coverage;
    }
  }

  float T = T_final;
  float last_alpha = 0.f;
  float accum_rec[PULSAR_MAX_CHANNELS];
  float last_color[PULSAR_MAX_CHANNELS];
  for (int ch = 0; ch < n_channels; ++ch)
    accum_rec[ch] = last_color[ch] = 0.f;
  for (int k = PULSAR_K - 1; k >= 0; --k) {
    const int sphere_idx = inside ? ids[k] : -1;
    float g[F];
    int count[1] = {0};
    if (sphere_idx >= 0) {
      const ::dwk::SphereProjection<float> proj = ::dwk::projectSphere<float>(
          p.cam, p.pos[sphere_idx], p.rad[sphere_idx]);
      const float dx = proj.u - px, dy = proj.v - py;
      const float dist2 = dx * dx + dy * dy;
      const float R2 = proj.R * proj.R;
      const float coverage = 1.f - dist2 / R2;
      const float opacity = p.opy[sphere_idx];
      const float alpha = opacity * coverage;

      T = T / (1.f - alpha);
      const float weight = alpha * T;
#pragma unroll
      for (int ch = 0; ch < MaxC; ++ch)
        g[ch] = ch < n_channels ? weight * grad_im_pix[ch] : 0.f;

      float grad_alpha = 0.f;
      for (int ch = 0; ch < n_channels; ++ch) {
        const float c = p.col[sphere_idx * n_channels + ch];
        accum_rec[ch] =
            last_alpha * last_color[ch] + (1.f - last_alpha) * accum_rec[ch];
        last_color[ch] = c;
        grad_alpha += (c - accum_rec[ch]) * grad_im_pix[ch];
      }
      grad_alpha *= T;
      last_alpha = alpha;
      grad_alpha += (-T_final / (1.f - alpha)) * bg_dot_grad;

      const float grad_coverage = grad_alpha * opacity;
      const float grad_u = grad_coverage * (-2.f * dx / R2);
      const float grad_v = grad_coverage * (-2.f * dy / R2);
      const float grad_R = grad_coverage * (2.f * dist2 / (R2 * proj.R));
      const float f = p.cam.focal;
      float grad_qx, grad_qy, grad_qz, grad_rad;
      if (p.cam.orthogonal) {
        grad_qx = grad_u * f;
        grad_qy = grad_v * f;
        grad_qz = 0.f;
        grad_rad = grad_R * f;
      } else {
        const float inv_z = 1.f / proj.qz;
        grad_qx = grad_u * f * inv_z;
        grad_qy = grad_v * f * inv_z;
        grad_qz = -(grad_u * f * proj.qx + grad_v * f * proj.qy +
                    grad_R * f * p.rad[sphere_idx]) *
                  inv_z * inv_z;
        grad_rad = grad_R * f * inv_z;
      }
      float *geo = g + MaxC;
      geo[0] = grad_qx * p.cam.axis_x.x + grad_qy * p.cam.axis_y.x +
               grad_qz * p.cam.axis_z.x;
      geo[1] = grad_qx * p.cam.axis_x.y + grad_qy * p.cam.axis_y.y +
               grad_qz * p.cam.axis_z.y;
      geo[2] = grad_qx * p.cam.axis_x.z + grad_qy * p.cam.axis_y.z +
               grad_qz * p.cam.axis_z.z;
      geo[3] = grad_rad;
      geo[4] = grad_alpha * coverage;
      geo[5] = -geo[0];
      geo[6] = -geo[1];
      geo[7] = -geo[2];
#pragma unroll
      for (int a = 0; a < 3; ++a) {
        geo[8 + a] = grad_qx * proj.q[a];
        geo[11 + a] = grad_qy * proj.q[a];
        // Orthogonal cameras have no axis_z gradient: zeros are not issued.
        geo[14 + a] = p.cam.orthogonal ? 0.f : grad_qz * proj.q[a];
      }
      count[0] = 1;
    }
    if constexpr (WarpFirst)
      distwar::blockAccumulateWarp(table, 0xffffffffu, sphere_idx >= 0,
                                   sphere_idx, g, count, addr, hits);
    else if (sphere_idx >= 0)
      distwar::blockAccumulateLane(table, sphere_idx, g, count, addr, hits);
  }
  if constexpr (VectorFlush)
    flushVectors<MaxC>(table, p);
  else
    distwar::blockTableFlush(table, addr, hits);
}

template <bool WarpFirst, int MinBlocks = 3, bool VectorFlush = false>
void launch(const ::dwk::SphereBackwardArgs &args, cudaStream_t stream) {
  if (args.n_channels <= 4)
    renderBackwardBlock<4, WarpFirst, MinBlocks, VectorFlush>
        <<<args.grid, args.block, 0, stream>>>(args);
  else
    renderBackwardBlock<PULSAR_MAX_CHANNELS, WarpFirst, MinBlocks, VectorFlush>
        <<<args.grid, args.block, 0, stream>>>(args);
}

} // namespace dwk_hand_spheres

namespace dwk_hand_block {
void sphereBackward(const ::dwk::SphereBackwardArgs &args,
                    cudaStream_t stream) {
  dwk_hand_spheres::launch<false>(args, stream);
}
} // namespace dwk_hand_block

namespace dwk_hand_block_warp {
void sphereBackward(const ::dwk::SphereBackwardArgs &args,
                    cudaStream_t stream) {
  dwk_hand_spheres::launch<true>(args, stream);
}
} // namespace dwk_hand_block_warp

namespace dwk_hand_block_warp4 {
void sphereBackward(const ::dwk::SphereBackwardArgs &args,
                    cudaStream_t stream) {
  dwk_hand_spheres::launch<true, 4>(args, stream);
}
} // namespace dwk_hand_block_warp4

namespace dwk_hand_block_warp4_vec {
void sphereBackward(const ::dwk::SphereBackwardArgs &args,
                    cudaStream_t stream) {
  dwk_hand_spheres::launch<true, 4, true>(args, stream);
}
} // namespace dwk_hand_block_warp4_vec
