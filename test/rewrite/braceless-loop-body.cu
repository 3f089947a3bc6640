// An atomic that is the whole body of a loop written without braces is
// batched as it would be with them: the rewrite puts braces around the body,
// with the batch, its sets and its reduction inside, and changes nothing
// else. for, while, do and range-for bodies, in kernels and in a __device__
// function, an atomic spelled by a macro whose expansion is the atomic alone,
// a loop that is the body of another loop, and a body whose end is also the
// end of an enclosing `if`, where an outer group's reduction follows, and two
// groups in one body. A group left alone keeps its text byte for byte.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// The braces' places, on the output with its layout folded (one line, single
// spaces, no #line directives: the formatted and compact forms read alike).
// RUN: grep -v '^ *//' %t.cu | grep -v '^#line' | tr '\n' ' ' | sed -e 's/  */ /g' -e 's/( /(/g' | %FileCheck %s
// RUN: %check-line-map %s %t.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// The tool's own output is left as it is.
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// Serial everywhere: the same braces.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: grep -v '^ *//' %t.serial.cu | grep -v '^#line' | tr '\n' ' ' | sed -e 's/  */ /g' -e 's/( /(/g' | %FileCheck %s --check-prefix=SERIAL
// RUN: %check-line-map %s %t.serial.cu
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}
// The kernel whose group stays plain is the same text in the output.
// RUN: sed -n '/^__global__ void leftAlone/,/^}/p' %s > %t.alone.in
// RUN: sed -n '/^__global__ void leftAlone/,/^}/p' %t.cu > %t.alone.out
// RUN: grep -q atomicAdd %t.alone.in
// RUN: diff %t.alone.in %t.alone.out

// REPORT: braceless-loop-body.cu: 16 atomic site(s), 15 group(s), rewritten
// REPORT-NOT: DW0018

#define ATOMICADD(P, V) atomicAdd((P), (V))

// CHECK: void forBody(
// CHECK: for (int i = 0; i < n; ++i) { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; int distwar_key0 = 0; distwar_batch0.set(0, &g[ids[i] * 3 + 1], v[i]); distwar_key0 = ids[i]; ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}distwar_batch0, true, distwar_key0,
// CHECK: return &g[distwar_key0 * 3 + 1]; return nullptr; }); } }
// SERIAL: for (int i = 0; i < n; ++i) { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; distwar_batch0.set(0, &g[ids[i] * 3 + 1], v[i]); ::distwar::reduceSerial(distwar_batch0, ids[i],
// SERIAL: return &g[ids[i] * 3 + 1]; return nullptr; }); } }
// REPORT: group forBody#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=ids[i]
__global__ void forBody(float *g, const int *__restrict__ ids,
                        const float *__restrict__ v, int n) {
  for (int i = 0; i < n; ++i)
    atomicAdd(&g[ids[i] * 3 + 1], v[i]);
}

// A lane-dependent loop-condition term becomes the active flag: the flag,
// its guard and the reduction are all inside the braces.
// CHECK: void flagBody(
// CHECK: for (int j = 0; j < n; ++j) { bool distwar_active0 = (!done); ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; int distwar_key0 = 0; if (distwar_active0) { distwar_batch0.set(0, &g[ids[j] * 3 + 1], v[j]); distwar_key0 = ids[j]; } ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}distwar_batch0, distwar_active0, distwar_key0,
// CHECK: return &g[distwar_key0 * 3 + 1]; return nullptr; }); } }
// REPORT: group flagBody#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=ids[j]
__global__ void flagBody(float *g, const int *__restrict__ ids,
                         const float *__restrict__ v, int n, int w) {
  const bool done = threadIdx.x >= w;
  for (int j = 0; !done && j < n; ++j)
    atomicAdd(&g[ids[j] * 3 + 1], v[j]);
}

// CHECK: void whileBody(
// CHECK: while (++i < n) { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; distwar_batch0.set(0, &g[ids[i] * 3 + 1], v[i]); ::distwar::reduceSerial(distwar_batch0, ids[i],
// CHECK: return &g[ids[i] * 3 + 1]; return nullptr; }); } }
// REPORT: group whileBody#0: batched (serial{{.*}}) key=ids[i]
__global__ void whileBody(float *g, const int *__restrict__ ids,
                          const float *__restrict__ v, int n) {
  int i = 0;
  while (++i < n)
    atomicAdd(&g[ids[i] * 3 + 1], v[i]);
}

// CHECK: void doBody(
// CHECK: do { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; distwar_batch0.set(0, &g[ids[i] * 3 + 1], v[i]); ::distwar::reduceSerial(distwar_batch0, ids[i],
// CHECK: return &g[ids[i] * 3 + 1]; return nullptr; }); } while (++i < n); }
// REPORT: group doBody#0: batched (serial{{.*}}) key=ids[i]
__global__ void doBody(float *g, const int *__restrict__ ids,
                       const float *__restrict__ v, int n) {
  int i = 0;
  do
    atomicAdd(&g[ids[i] * 3 + 1], v[i]);
  while (++i < n);
}

// CHECK: void rangeBody(
// CHECK: for (int k : corners) { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; distwar_batch0.set(0, &g[k * 3 + 1], v[k]); ::distwar::reduceSerial(distwar_batch0, k,
// CHECK: return &g[k * 3 + 1]; return nullptr; }); } }
// REPORT: group rangeBody#0: batched (serial{{.*}}) key=k
__global__ void rangeBody(float *g, const float *__restrict__ v) {
  const int corners[4] = {0, 1, 2, 3};
  for (int k : corners)
    atomicAdd(&g[k * 3 + 1], v[k]);
}

// A __device__ function whose buffer is a global that device code never
// writes (the same in every lane), keyed by its row parameter.
// CHECK: void addRow(
// CHECK: for (int s = 0; s < n; ++s) { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; distwar_batch0.set(0, &grad_rows[row * 4 + 1], w[s]); ::distwar::reduceSerial(distwar_batch0, row,
// CHECK: return &grad_rows[row * 4 + 1]; return nullptr; }); } }
// REPORT: group addRow#0: batched (serial{{.*}}) key=row
__device__ float *grad_rows;
__device__ void addRow(int row, const float *__restrict__ w, int n) {
  for (int s = 0; s < n; ++s)
    atomicAdd(&grad_rows[row * 4 + 1], w[s]);
}

// The invocation is replaced whole; the braces go around it.
// CHECK: void macroBody(
// CHECK: for (int i = 0; i < n; ++i) { ::distwar::Batch<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; distwar_batch0.set(0, (&g[ids[i] * 3 + 1]), (v[i])); ::distwar::reduceSerial(distwar_batch0, ids[i], DISTWAR_SITE_THRESHOLD(distwar_sites_braceless_loop_body_cu, 6)); } }
// REPORT: group macroBody#0: batched (serial{{.*}}) key=ids[i]
__global__ void macroBody(float *g, const int *__restrict__ ids,
                          const float *__restrict__ v, int n) {
  for (int i = 0; i < n; ++i)
    ATOMICADD(&g[ids[i] * 3 + 1], v[i]);
}

// The inner loop's body gets the braces; the outer loop keeps its own.
// CHECK: void nestedBody(
// CHECK: while (m-- > 0) for (int i = 0; i < n; ++i) { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0;
// CHECK: return &g[ids[i] * 3 + 1]; return nullptr; }); } }
// REPORT: group nestedBody#0: batched (serial{{.*}}) key=ids[i]
__global__ void nestedBody(float *g, const int *__restrict__ ids,
                           const float *__restrict__ v, int n, int m) {
  while (m-- > 0)
    for (int i = 0; i < n; ++i)
      atomicAdd(&g[ids[i] * 3 + 1], v[i]);
}

// A channel loop belongs to its site: as a loop's body it is what gets the
// braces, with the batch before it; in a block it is as before (no braces).
// CHECK: void channelBody(
// CHECK: for (int i = 0; i < n; ++i) { ::distwar::Fields<float, 3, ::distwar::AlwaysSet<0, 3>> distwar_batch0; int distwar_key0 = 0; {{#pragma unroll|_Pragma\("unroll"\)}} for (int c = 0; c < 3; ++c) distwar_batch0.set(c, &g[ids[i] * 3 + c], v[i]); distwar_key0 = ids[i];
// CHECK: return &g[distwar_key0 * 3 + c]; } return nullptr; }); } }
// In a block, the loop also runs in strips (GENERATED_CODE.md, section 12).
// CHECK: void channelInBlock(
// CHECK: { auto distwar_strips0 = [&](auto distwar_full0) { for (int i = 0; i < n; i += ::distwar::kStripLaps) { ::distwar::Strip<{{ ?}}::distwar::Batch<float, 3, ::distwar::AlwaysSet<0, 3>>, ::distwar::kStripLaps> distwar_strip0;
// CHECK-SAME: const decltype(distwar_base0) i = distwar_base0 + distwar_lap0; if (distwar_lap0 > 0 && !(i < n)) { distwar_end0 = true; break; } ::distwar::Batch<float, 3, ::distwar::AlwaysSet<0, 3>> distwar_batch0; {{#pragma unroll|_Pragma\("unroll"\)}} for (int c = 0; c < 3; ++c) distwar_batch0.set(c, &g[ids[i] * 3 + c], v[i]); distwar_strip0.keep(distwar_lap0, distwar_batch0); } ::distwar::reduceStrip(distwar_strip0, distwar_full0); if (distwar_end0) break; } }; ::distwar::runStrips(DISTWAR_SITE_THRESHOLD(distwar_sites_braceless_loop_body_cu, 9), distwar_strips0); } }
// REPORT: group channelBody#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=ids[i] type=float sites=1 slots=3
// REPORT: group channelInBlock#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=ids[i] type=float sites=1 slots=3 strip
__global__ void channelBody(float *g, const int *__restrict__ ids,
                            const float *__restrict__ v, int n) {
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c)
      atomicAdd(&g[ids[i] * 3 + c], v[i]);
}
__global__ void channelInBlock(float *g, const int *__restrict__ ids,
                               const float *__restrict__ v, int n) {
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c)
      atomicAdd(&g[ids[i] * 3 + c], v[i]);
  }
}

// The inner loop's body ends where the `if` that holds the outer group
// ends: the inner reduction and its closing brace come first, then the outer
// reduction, outside the inner loop.
// CHECK: void elseBody(
// CHECK: } else for (int j = 0; j < m; ++j) { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1;
// CHECK: return &b[distwar_key1 * 2]; return nullptr; }); } ::distwar::reduceButterflyUniform{{(OrSerial[(][[:space:]]*distwar_serial[0-9]+,[[:space:]]*|[(])}}distwar_batch0, distwar_reached0, distwar_key0,
// CHECK: return &a[distwar_key0 * 2 + 1]; return nullptr; }); } }
// SERIAL: } else for (int j = 0; j < m; ++j) { ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1;
// SERIAL: return &b[ids[j] * 2]; return nullptr; }); } } }
// REPORT: group elseBody#0: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=ids[i] type=float sites=2
// REPORT: group elseBody#1: batched (butterfly-uniform{{( or serial, chosen at run time)?}}) key=ids[j] type=float sites=1
__global__ void elseBody(float *a, float *b, const int *__restrict__ ids,
                         const float *__restrict__ v, int n, int m) {
  for (int i = 0; i < n; ++i) {
    if (v[i] > 0.f) {
      atomicAdd(&a[ids[i] * 2], v[i]);
      atomicAdd(&a[ids[i] * 2 + 1], v[i]);
    } else
      for (int j = 0; j < m; ++j)
        atomicAdd(&b[ids[j] * 2], v[j]);
  }
}

// Two groups in one body without braces: one pair of braces holds both.
// CHECK: void twoGroups(
// CHECK: for (int i = 0; i < n; ++i) { ::distwar::Fields<float, 1, ::distwar::LaneSet<0, 1>> distwar_batch0; ::distwar::Fields<float, 1, ::distwar::LaneSet<0, 1>> distwar_batch1; if (v[i] > 0.f) distwar_batch0.set(
// CHECK: return &b[ids[i + n] * 2]; return nullptr; }); } }
// REPORT: group twoGroups#0: batched (serial{{.*}}) key=ids[i] type=float sites=1
// REPORT: group twoGroups#1: batched (serial{{.*}}) key=ids[i + n] type=float sites=1
__global__ void twoGroups(float *a, float *b, const int *__restrict__ ids,
                          const float *__restrict__ v, int n) {
  for (int i = 0; i < n; ++i)
    if (v[i] > 0.f)
      atomicAdd(&a[ids[i] * 2], v[i]);
    else
      atomicAdd(&b[ids[i + n] * 2], v[i]);
}

// Left alone (reads of buffers that may be destinations between the
// channels' atomics): no braces either.
// REPORT: group leftAlone@{{[0-9]+}}: unchanged key=ids[i] type=float sites=1 [DW0047 read-may-alias
__global__ void leftAlone(float *g, const int *ids, const float *v, int n) {
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c)
      atomicAdd(&g[ids[i] * 3 + c], v[i]);
}
