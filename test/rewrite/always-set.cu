// Which slots the batch type lists as AlwaysSet (issued with no presence or
// null test): runs of sites with nothing but blocks, expressions and their
// channel loop between them and the group's block, in a block without goto.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -

// Every site unconditional, one range; the channel loop's slots included.
__global__ void unconditional(float *dc, float2 *dxy, const int *ids, float v) {
  int id = ids[threadIdx.x];
  // CHECK: ::distwar::Fields<float,
  // CHECK: 3 + 2,
  // CHECK: ::distwar::AlwaysSet<0,
  // CHECK: 3 + 2>>
  // CHECK: distwar_batch0;
  for (int ch = 0; ch < 3; ch++)
    atomicAdd(&dc[id * 3 + ch], v * ch);
  atomicAdd(&dxy[id].x, v);
  atomicAdd(&dxy[id].y, -v);
}

// A nullable output under a grid-uniform `if` in the middle: it is tracked,
// the runs around it are not.
__global__ void nullableMiddle(float *da, float *dopt, float *db,
                               const int *ids, float v) {
  int id = ids[threadIdx.x];
  // CHECK: ::distwar::Fields<float,
  // CHECK: 3,
  // CHECK: ::distwar::AlwaysSet<0,
  // CHECK: 1>,
  // CHECK: ::distwar::AlwaysSet<2,
  // CHECK: 3>>
  // CHECK: distwar_batch0;
  atomicAdd(&da[id], v);
  if (dopt)
    atomicAdd(&dopt[id], 2 * v);
  atomicAdd(&db[id], 3 * v);
}

// The conditional site last: the range stops before it.
__global__ void nullableLast(float *da, float *dopt, const int *ids, float v) {
  int id = ids[threadIdx.x];
  // CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 1>> distwar_batch0;
  atomicAdd(&da[id], v);
  if (dopt) {
    atomicAdd(&dopt[id], v);
  }
}

// Both sites under one `if`: the group's block is the if's body, the call is
// in it, and within it both always run.
__global__ void sameCondition(float *da, float *db, const int *ids, float v) {
  int id = ids[threadIdx.x];
  // CHECK: ::distwar::Fields<float, 2, ::distwar::AlwaysSet<0, 2>> distwar_batch0;
  if (da) {
    atomicAdd(&da[id], v);
    atomicAdd(&db[id], v);
  }
}

// A goto in the group's block (here after the group; one between its sites
// is refused, DW0013) could reach a label among the sites: nothing is listed.
__global__ void withGoto(float *da, float *db, const int *ids, float v) {
  int id = ids[threadIdx.x];
  // CHECK: ::distwar::Fields<float, 2> distwar_batch0;
  atomicAdd(&da[id], v);
  atomicAdd(&db[id], v);
  if (v > 1.0f)
    goto skip;
  da[id] = 0.0f;
skip:
  return;
}
