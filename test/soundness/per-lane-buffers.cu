// A __device__ function's pointer parameters may differ across lanes: each
// lane can pass the pointer of its own primitive. Such a pointer is never
// rebuilt from a key in another lane. With constant offsets it becomes the
// key itself (one group keyed by the pointer); indexed by a loop of run-time
// trip count, the loop is versioned and the run's first address is the key;
// with any other index the site stays plain.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %distwar-rewrite --no-cuda-sdk %s --report=json --report-file=%t.json -- %shim > /dev/null
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %s --variant=serial --report --report-file=%t.serial.txt -- %shim > %t.serial.cu
// RUN: %FileCheck %s --check-prefix=SERIAL < %t.serial.txt
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}

// REPORT: per-lane-buffers.cu: 10 atomic site(s), 5 group(s), rewritten

// A runtime-length channel loop through a pointer offset per lane (as
// Pulsar's draw() adds colour gradients): the loop is versioned for 1 to 4
// channels, and the run of channels is one batch keyed by its first
// address, the pointer (the same address is the same run, whatever each
// lane's pointer); the read of g[c] is tested apart at run time.
// REPORT-DAG: batched atomicAdd in addColour buffer=grad_col key=grad_col + c field=[+c] slot=c type=float group=addColour#0
// REPORT-DAG: group addColour#0: batched (serial; not butterfly: DW0058 versioned-loop) key=grad_col + c type=float sites=1 slots=distwar_trip
// JSON: "name": "addColour#0",
// JSON-NOT: "start_note"
// JSON: "name": "accumulate#0",
// CHECK: DISTWAR_SITES(distwar_sites_per_lane_buffers_cu, "addColour#0",
// CHECK: distwar_batch0.set(c, grad_col + c, g[c]);
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0, [&](const int c) { return grad_col + c; }(0),
// CHECK: ::distwar::channelHull((n_channels), grad_col + c),
__device__ void addColour(float *grad_col, const float *g, int n_channels) {
  for (int c = 0; c < n_channels; ++c)
    atomicAdd(grad_col + c, g[c]);
}
__global__ void colours(float *grad_colours, const int *prim_of_pixel,
                        const float *grad_pix, int n_channels) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  addColour(grad_colours + prim_of_pixel[pix] * n_channels,
            grad_pix + pix * n_channels, n_channels);
}

// The common helper: three constant offsets from a per-lane pointer are one
// group keyed by the pointer (match-any on its value).
// REPORT-DAG: group accumulate#0: batched (serial; not butterfly: DW0026 key-varies) key=grad type=float sites=3 slots=3
// CHECK: ::distwar::reduceSerial(
// CHECK: distwar_batch0,
// CHECK: grad,
// CHECK: DISTWAR_SITE_THRESHOLD(
// CHECK: distwar_sites_per_lane_buffers_cu,
// CHECK: 1),
// CHECK: [&](int distwar_slot) ->
// CHECK: float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &grad[0];
// CHECK: if (distwar_slot == 1)
// CHECK: return &grad[1];
// CHECK: if (distwar_slot == 2)
// CHECK: return &grad[2];
// CHECK: return nullptr;
// CHECK: });
__device__ void accumulate(float *grad, float3 g) {
  atomicAdd(&grad[0], g.x);
  atomicAdd(&grad[1], g.y);
  atomicAdd(&grad[2], g.z);
}
__global__ void positions(float *grads, const int *prim_of_pixel,
                          const float3 *gpix) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  accumulate(grads + 3 * prim_of_pixel[pix], gpix[pix]);
}

// Two per-lane pointers at offset 0: one group keyed by each. One element
// per lane gains little, so auto leaves them (DW0051); asked for, each is a
// serial group keyed by its own pointer.
// REPORT-DAG: group addAt0@{{[0-9]+}}: unchanged key=g type=float sites=1 [DW0051
// REPORT-DAG: group addAt0@{{[0-9]+}}: unchanged key=h type=float sites=1 [DW0051
// SERIAL-DAG: group addAt0#0: batched (serial) key=g type=float sites=1 slots=1
// SERIAL-DAG: group addAt0#1: batched (serial) key=h type=float sites=1 slots=1
__device__ void addAt0(float *g, float *h, float v) {
  atomicAdd(&g[0], v);
  atomicAdd(&h[0], v * 2.f);
}
__global__ void twoBuffers(float *ga, float *gb, float *gc, const float *x) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  addAt0((threadIdx.x & 1) ? ga : gb, gc, x[tid]);
}

// A per-lane pointer indexed by a key: the key alone does not name the
// primitive, so both sites stay plain.
// REPORT-DAG: unchanged atomicAdd in addGrad buffer=g key=id {{.*}}[DW0006 buffer-not-uniform
// REPORT-DAG: unchanged atomicAdd in addGrad buffer=h key=id {{.*}}[DW0006 buffer-not-uniform
__device__ void addGrad(float *g, float *h, int id, float v) {
  atomicAdd(&g[id], v);
  atomicAdd(&h[id], v * 2.f);
}
__global__ void keyed(float *ga, float *gb, float *gc, const int *ids,
                      const float *x, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float *dst = (threadIdx.x & 1) ? ga : gb;
  for (int j = 0; j < n; j++)
    addGrad(dst, gc, ids[j], x[tid * 64 + j]);
}

// A local pointer chosen per lane, in a kernel, is the key of its group too.
// REPORT-DAG: group localPointer#0: batched (serial{{.*}}) key=dst type=float sites=2 slots=2
__global__ void localPointer(float *ga, float *gb,
                             const float *__restrict__ x) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float *dst = (x[tid] > 0.f ? ga : gb) + 2 * (tid % 7);
  atomicAdd(&dst[0], x[tid]);
  atomicAdd(&dst[1], 2.f * x[tid]);
}
