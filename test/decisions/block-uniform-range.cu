// A tile's range of primitives, loaded once per block from a read-only
// `const uint2 *__restrict__` parameter at the block's index, is the same in
// every lane: the rounds over it and the shrinking count `left` give every
// lane the same trip counts, so the group reaches a butterfly. The range may
// be read through a local pointer, a const reference or a struct assigned
// after its declaration. A range indexed by lane, or from memory that the
// kernel writes, may differ across lanes (DW0025).
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s --report --report-file=%t.txt > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite %t.cu -- -I %runtime_include | diff %t.cu -

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int kTile = 128;

// CHECK-DAG: group groupIndexRange#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void groupIndexRange(const uint2 *__restrict__ spans,
                                const int *__restrict__ order,
                                const float *__restrict__ weight, int width,
                                float *gw, float *gv) {
  auto block = cg::this_thread_block();
  const unsigned tilesPerRow = (width + 15) / 16;
  const uint2 span =
      spans[block.group_index().y * tilesPerRow + block.group_index().x];
  const int batches = (span.y - span.x + kTile - 1) / kTile;
  int left = span.y - span.x;
  __shared__ int ids[kTile];
  for (int b = 0; b < batches; b++, left -= kTile) {
    __syncthreads();
    const int at = span.x + b * kTile + block.thread_rank();
    if (at < span.y)
      ids[block.thread_rank()] = order[at];
    __syncthreads();
    for (int k = 0; k < min(kTile, left); k++) {
      const int prim = ids[k];
      // CUDA's read-only load takes the pointer as const: no store.
      const float w =
          __ldg(&weight[prim]) * block.thread_rank() + __ldg(&spans[0].x);
      if (w < 1.f)
        continue;
      atomicAdd(&gw[prim], w);
      atomicAdd(&gv[prim], 2.f * w);
    }
  }
}

// CHECK-DAG: group spanThroughPointer#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void spanThroughPointer(const uint2 *__restrict__ spans,
                                   const int *__restrict__ order, float *gw,
                                   float *gv) {
  const uint2 *tile = spans + blockIdx.x;
  const int batches = (tile->y - tile->x + kTile - 1) / kTile;
  int left = tile->y - tile->x;
  __shared__ int ids[kTile];
  for (int b = 0; b < batches; b++, left -= kTile) {
    __syncthreads();
    const int at = tile->x + b * kTile + threadIdx.x;
    if (at < tile->y)
      ids[threadIdx.x] = order[at];
    __syncthreads();
    for (int k = 0; k < min(kTile, left); k++) {
      const int prim = ids[k];
      atomicAdd(&gw[prim], 1.f * threadIdx.x);
      atomicAdd(&gv[prim], 2.f);
    }
  }
}

// CHECK-DAG: group spanByReference#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void spanByReference(const uint2 *__restrict__ spans,
                                const int *__restrict__ order, float *gw,
                                float *gv) {
  const uint2 &span = spans[blockIdx.y * gridDim.x + blockIdx.x];
  int left = span.y - span.x;
  __shared__ int ids[kTile];
  for (int b = 0; left > 0; b++, left -= kTile) {
    __syncthreads();
    const int at = span.x + b * kTile + threadIdx.x;
    if (at < span.y)
      ids[threadIdx.x] = order[at];
    __syncthreads();
    for (int k = 0; k < min(kTile, left); k++) {
      const int prim = ids[k];
      atomicAdd(&gw[prim], 1.f * threadIdx.x);
      atomicAdd(&gv[prim], 2.f);
    }
  }
}

// CHECK-DAG: group spanAssigned#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=prim
__global__ void spanAssigned(const uint2 *__restrict__ spans,
                             const int *__restrict__ order, float *gw,
                             float *gv) {
  uint2 span;
  span = spans[blockIdx.x];
  int left = span.y - span.x;
  __shared__ int ids[kTile];
  for (int b = 0; left > 0; b++, left -= kTile) {
    __syncthreads();
    const int at = span.x + b * kTile + threadIdx.x;
    if (at < span.y)
      ids[threadIdx.x] = order[at];
    __syncthreads();
    for (int k = 0; k < min(kTile, left); k++) {
      const int prim = ids[k];
      atomicAdd(&gw[prim], 1.f * threadIdx.x);
      atomicAdd(&gv[prim], 2.f);
    }
  }
}

// Each half-warp reads its own range.
// CHECK-DAG: group spanPerLane#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void spanPerLane(const uint2 *__restrict__ spans,
                            const int *__restrict__ order, float *gw,
                            float *gv) {
  const uint2 span = spans[blockIdx.x * 2 + threadIdx.x / 16 % 2];
  int left = span.y - span.x;
  for (int k = 0; k < left; k++) {
    const int prim = order[span.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// The kernel stores into the ranges (through a cast): a lane may load one
// before another lane's store and one after.
// CHECK-DAG: group spanWritten#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void spanWritten(const uint2 *__restrict__ spans,
                            const int *__restrict__ order, float *gw,
                            float *gv) {
  if (threadIdx.x == 7)
    const_cast<uint2 *>(spans)[blockIdx.x].y += 1;
  const uint2 span = spans[blockIdx.x];
  for (int k = 0; k < span.y - span.x; k++) {
    const int prim = order[span.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// The same through a copy of the pointer.
// CHECK-DAG: group spanWrittenThroughCopy#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void spanWrittenThroughCopy(const uint2 *__restrict__ spans,
                                       const int *__restrict__ order, float *gw,
                                       float *gv) {
  uint2 *writable = (uint2 *)spans;
  if (threadIdx.x == 7)
    writable[blockIdx.x].y += 1;
  const uint2 span = spans[blockIdx.x];
  for (int k = 0; k < span.y - span.x; k++) {
    const int prim = order[span.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// Without __restrict__, another parameter may point at the ranges and the
// kernel may store into them through it.
// CHECK-DAG: group spanMayAlias#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void spanMayAlias(const uint2 *spans, const int *__restrict__ order,
                             float *gw, float *gv, uint2 *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_uint2(0, threadIdx.x);
  const uint2 span = spans[blockIdx.x];
  for (int k = 0; k < span.y - span.x; k++) {
    const int prim = order[span.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}

// A pointer loaded from read-only memory points elsewhere: what it points
// to may change.
struct Tiles {
  const uint2 *spans;
};
// CHECK-DAG: group spanBehindLoadedPointer#0: batched (serial; not butterfly: DW0025 trip-count-varies)
__global__ void spanBehindLoadedPointer(const Tiles *__restrict__ tiles,
                                        const int *__restrict__ order,
                                        float *gw, float *gv, uint2 *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_uint2(0, threadIdx.x);
  const uint2 span = tiles[0].spans[blockIdx.x];
  for (int k = 0; k < span.y - span.x; k++) {
    const int prim = order[span.x + k];
    atomicAdd(&gw[prim], 1.f * threadIdx.x);
    atomicAdd(&gv[prim], 2.f);
  }
}
