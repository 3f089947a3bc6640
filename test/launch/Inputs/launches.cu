// Launches of kernels that reach batched sites, in host code: each becomes a
// block that tunes the sites' thresholds on the program's own launches
// (docs/GENERATED_CODE.md, section 9). Checked by ../launches.test.
#include <cuda_runtime.h>

__global__ void plain(float *g, const int *ids, const float *v) {
  const int id = ids[blockIdx.x];
  const float x = v[threadIdx.x];
  atomicAdd(&g[2 * id], x);
  atomicAdd(&g[2 * id + 1], 2.f * x);
}

// The sites are in a device function the kernel calls (keyed by g).
__device__ void addBoth(float *g, float x) {
  atomicAdd(&g[0], x);
  atomicAdd(&g[1], x * x);
}
__global__ void viaHelper(float *g, const int *ids, const float *v) {
  addBoth(g + 2 * ids[blockIdx.x], v[threadIdx.x]);
}

template <int C>
__global__ void channels(float *g, const int *ids, const float *__restrict__ v) {
  const int id = ids[blockIdx.x];
  const float *mine = v + threadIdx.x * C;
  for (int ch = 0; ch < C; ++ch)
    atomicAdd(&g[id * C + ch], mine[ch]);
}

// No batched site: launches stay as they are.
__global__ void noSites(float *out) { out[threadIdx.x] = 1.f; }

cudaStream_t currentStream();
#define LAUNCH_PLAIN(args) plain<<<1, 32>>> args

void launchAll(float *g, const int *ids, const float *v, cudaStream_t stream,
               cudaStream_t *streams, int n) {
  plain<<<1, 32>>>(g, ids, v);
  plain<<<dim3(4), dim3(32), 0, stream>>>(
      g, ids,
      v);
  viaHelper<<<1, 32, 0, currentStream()>>>(g, ids, v);
  if (n > 2)
    plain<<<1, 32, 0, stream>>>(g, ids, v);
  else
    viaHelper<<<1, 32>>>(g, ids, v);
  for (int i = 0; i < n; ++i)
    plain<<<1, 32, 0, streams[i]>>>(g, ids, v);
  auto later = [&] { viaHelper<<<1, 32, 0, stream>>>(g, ids, v); };
  later();
  // Left alone: the stream expression has side effects (it would run
  // twice), the launch is part of an expression, or comes from a macro.
  plain<<<1, 32, 0, streams[n++]>>>(g, ids, v);
  (void)(plain<<<1, 32>>>(g, ids, v), 0);
  LAUNCH_PLAIN((g, ids, v));
  noSites<<<1, 32>>>(g);
}

// A launch in a template: one wrapper for every instantiation.
template <int C> void launchChannels(float *g, const int *ids, const float *v) {
  channels<C><<<1, 32>>>(g, ids, v);
}
template void launchChannels<1>(float *, const int *, const float *);
template void launchChannels<3>(float *, const int *, const float *);
