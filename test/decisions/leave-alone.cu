// What a person would leave alone, each with the reason they would give:
// atomics only one lane issues (values combined already), a thread per
// primitive that sums its gradient in a loop, atomics in a lambda, a
// warp-reduced value added through a struct pointer.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: diff %s %t.cu

// CHECK: leave-alone.cu: 9 atomic site(s), 1 group(s), unchanged

// CHECK-DAG: leave-alone.cu:[[@LINE+6]]:7: unchanged atomicAdd in laneZero {{.*}}[DW0035 already-reduced
__global__ void laneZero(float *gx, float *gy, const int *ids, const float *vx,
                         const float *vy, int n) {
  const int lane = threadIdx.x % 32;
  for (int j = 0; j < n; j++) {
    if (lane == 0) {
      atomicAdd(&gx[ids[j]], vx[j]);
      atomicAdd(&gy[ids[j]], vy[j]);
    }
  }
}

// A shuffle passes T along (it sums nothing); each lane owns a primitive and
// adds what it accumulated once.
// CHECK-DAG: group perPrimitive@{{[0-9]+}}: unchanged key=gid type=float sites=2 [DW0027 distinct-keys
__global__ void perPrimitive(float2 *g, const unsigned *point_list,
                             const float *v, int n) {
  const int lane = threadIdx.x % 32;
  const int gid = point_list[blockIdx.x * 32 + lane];
  float ax = 0.f, ay = 0.f, T = 1.f;
  for (int i = 0; i < n; i++) {
    T = __shfl_up_sync(0xffffffffu, T, 1);
    ax += v[i] * T;
    ay += 2.f * v[i] * T;
  }
  atomicAdd(&g[gid].x, ax);
  atomicAdd(&g[gid].y, ay);
}

// CHECK-DAG: leave-alone.cu:[[@LINE+4]]:5: unchanged atomicAdd in inLambda {{.*}}[DW0050 in-lambda
__global__ void inLambda(float2 *dmean, float *dopac, const int *ids,
                         const float *v, int n) {
  auto blendOne = [&](int j) {
    atomicAdd(&dmean[ids[j]].x, v[j]);
    atomicAdd(&dmean[ids[j]].y, 2.f * v[j]);
    atomicAdd(&dopac[ids[j]], 3.f * v[j]);
  };
  for (int j = 0; j < n; j++)
    blendOne(j);
}

// Reduced across the warp in a helper, then lane 0 adds through a pointer:
// already reduced, whatever the address looks like.
struct Grad {
  float r, g;
};
__device__ void warpSum(float &v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
}
// CHECK-DAG: leave-alone.cu:[[@LINE+9]]:7: unchanged atomicAdd in reducedThroughPointer type=float [DW0035 already-reduced
__global__ void reducedThroughPointer(Grad *grads, const int *ids,
                                      const float *vr, int n) {
  for (int j = 0; j < n; j++) {
    float r = vr[j * 32 + threadIdx.x % 32];
    warpSum(r);
    if (threadIdx.x % 32 == 0) {
      Grad *grad_addr = grads + ids[j];
      atomicAdd(&grad_addr->r, r);
      atomicAdd(&grad_addr->g, r);
    }
  }
}
