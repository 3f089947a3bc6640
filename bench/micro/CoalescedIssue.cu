//===- CoalescedIssue.cu - Who issues a warp's per-lane atomics ----------===//
//
// The bilinear texture backward (kernels/cubemap_backward.cu) at exactly
// three channels, with its four corners' atomics issued four ways:
//
//   plain       as written: per channel and corner, every lane adds its own
//               value (one instruction hits 32 texels 24 bytes apart)
//   floor       no gradient atomics (the benchmark floor)
//   transposed  per corner, the warp's 32 x 3 (address, value) pairs are
//               handed round by shuffles so that instruction j issues pairs
//               32j..32j+31 in lane-major order: each instruction hits 32
//               consecutive fields (three texels' channels side by side)
//   vector      per corner, one float2 and one float atomic (the float2 on
//               the 8-byte aligned pair; sm_90's vector atomics, scalar
//               adds when built for older GPUs)
//
// The question it answers: when no two lanes share a key (a minified
// texture), does the order in which a warp issues the same atomics change
// what the L2 takes per second? Every mode adds exactly the same values to
// the same addresses; each is checked against plain.
//
// Usage: distwar_coalesced_issue [--reps N]. Prints a table; "SKIPPED: no
// CUDA device" and exit 0 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "../common/CudaCheck.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int kChannels = 3;

enum Mode { Plain, Floor, Transposed, Vector, NumModes };
const char *const ModeNames[NumModes] = {"plain", "floor", "transposed",
                                         "vector"};

struct Params {
  int texW, texH, imgW, imgH;
  const float *uv, *dy, *tex;
  float *gradTex, *gradUV;
};

/// Issues each lane's C consecutive fields at \p base (nullptr: none) so
/// that instruction j of the warp adds pairs 32j..32j+31 of the issuing
/// lanes' fields in lane-major order. All 32 lanes call it.
template <int C>
__device__ __forceinline__ void issueTransposed(float *base,
                                                const float (&v)[C]) {
  const unsigned issuers = __ballot_sync(~0u, base != nullptr);
  const int lane = (threadIdx.x + blockDim.x * threadIdx.y) % 32;
  const int pairs = __popc(issuers) * C;
#pragma unroll
  for (int j = 0; j < C; ++j) {
    if (32 * j >= pairs)
      break;
    const int q = 32 * j + lane;
    const int idx = min(q, pairs - 1) / C, slot = min(q, pairs - 1) % C;
    const int src = issuers == ~0u ? idx : (int)__fns(issuers, 0, idx + 1);
    const auto b = reinterpret_cast<float *>(__shfl_sync(
        ~0u, reinterpret_cast<unsigned long long>(base), src));
    float val = 0.f;
#pragma unroll
    for (int s = 0; s < C; ++s) {
      const float t = __shfl_sync(~0u, v[s], src);
      val = slot == s ? t : val;
    }
    if (q < pairs)
      atomicAdd(b + slot, val);
  }
}

template <Mode M> __global__ void textureGrad(const Params p) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  // Lanes outside the image stay for the shuffles, adding nothing.
  const bool inside = px < p.imgW && py < p.imgH;
  const int pidx = inside ? px + p.imgW * py : 0;
  const float u = p.uv[2 * pidx] * p.texW - 0.5f;
  const float v = p.uv[2 * pidx + 1] * p.texH - 0.5f;
  const float x0f = floorf(u), y0f = floorf(v);
  const float fu = u - x0f, fv = v - y0f;
  const int x0 = (int)x0f, y0 = (int)y0f;
  int tc[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int x = x0 + (k & 1), y = y0 + (k >> 1);
    const bool in = inside && x >= 0 && y >= 0 && x < p.texW && y < p.texH;
    tc[k] = in ? (y * p.texW + x) * kChannels : -1;
  }
  const float uv011 = fu * fv, uv010 = fu - uv011, uv001 = fv - uv011;
  const float w[4] = {1.f - fu - uv001, uv010, uv001, uv011};

  float g[4][kChannels];
  float gu = 0.f, gv = 0.f;
#pragma unroll
  for (int c = 0; c < kChannels; ++c) {
    const float dy = p.dy[pidx * kChannels + c];
    float a[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      a[k] = tc[k] >= 0 ? p.tex[tc[k] + c] : 0.f;
      g[k][c] = dy * w[k];
      if (M == Plain && tc[k] >= 0)
        atomicAdd(p.gradTex + tc[k] + c, g[k][c]);
    }
    const float ad = a[3] + a[0] - a[1] - a[2];
    gu += dy * ((a[1] - a[0]) + fv * ad);
    gv += dy * ((a[2] - a[0]) + fu * ad);
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    float *const base = tc[k] >= 0 ? p.gradTex + tc[k] : nullptr;
    if constexpr (M == Transposed) {
      issueTransposed(base, g[k]);
    } else if constexpr (M == Vector) {
      if (base == nullptr)
        continue;
#if __CUDA_ARCH__ < 900
      // No vector atomics before sm_90: the scalar adds, for the check.
#pragma unroll
      for (int c = 0; c < kChannels; ++c)
        atomicAdd(base + c, g[k][c]);
#else
      if ((reinterpret_cast<uintptr_t>(base) & 7) == 0) {
        atomicAdd(reinterpret_cast<float2 *>(base),
                  make_float2(g[k][0], g[k][1]));
        atomicAdd(base + 2, g[k][2]);
      } else {
        atomicAdd(base, g[k][0]);
        atomicAdd(reinterpret_cast<float2 *>(base + 1),
                  make_float2(g[k][1], g[k][2]));
      }
#endif
    }
  }
  if (inside) {
    p.gradUV[2 * pidx] = gu * p.texW;
    p.gradUV[2 * pidx + 1] = gv * p.texH;
  }
}

using Kernel = void (*)(Params);
const Kernel Kernels[NumModes] = {textureGrad<Plain>, textureGrad<Floor>,
                                  textureGrad<Transposed>,
                                  textureGrad<Vector>};

struct Scene {
  const char *name;
  int texW, texH, imgW, imgH;
};

/// The uv map of kernels/cubemap_scene.cpp's texture presets: a smooth,
/// slightly warped mapping of the image over the whole texture.
std::vector<float> makeUv(const Scene &s) {
  std::vector<float> uv(size_t(s.imgW) * s.imgH * 2);
  for (int y = 0; y < s.imgH; ++y)
    for (int x = 0; x < s.imgW; ++x) {
      const double fx = (x + 0.5) / s.imgW, fy = (y + 0.5) / s.imgH;
      uv[(size_t(y) * s.imgW + x) * 2] = float(fx + 0.01 * std::sin(6.28 * fy));
      uv[(size_t(y) * s.imgW + x) * 2 + 1] =
          float(fy + 0.01 * std::sin(6.28 * fx + 1.0));
    }
  return uv;
}

std::vector<float> randoms(size_t n, unsigned seed, float lo, float hi) {
  std::vector<float> v(n);
  for (float &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = lo + (hi - lo) * float(seed >> 8) / float(1u << 24);
  }
  return v;
}

int runScene(const Scene &s, int reps) {
  const size_t texN = size_t(s.texW) * s.texH * kChannels;
  const size_t imgN = size_t(s.imgW) * s.imgH;
  Params p{s.texW, s.texH, s.imgW, s.imgH};
  p.uv = upload(makeUv(s));
  p.dy = upload(randoms(imgN * kChannels, 7, -1.f, 1.f));
  p.tex = upload(randoms(texN, 11, 0.f, 1.f));
  CHECK(cudaMalloc(&p.gradTex, texN * sizeof(float)));
  CHECK(cudaMalloc(&p.gradUV, imgN * 2 * sizeof(float)));
  const dim3 block(8, 8), grid((s.imgW + 7) / 8, (s.imgH + 7) / 8);

  auto launch = [&](int m) {
    CHECK(cudaMemsetAsync(p.gradTex, 0, texN * sizeof(float)));
    Kernels[m]<<<grid, block>>>(p);
  };
  // Correctness: every mode but the floor against plain (twice, for the
  // spread of float sums in another order).
  std::vector<std::vector<float>> out(NumModes);
  std::vector<float> again;
  for (int m = 0; m < NumModes; ++m) {
    launch(m);
    CHECK(cudaDeviceSynchronize());
    out[m] = download(p.gradTex, texN);
  }
  launch(Plain);
  CHECK(cudaDeviceSynchronize());
  again = download(p.gradTex, texN);
  size_t bad = 0;
  for (int m = 0; m < NumModes; ++m)
    if (m != Floor && m != Plain)
      bad += countMismatches(out[Plain], again, out[m], ModeNames[m]);

  // Timing: modes interleaved, each launch timed alone by events (the
  // memset outside), median of reps.
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<std::vector<float>> ms(NumModes);
  for (int r = 0; r < reps + 2; ++r)
    for (int m = 0; m < NumModes; ++m) {
      CHECK(cudaMemset(p.gradTex, 0, texN * sizeof(float)));
      CHECK(cudaEventRecord(a));
      Kernels[m]<<<grid, block>>>(p);
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      float t;
      CHECK(cudaEventElapsedTime(&t, a, b));
      if (r >= 2)
        ms[m].push_back(t);
    }
  std::vector<double> med(NumModes);
  for (int m = 0; m < NumModes; ++m) {
    std::sort(ms[m].begin(), ms[m].end());
    med[m] = ms[m][ms[m].size() / 2];
  }
  std::printf("\n%s (%dx%d texture, %dx%d image, %d channels), median of %d\n",
              s.name, s.texW, s.texH, s.imgW, s.imgH, kChannels, reps);
  std::printf("| mode | ms | x plain | gap closed |\n|---|---|---|---|\n");
  for (int m = 0; m < NumModes; ++m)
    std::printf("| %s | %.4f | %.2fx | %.1f%% |\n", ModeNames[m], med[m],
                med[Plain] / med[m],
                100.0 * (med[Plain] - med[m]) / (med[Plain] - med[Floor]));
  cudaFree((void *)p.uv);
  cudaFree((void *)p.dy);
  cudaFree((void *)p.tex);
  cudaFree(p.gradTex);
  cudaFree(p.gradUV);
  return bad == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  int reps = 21;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--reps"))
      reps = std::atoi(argv[++i]);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);
  const Scene scenes[] = {{"minify", 2048, 2048, 1024, 1024},
                          {"magnify", 256, 256, 1024, 1024}};
  int rc = 0;
  for (const Scene &s : scenes)
    rc |= runScene(s, reps);
  return rc;
}
