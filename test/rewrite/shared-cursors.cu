// Shared-array cursors (GENERATED_CODE.md, section 8): in a loop that holds a
// batched group, `A[j]` and `A[e + j]` of a __shared__ array declared before
// the loop read through a pointer that advances with the loop counter, so
// that nvcc keeps the shared addresses out of the loop. Everywhere the
// conditions do not hold, the subscript stays as written.
// RUN: %distwar-rewrite --no-cuda-sdk %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: grep -v '^ *//' %t.serial.cu | %FileCheck %s --check-prefix=SERIAL
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -
// RUN: %if format-compact %{ test $(grep -c '' %s) -eq $(tail -n +4 %t.cu | grep -c '') %}
// RUN: %check-line-map %s %t.cu
#define BLOCK 64
#define AT(a, i) a[i]

// Every form that qualifies: the counter alone, `e + j`, `j + e`, a row of a
// two-dimensional array, and a store.
__global__ void forms(float *ga, float *gb, const int *ids, const float *v,
                      int n) {
  __shared__ int id[BLOCK];
  __shared__ float w[3 * BLOCK];
  __shared__ float rows[BLOCK][4];
  __shared__ float scratch[BLOCK];
  id[threadIdx.x] = ids[threadIdx.x];
  w[threadIdx.x] = v[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < min(BLOCK, n); j++) {
    const float a = w[BLOCK + j] + w[j + 2 * BLOCK] + rows[j][1];
    scratch[j] = a;
    atomicAdd(&ga[id[j]], a);
    atomicAdd(&gb[id[j]], a * a);
  }
}
// CHECK-LABEL: __global__ void forms(
// CHECK: auto *distwar_cursor0 = w;
// CHECK: auto *distwar_cursor1 = rows;
// CHECK: auto *distwar_cursor2 = scratch;
// CHECK: auto *distwar_cursor3 = id;
// CHECK: for (int j = 0;
// CHECK: j < min(BLOCK, n);
// CHECK: j++,
// CHECK: ++distwar_cursor0,
// CHECK: ++distwar_cursor1,
// CHECK: ++distwar_cursor2,
// CHECK: ++distwar_cursor3) {
// CHECK: const float a = distwar_cursor0[BLOCK] + distwar_cursor0[2 * BLOCK] +{{[[:space:]]+}}distwar_cursor1[0][1];
// CHECK-NEXT: distwar_cursor2[0] = a;
// CHECK-NEXT: distwar_batch0.set(0, &ga[distwar_cursor3[0]], a);
// SERIAL-LABEL: __global__ void forms(
// SERIAL: auto *distwar_cursor0 = w;
// SERIAL: {{.*}} for (int j = 0;
// SERIAL: j < min(BLOCK, n);
// SERIAL: j++,
// SERIAL: ++distwar_cursor0,
// SERIAL: {{.*}}) {

// An extent that depends on a template parameter: the cursor is used when
// every instantiation the file makes keeps the pointer inside the array.
template <int C>
__global__ void channels(float *g, const int *ids, const float *v, int n) {
  __shared__ int id[BLOCK];
  __shared__ float colors[C * BLOCK];
  id[threadIdx.x] = ids[threadIdx.x];
  for (int ch = 0; ch < C; ch++)
    colors[ch * BLOCK + threadIdx.x] = v[ch * BLOCK + threadIdx.x];
  __syncthreads();
  for (int j = 0; j < min(BLOCK, n); j++) {
    for (int ch = 0; ch < C; ch++)
      atomicAdd(&g[id[j] * C + ch], colors[ch * BLOCK + j]);
  }
}
template __global__ void channels<3>(float *, const int *, const float *, int);
// CHECK-LABEL: __global__ void channels(
// CHECK: auto *distwar_cursor4 = id;
// CHECK: auto *distwar_cursor5 = colors;
// CHECK: for (int j = 0;
// CHECK: j < min(BLOCK, n);
// CHECK: j++, ++distwar_cursor4, ++distwar_cursor5) {
// CHECK: distwar_batch0.set(
// CHECK: ch,
// CHECK: &g[distwar_cursor4[0] * C + ch],
// CHECK: distwar_cursor5[ch * BLOCK]);

// The same template never instantiated here: its dependent array keeps its
// subscript (nothing shows the extent), the other one gets a cursor.
template <int C>
__global__ void uninstantiated(float *g, const int *ids, int n) {
  __shared__ int id[BLOCK];
  __shared__ float colors[C * BLOCK];
  id[threadIdx.x] = ids[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < min(BLOCK, n); j++) {
    for (int ch = 0; ch < C; ch++)
      atomicAdd(&g[id[j] * C + ch], colors[ch * BLOCK + j]);
  }
}
// CHECK-LABEL: __global__ void uninstantiated(
// CHECK: auto *distwar_cursor6 = id;
// CHECK: for (int j = 0;
// CHECK: j < min(BLOCK, n);
// CHECK: j++, ++distwar_cursor6) {
// CHECK: distwar_batch0.set(
// CHECK: ch,
// CHECK: &g[distwar_cursor6[0] * C + ch],
// CHECK: colors[ch * BLOCK + j]);

// Subscripts that stay: an array too short for the bound, an unsigned offset
// (e + j may wrap), a scaled counter, a macro, a lambda, a local array, a
// global pointer and an array declared inside the loop.
__global__ void refusals(float *ga, float *gb, const int *ids,
                         const float *gv, unsigned u, int n) {
  __shared__ int id[BLOCK];
  __shared__ float shortArray[BLOCK / 2];
  __shared__ float wide[4 * BLOCK];
  id[threadIdx.x] = ids[threadIdx.x];
  __syncthreads();
  float local[BLOCK];
  for (int k = 0; k < BLOCK; k++)
    local[k] = gv[k];
  for (int j = 0; j < min(BLOCK, n); j++) {
    __shared__ float inner[BLOCK];
    auto twice = [&] { return 2.f * wide[j]; };
    const float a = shortArray[j] + wide[u + j] + wide[2 * j] +
                    AT(wide, j) + twice() + local[j] + gv[j] + inner[j];
    atomicAdd(&ga[id[j]], a);
    atomicAdd(&gb[id[j]], a * a);
  }
}
// CHECK-LABEL: __global__ void refusals(
// CHECK: auto *distwar_cursor7 = id;
// CHECK: for (int j = 0;
// CHECK: j < min(BLOCK, n);
// CHECK: j++, ++distwar_cursor7) {
// CHECK: auto twice = [&] { return 2.f * wide[j]; };
// CHECK-NEXT: const float a = shortArray[j] + wide[u + j] + wide[2 * j] +
// CHECK-NEXT: AT(wide, j) + twice() + local[j] + gv[j] + inner[j];

// Loops with no place for the cursors or no proven counter: none at all.
__global__ void noCursors(float *ga, float *gb, const int *ids, int start,
                          int n, bool go) {
  __shared__ int id[BLOCK];
  id[threadIdx.x] = ids[threadIdx.x];
  __syncthreads();
  // A loop-hint pragma must stay next to its loop.
#pragma unroll 1
  for (int j = 0; j < min(BLOCK, n); j++) {
    atomicAdd(&ga[id[j]], 1.f);
    atomicAdd(&gb[id[j]], 2.f);
  }
  // The body of an unbraced if.
  if (go)
    for (int j = 0; j < min(BLOCK, n); j++) {
      atomicAdd(&ga[id[j]], 3.f);
      atomicAdd(&gb[id[j]], 4.f);
    }
  // A start that is not a constant.
  for (int j = start; j < min(BLOCK, n); j++) {
    atomicAdd(&ga[id[j]], 5.f);
    atomicAdd(&gb[id[j]], 6.f);
  }
  // No bound that keeps j inside id.
  for (int j = 0; j < n; j++) {
    atomicAdd(&ga[id[j % BLOCK]], 7.f);
    atomicAdd(&gb[id[j % BLOCK]], 8.f);
  }
}
// CHECK-LABEL: __global__ void noCursors(
// CHECK-NOT: distwar_cursor
// CHECK: ::distwar::reduceButterfly{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}
// CHECK: distwar_batch3,
// CHECK-NOT: distwar_cursor
