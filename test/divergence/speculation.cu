// Speculation in butterfly output: the statements between two converted
// continues run in every lane, unguarded, inside one warp-uniform branch
// (::distwar::anyActive), when they only compute and cannot fault; otherwise
// the per-lane guards stay.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -
// RUN: %if format-compact %{ test $(grep -c '' %s) -eq $(tail -n +4 %t.cu | grep -c '') %}
// RUN: %check-line-map %s %t.cu
#define BLOCK 64

// Shared memory at the loop counter (bounded by min(BLOCK, n) <= 64) and
// arithmetic between the skips: speculated.
__global__ void sharedInBounds(float *ga, float *gb, const int *ids,
                               const float2 *pts, int n) {
  __shared__ float2 xy[BLOCK];
  __shared__ int id[BLOCK];
  xy[threadIdx.x] = pts[threadIdx.x];
  id[threadIdx.x] = ids[threadIdx.x];
  __syncthreads();
  int budget = 10;
  for (int j = 0; j < min(BLOCK, n); j++) {
    budget--;
    if (budget < 0)
      continue;
    const float2 p = xy[j];
    const float r = sqrtf(p.x * p.x + p.y * p.y);
    if (r > 1.0f)
      continue;
    const float w = expf(-r);
    atomicAdd(&ga[id[j]], w);
    atomicAdd(&gb[id[j]], w * r);
  }
}
// CHECK-LABEL: __global__ void sharedInBounds(
// CHECK: if (budget < 0)
// CHECK: distwar_active0 = false;
// CHECK: if (::distwar::anyActive(distwar_active0)) {
// CHECK: const float2 p = distwar_cursor0[0];
// CHECK-NEXT: const float r = sqrtf(p.x * p.x + p.y * p.y);
// CHECK-NEXT: if (r > 1.0f)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK: const float w = expf(-r);
// CHECK: distwar_key0 = id[j];
// CHECK: }
// CHECK: }
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}

// A global read between the skips may fault in a lane that skipped: the
// per-lane guards stay.
__global__ void globalRead(float *ga, float *gb, const int *ids,
                           const float *x, int n) {
  __shared__ int id[BLOCK];
  id[threadIdx.x] = ids[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < min(BLOCK, n); j++) {
    const float a = x[threadIdx.x];
    if (a < 0.f)
      continue;
    const float b = x[j * 32 + threadIdx.x];
    if (b < a)
      continue;
    atomicAdd(&ga[id[j]], a);
    atomicAdd(&gb[id[j]], b);
  }
}
// CHECK-LABEL: __global__ void globalRead(
// CHECK-NOT: anyActive
// CHECK: if (a < 0.f)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK: if (b < a)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {

// The loop bound exceeds the array: not proven in bounds.
__global__ void outOfBounds(float *ga, float *gb, const int *ids, int n) {
  __shared__ float v[BLOCK];
  __shared__ int id[BLOCK];
  v[threadIdx.x] = 1.0f;
  id[threadIdx.x] = ids[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < min(2 * BLOCK, n); j++) {
    const float a = v[threadIdx.x % BLOCK];
    if (a < 0.f)
      continue;
    const float b = v[j];
    if (b < a)
      continue;
    atomicAdd(&ga[id[j % BLOCK]], a);
    atomicAdd(&gb[id[j % BLOCK]], b);
  }
}
// CHECK-LABEL: __global__ void outOfBounds(
// CHECK-NOT: anyActive
// CHECK: if (b < a)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {

__device__ float weight(const float *table, int i) { return table[i]; }

// A call other than a known math function: not speculated.
__global__ void userCall(float *ga, float *gb, const int *ids,
                         const float *table, int n) {
  __shared__ int id[BLOCK];
  id[threadIdx.x] = ids[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < min(BLOCK, n); j++) {
    const float a = table[threadIdx.x];
    if (a < 0.f)
      continue;
    const float b = weight(table, j);
    if (b < a)
      continue;
    atomicAdd(&ga[id[j]], a);
    atomicAdd(&gb[id[j]], b);
  }
}
// CHECK-LABEL: __global__ void userCall(
// CHECK-NOT: anyActive
// CHECK: if (b < a)
// CHECK: distwar_active0 = false;
// CHECK: if (distwar_active0) {
// CHECK-NOT: anyActive
// REPORT: group sharedInBounds#0: batched (butterfly{{( or serial, chosen at run time)?}})
// REPORT: group globalRead#0: batched (butterfly{{( or serial, chosen at run time)?}})
