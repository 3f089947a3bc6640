// A tile's range loaded once per block is the same in every lane however the
// load is spelled: CUDA's read-only load `__ldg` of a read-only parameter at
// the block's index, a helper whose body reads only what its arguments
// point to (read-only memory) and computes from its arguments, or a
// `const T *__restrict__` member of a by-value struct parameter that the
// kernel only reads. Each gives every lane the same trip counts, so the
// group reaches a butterfly. An index that depends on the lane, a helper
// that reads the lane or the clock or writes memory, and a member the
// kernel writes through, changes or may alias keep DW0025.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s --report --report-file=%t.txt > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite %t.cu -- -I %runtime_include | diff %t.cu -

constexpr int kTile = 128;

// CHECK-DAG: group rangeByLdg#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void rangeByLdg(const uint2 *__restrict__ ranges,
                           const int *__restrict__ order, float *gw,
                           float *gv) {
  const uint2 range = __ldg(&ranges[blockIdx.x]);
  int left = range.y - range.x;
  __shared__ int ids[kTile];
  for (int b = 0; left > 0; b++, left -= kTile) {
    __syncthreads();
    const int at = range.x + b * kTile + threadIdx.x;
    if (at < range.y)
      ids[threadIdx.x] = order[at];
    __syncthreads();
    for (int k = 0; k < min(kTile, left); k++) {
      const int prim = ids[k];
      atomicAdd(&gw[prim], 1.f * threadIdx.x);
      atomicAdd(&gv[prim], 2.f);
    }
  }
}

// CHECK-DAG: group rangeByLdgOffset#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void rangeByLdgOffset(const uint2 *__restrict__ ranges,
                                 const int *__restrict__ order, float *gw,
                                 float *gv) {
  const int tile = blockIdx.y * gridDim.x + blockIdx.x;
  const uint2 range = __ldg(ranges + tile);
  int left = range.y - range.x;
  __shared__ int ids[kTile];
  for (int b = 0; left > 0; b++, left -= kTile) {
    __syncthreads();
    const int at = range.x + b * kTile + threadIdx.x;
    if (at < range.y)
      ids[threadIdx.x] = order[at];
    __syncthreads();
    for (int k = 0; k < min(kTile, left); k++) {
      const int prim = ids[k];
      atomicAdd(&gw[prim], 1.f * threadIdx.x);
      atomicAdd(&gv[prim], 2.f);
    }
  }
}

__device__ uint2 tileRange(const uint2 *r, int t) { return r[t]; }
__device__ int rangeLength(const uint2 &r) { return r.y - r.x; }

// CHECK-DAG: group rangeByHelper#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void rangeByHelper(const uint2 *__restrict__ ranges,
                              const int *__restrict__ order, float *gw,
                              float *gv) {
  const uint2 range = tileRange(ranges, blockIdx.x);
  int left = rangeLength(ranges[blockIdx.x]);
  __shared__ int ids[kTile];
  for (int b = 0; left > 0; b++, left -= kTile) {
    __syncthreads();
    const int at = range.x + b * kTile + threadIdx.x;
    if (at < range.y)
      ids[threadIdx.x] = order[at];
    __syncthreads();
    for (int k = 0; k < min(kTile, left); k++) {
      const int prim = ids[k];
      atomicAdd(&gw[prim], 1.f * threadIdx.x);
      atomicAdd(&gv[prim], 2.f);
    }
  }
}

struct TileArgs {
  const uint2 *__restrict__ ranges;
  const int *__restrict__ order;
  float *gw;
  float *gv;
};

// CHECK-DAG: group rangeByMember#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void rangeByMember(TileArgs a) {
  const uint2 range = a.ranges[blockIdx.x];
  int left = range.y - range.x;
  __shared__ int ids[kTile];
  for (int b = 0; left > 0; b++, left -= kTile) {
    __syncthreads();
    const int at = range.x + b * kTile + threadIdx.x;
    if (at < range.y)
      ids[threadIdx.x] = a.order[at];
    __syncthreads();
    for (int k = 0; k < min(kTile, left); k++) {
      const int prim = ids[k];
      atomicAdd(&a.gw[prim], 1.f * threadIdx.x);
      atomicAdd(&a.gv[prim], 2.f);
    }
  }
}

// The three together: a member given to a helper.
// CHECK-DAG: group rangeByMemberHelper#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void rangeByMemberHelper(TileArgs a) {
  const uint2 *tiles = a.ranges;
  const uint2 range = tileRange(tiles, blockIdx.x);
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = __ldg(&a.order[range.x + k]);
    atomicAdd(&a.gw[prim], 1.f * threadIdx.x);
    atomicAdd(&a.gv[prim], 2.f);
  }
}

// Each half-warp reads its own range.
// CHECK-DAG: group ldgPerLane#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void ldgPerLane(const uint2 *__restrict__ ranges,
                           const int *__restrict__ order, float *gw,
                           float *gv) {
  const uint2 range = __ldg(&ranges[blockIdx.x * 2 + threadIdx.x / 16 % 2]);
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = order[range.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// CHECK-DAG: group helperPerLane#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void helperPerLane(const uint2 *__restrict__ ranges,
                              const int *__restrict__ order, float *gw,
                              float *gv) {
  const uint2 range = tileRange(ranges, blockIdx.x * 2 + threadIdx.x / 16 % 2);
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = order[range.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// The helper picks the half-warp's range itself.
__device__ uint2 halfWarpRange(const uint2 *r, int t) {
  return r[t * 2 + threadIdx.x / 16 % 2];
}
// CHECK-DAG: group helperReadsLane#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void helperReadsLane(const uint2 *__restrict__ ranges,
                                const int *__restrict__ order, float *gw,
                                float *gv) {
  const uint2 range = halfWarpRange(ranges, blockIdx.x);
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = order[range.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// The helper counts its calls: it writes memory.
__device__ uint2 countedRange(const uint2 *r, int t, unsigned *calls) {
  atomicAdd(&calls[t], 1u);
  return r[t];
}
// CHECK-DAG: group helperWrites#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void helperWrites(const uint2 *__restrict__ ranges,
                             const int *__restrict__ order, float *gw,
                             float *gv, unsigned *calls) {
  const uint2 range = countedRange(ranges, blockIdx.x, calls);
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = order[range.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// The helper reads the clock: lanes may read different times.
__device__ uint2 timedRange(const uint2 *r, int t) {
  return r[t * 2 + (clock64() & 1)];
}
// CHECK-DAG: group helperReadsClock#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void helperReadsClock(const uint2 *__restrict__ ranges,
                                 const int *__restrict__ order, float *gw,
                                 float *gv) {
  const uint2 range = timedRange(ranges, blockIdx.x);
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = order[range.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// The kernel stores into the ranges through the member: a lane may load one
// before another lane's store and one after.
// CHECK-DAG: group memberWrittenThrough#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void memberWrittenThrough(TileArgs a) {
  if (threadIdx.x == 7)
    const_cast<uint2 *>(a.ranges)[blockIdx.x].y += 1;
  const uint2 range = a.ranges[blockIdx.x];
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = a.order[range.x + k];
    atomicAdd(&a.gw[prim], 1.f * threadIdx.x);
    atomicAdd(&a.gv[prim], 2.f);
  }
}

// The same through a copy of the struct.
// CHECK-DAG: group memberWrittenThroughCopy#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void memberWrittenThroughCopy(TileArgs a) {
  TileArgs copy = a;
  if (threadIdx.x == 7)
    const_cast<uint2 *>(copy.ranges)[blockIdx.x].y += 1;
  const uint2 range = a.ranges[blockIdx.x];
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = a.order[range.x + k];
    atomicAdd(&a.gw[prim], 1.f * threadIdx.x);
    atomicAdd(&a.gv[prim], 2.f);
  }
}

// Some lanes move the struct's pointer to the next tile.
// CHECK-DAG: group memberChanged#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void memberChanged(TileArgs a) {
  if (threadIdx.x >= 16)
    a.ranges += 1;
  const uint2 range = a.ranges[blockIdx.x];
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = a.order[range.x + k];
    atomicAdd(&a.gw[prim], 1.f * threadIdx.x);
    atomicAdd(&a.gv[prim], 2.f);
  }
}

// Without __restrict__, another pointer may reach the ranges and the kernel
// may store into them through it (as for a plain parameter).
struct PlainTileArgs {
  const uint2 *ranges;
  const int *__restrict__ order;
  float *gw;
  float *gv;
  uint2 *out;
};
// CHECK-DAG: group memberMayAlias#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void memberMayAlias(PlainTileArgs a) {
  a.out[blockIdx.x * blockDim.x + threadIdx.x] = make_uint2(0, threadIdx.x);
  const uint2 range = a.ranges[blockIdx.x];
  for (int k = 0; k < range.y - range.x; k++) {
    const int prim = a.order[range.x + k];
    atomicAdd(&a.gw[prim], 1.f * threadIdx.x);
    atomicAdd(&a.gv[prim], 2.f);
  }
}
