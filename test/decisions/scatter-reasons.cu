// Scatters left alone with the reason a person would give: one element per
// lane whatever way its address is written (a pointer computed into a
// local, a pointer sum over a template's element type, an accessor reached
// inside a lambda), and per-lane pointers in a kernel that reduces other
// values by hand further down.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: diff %s %t.cu

// CHECK: scatter-reasons.cu: 5 atomic site(s), 2 group(s), unchanged

// CHECK-DAG: scatter-reasons.cu:[[@LINE+7]]:7: unchanged atomicAdd in localPointer buffer=address key=address {{.*}}[DW0051 element-key-varies
__global__ void localPointer(float *output, const float *input,
                             const long *edges, unsigned D, unsigned E) {
  for (auto e = blockIdx.x; e < E; e += gridDim.x) {
    const long v0 = edges[2 * e];
    for (auto d = threadIdx.x; d < D; d += blockDim.x) {
      float *address = output + v0 * D + d;
      atomicAdd(address, input[d]);
    }
  }
}

// An operator+ declared anywhere leaves `grad + ...` unresolved in the
// template; with pointer and integer operands only the built-in one applies.
struct Half {
  unsigned short bits;
};
__device__ Half operator+(Half, int);

// CHECK-DAG: scatter-reasons.cu:[[@LINE+12]]:7: unchanged atomicAdd in interpolate {{.*}}[DW0051 element-key-varies
template <typename scalar_t>
__global__ void interpolate(scalar_t *grad, const long *faces,
                            const scalar_t *g, int P, int D) {
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int pd = tid; pd < P * D; pd += blockDim.x * gridDim.x) {
    const int p = pd / D;
    const int d = pd % D;
    const long f = faces[p];
    if (f < 0)
      continue;
    for (int i = 0; i < 3; ++i) {
      atomicAdd(grad + f * 3 * D + i * D + d, g[p]);
    }
  }
}
template __global__ void interpolate<float>(float *, const long *,
                                            const float *, int, int);

struct Volume {
  float *data;
  __device__ float &operator()(int x, int y) const { return data[y * 64 + x]; }
};

// CHECK-DAG: scatter-reasons.cu:[[@LINE+6]]:5: unchanged atomicAdd in corners {{.*}}[DW0050 in-lambda
__global__ void corners(Volume v, const float2 *points, const float *w) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  auto splat = [&](int dx, int dy) {
    const int x = int(points[t].x) + dx, y = int(points[t].y) + dy;
    float *cell = &v(x, y);
    atomicAdd(cell + 0, w[t]);
  };
  splat(0, 0);
  splat(1, 1);
}

// CHECK-DAG: scatter-reasons.cu:[[@LINE+6]]:3: unchanged atomicAdd in perLaneThenReduced {{.*}}[DW0006 buffer-not-uniform
// CHECK-DAG: scatter-reasons.cu:[[@LINE+10]]:5: unchanged atomicAdd in perLaneThenReduced {{.*}}[DW0035 already-reduced
__global__ void perLaneThenReduced(float *a, float *b, const int *idx,
                                   const float *g) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  float *p = (idx[t] & 1) ? a : b;
  atomicAdd(p + idx[t], g[t]);
  float s = g[t];
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(&a[idx[t]], s);
}
