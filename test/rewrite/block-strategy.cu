// The block strategy (GENERATED_CODE.md, section 10): under --variant=auto
// with --block-strategy=on, a serial group (its key differs per lane) in a
// kernel's own body gets a table in shared memory for the whole thread block. The body runs as a lambda so
// that a thread that returns early still reaches the flush (a barrier), and
// the addresses are rebuilt from the key at the kernel's end. Where that is
// not provably safe the group stays serial and the report says why.
// RUN: %distwar-rewrite --no-cuda-sdk --block-strategy=on %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %check-line-map %s %t.cu
// RUN: %distwar-rewrite --no-cuda-sdk --block-strategy=on %t.cu -- %shim | diff %t.cu -
//
// Off (the default, or --block-strategy=off) keeps every reduction in the
// warp: the same file has no table at all. BlockStrategy: on in .distwar.yaml
// turns it on as the option does.
// RUN: %distwar-rewrite --no-cuda-sdk %s -- %shim | grep -v "^ *//" | %FileCheck %s --check-prefix=OFF
// OFF-NOT: BlockSlots
// OFF-NOT: reduceBlock
// OFF: ::distwar::reduceSerial(
// RUN: %not %distwar-rewrite --no-cuda-sdk --block-strategy=maybe %s -o %t.bad.cu -- %shim 2>&1 | %FileCheck %s --check-prefix=BAD
// RUN: test ! -e %t.bad.cu
// BAD: --block-strategy takes on or off, not 'maybe'
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %s %t.dir/k.cu
// RUN: printf 'BlockStrategy: on\n' > %t.dir/.distwar.yaml
// RUN: %distwar-rewrite --no-cuda-sdk %t.dir/k.cu -- %shim | grep -v "^ *//" | %FileCheck %s --check-prefix=YAML
// RUN: %distwar-rewrite --no-cuda-sdk --block-strategy=off %t.dir/k.cu -- %shim | grep -v "^ *//" | %FileCheck %s --check-prefix=OFF
// YAML: __shared__ ::distwar::BlockSlots<float, 3> distwar_slots0;

struct Grad {
  float x, y;
};

// (a) A pixel's k-th primitive, an early return for pixels outside the
// image: the return leaves the lambda, the thread still flushes.
// CHECK-LABEL: perPixel(
// CHECK: __shared__ ::distwar::BlockSlots<float, 3> distwar_slots0;
// CHECK: const ::distwar::UniformThreshold distwar_mode0 =
// CHECK: DISTWAR_SITE_THRESHOLD(distwar_sites_block_strategy_cu, 0);
// CHECK: ::distwar::blockBegin(distwar_slots0, distwar_mode0);
// CHECK: auto distwar_addr0 = [&](int distwar_key, int distwar_slot) -> float * {
// CHECK: if (distwar_slot == 0)
// CHECK: return &g[distwar_key].x;
// CHECK: if (distwar_slot == 2)
// CHECK: return &o[distwar_key];
// CHECK: [&] {
// CHECK: return;
// CHECK: ::distwar::Fields<float, 3, ::distwar::AlwaysSet<0, 3>>
// CHECK: ::distwar::reduceBlock(
// CHECK: distwar_slots0, distwar_batch0, id, distwar_mode0,
// CHECK: distwar_addr0);
// CHECK: }();
// CHECK: ::distwar::blockEnd(distwar_slots0, distwar_mode0, distwar_addr0);
__global__ void perPixel(Grad *g, float *o, const int *ids, int n, int K) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  for (int k = 0; k < K; ++k) {
    int id = ids[p * K + k];
    float v = 0.5f * k;
    atomicAdd(&g[id].x, v);
    atomicAdd(&g[id].y, -v);
    atomicAdd(&o[id], 2.f * v);
  }
}
// REPORT: group perPixel#0: batched (block; not butterfly: DW0026 key-varies) key=id type=float sites=3 slots=3

// (b) An unsigned key keeps its type in the address lambda; a field under a
// grid-uniform condition is rebuilt under it.
// CHECK-LABEL: unsignedKey(
// CHECK: [&](unsigned int distwar_key,
// CHECK: int distwar_slot) -> float * {
// CHECK: return (flag) ? (&a[distwar_key]) : nullptr;
__global__ void unsignedKey(float *a, float *b, const unsigned *ids, bool flag) {
  unsigned id = ids[threadIdx.x];
  atomicAdd(&b[id], 1.f);
  if (flag)
    atomicAdd(&a[id], 2.f);
}
// REPORT: group unsignedKey#0: batched (block{{.*}}) key=id

// (c) A barrier in the kernel (here in a function it calls): a thread that
// returned early would wait at the flush while the others wait at the
// barrier. The group stays serial.
__device__ void stage() { __syncthreads(); }
// CHECK-LABEL: withBarrier(
// CHECK-NOT: BlockSlots
// CHECK: ::distwar::reduceSerial(
__global__ void withBarrier(float *a, const int *ids) {
  stage();
  int id = ids[threadIdx.x];
  atomicAdd(&a[2 * id], 1.f);
  atomicAdd(&a[2 * id + 1], 1.f);
}
// REPORT: group withBarrier#0: batched (serial; not butterfly: DW0026 key-varies) key=id type=float sites=2 slots=2 [not block: DW0053 block-barrier]

// (d) In a __device__ function: the table belongs to the kernel.
// CHECK-LABEL: helper(
// CHECK-NOT: BlockSlots
// CHECK: ::distwar::reduceSerial(
__device__ float gAcc[256];
__device__ void helper(int id) {
  atomicAdd(&gAcc[2 * id], 1.f);
  atomicAdd(&gAcc[2 * id + 1], 1.f);
}
__global__ void callsHelper(const int *ids) { helper(ids[threadIdx.x]); }
// REPORT: group helper#0: {{.*}} [not block: DW0054 block-not-kernel]

// (e) A __shared__ array declared in the body would move into the lambda.
// CHECK-LABEL: withShared(
// CHECK-NOT: BlockSlots
// CHECK: ::distwar::reduceSerial(
__global__ void withShared(float *a, const int *ids) {
  __shared__ int tile[32];
  tile[threadIdx.x % 32] = ids[threadIdx.x];
  int id = tile[threadIdx.x % 32];
  atomicAdd(&a[2 * id], 1.f);
  atomicAdd(&a[2 * id + 1], 1.f);
}
// REPORT: group withShared#0: {{.*}} [not block: DW0056 block-declarations]

// (f) An address that reads a local other than the key (a constexpr stride
// declared in the body) cannot be rebuilt at the kernel's start.
// CHECK-LABEL: localStride(
// CHECK-NOT: BlockSlots
// CHECK: ::distwar::reduceSerial(
__global__ void localStride(float *a, const int *ids) {
  constexpr int S = 2;
  int id = ids[threadIdx.x];
  atomicAdd(&a[S * id], 1.f);
  atomicAdd(&a[S * id + 1], 1.f);
}
// REPORT: group localStride#0: {{.*}} [not block: DW0055 block-address]

// (g) A thread that reads its own add back: deferred to the kernel's end,
// the add would be missing from what it reads (here through another name
// for the buffer, after the group). Every statement of the kernel may run
// after the group (a later iteration), so none may read a destination.
// CHECK-LABEL: readsBack(
// CHECK-NOT: BlockSlots
// CHECK: ::distwar::reduceSerial(
__global__ void readsBack(float *g, int *seen, const int *ids) {
  const float *same = g;
  int id = ids[threadIdx.x];
  atomicAdd(&g[2 * id], 1.f);
  atomicAdd(&g[2 * id + 1], 1.f);
  seen[threadIdx.x] = same[2 * id] >= 1.f;
}
// REPORT: group readsBack#0: {{.*}} [not block: DW0010 buffer-accessed-between]

// (h) A pointer key (per-lane base pointers) has no index to keep.
// CHECK-LABEL: pointerKey(
// CHECK-NOT: BlockSlots
__global__ void pointerKey(float **rows, const int *which) {
  float *r = rows[which[threadIdx.x]];
  atomicAdd(&r[0], 1.f);
  atomicAdd(&r[1], 1.f);
}
