// Macros written `do { ...; } while (0)` are rewritten at the invocation like
// multi-statement macros: the invocation becomes its expansion with the calls
// batched, the batch is declared before the `do` and the reduction follows
// the invocation's ';'. Bodies are never edited and lines keep their numbers.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if format-compact %{ test $(wc -l < %t.cu) -eq $(( $(wc -l < %s) + 3 )) %}
// RUN: %check-line-map %s %t.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// The tool's own output is left as it is.
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim > %t.twice.cu
// RUN: diff %t.cu %t.twice.cu

// CHECK: #define ADD3(buf, i, v)
#define ADD3(buf, i, v)                                                        \
  do {                                                                         \
    atomicAdd(&buf[i].x, v.x);                                                 \
    atomicAdd(&buf[i].y, v.y);                                                 \
    atomicAdd(&buf[i].z, v.z);                                                 \
  } while (0)
#define ADD_ONE(p, v) do { atomicAdd(p, v); } while (false)
#define ADD_BREAK(buf, i, v, c)                                                \
  do {                                                                         \
    atomicAdd(&buf[i].x, v.x);                                                 \
    if (c)                                                                     \
      break;                                                                   \
    atomicAdd(&buf[i].y, v.y);                                                 \
  } while (0)
#define ADD_CONTINUE(buf, i, v) do { atomicAdd(&buf[i].x, v.x); continue; } while (0)
#define ADD_WHILE(buf, i, v, n)                                                \
  do {                                                                         \
    atomicAdd(&buf[i].x, v.x);                                                 \
    atomicAdd(&buf[i].y, v.y);                                                 \
  } while (--n > 0)
#define ADD_EXPR(buf, i, v) (atomicAdd(&buf[i].x, v.x), atomicAdd(&buf[i].y, v.y))
#define ADD_MORE(buf, i, v)                                                    \
  do {                                                                         \
    atomicAdd(&buf[i].x, v.x);                                                 \
    buf[i].w = 0.f;                                                            \
  } while (0)

// A do-while(0) macro and a one-statement one join one group with the
// direct call; a second invocation under a grid-uniform `if` is its own
// group (the batch goes before the `if`, outside the `do`).
__global__ void xyz(float3 *grad, float *op, float *r, const int *ids,
                    float3 v, float o, bool hit) {
  const int id = ids[threadIdx.x], other = ids[threadIdx.x + 32];
  // CHECK: ::distwar::Batch<float, 5, ::distwar::AlwaysSet<0, 5>> distwar_batch0;
  // CHECK: do {
  // CHECK: distwar_batch0.set(0, &grad[id].x, v.x);
  // CHECK: distwar_batch0.set(1, &grad[id].y, v.y);
  // CHECK: distwar_batch0.set(2, &grad[id].z, v.z);
  // CHECK: }
  // CHECK: while (0);
  ADD3(grad, id, v);
  // CHECK: do {
  // CHECK: distwar_batch0.set(3, &op[id], o);
  // CHECK: }
  // CHECK: while (false);
  ADD_ONE(&op[id], o);
  // CHECK: distwar_batch0.set(4, &r[id], o);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_do_while_cu,
  // CHECK: 0));
  atomicAdd(&r[id], o);
  // CHECK: ::distwar::Batch<float, 3> distwar_batch1;
  // CHECK: if (hit)
  if (hit)
    // CHECK: do {
    // CHECK: distwar_batch1.set(0, &grad[other].x, v.x);
    // CHECK: {{.*}} }
    // CHECK: while (0);
    // CHECK: ::distwar::reduceSerial(
    // CHECK: distwar_batch1,
    // CHECK: other,
    // CHECK: DISTWAR_SITE_THRESHOLD(
    // CHECK: distwar_sites_do_while_cu,
    // CHECK: 1));
    ADD3(grad, other, v);
}

// A multi-line invocation keeps its line count.
__global__ void lines(float3 *grad, const int *ids, float3 v) {
  const int id = ids[threadIdx.x];
  // CHECK: do {
  // CHECK: distwar_batch0.set(0, &grad[id].x, v.x);
  // CHECK: {{.*}} }
  // CHECK: while (0)
  // CHECK: {{^}};
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_do_while_cu,
  // CHECK: 2));
  ADD3(grad, id,
       v);
}

// In a loop with a continue before it (serial: the key is per lane).
template <int N>
__global__ void looped(float3 *grad, const int *ids, float3 v, int n) {
  for (int j = 0; j < n; ++j) {
    const int id = ids[threadIdx.x * n + j];
    if (j == N)
      continue;
    // CHECK: ::distwar::Batch<float, 3, ::distwar::AlwaysSet<0, 3>> distwar_batch0;
    // CHECK: do {
    // CHECK: distwar_batch0.set(0, &grad[id].x, v.x);
    // CHECK: {{.*}} }
    // CHECK: while (0);
    // CHECK: ::distwar::reduceSerial(
    // CHECK: distwar_batch0,
    // CHECK: id,
    // CHECK: DISTWAR_SITE_THRESHOLD(
    // CHECK: distwar_sites_do_while_cu,
    // CHECK: 3));
    ADD3(grad, id, v);
  }
}
template __global__ void looped<2>(float3 *, const int *, float3, int);

// Left alone, each with its reason.
__global__ void refused(float4 *grad, const int *ids, float4 v, int n) {
  const int id = ids[threadIdx.x];
  // CHECK: ADD_BREAK(grad, id, v, v.w > 0.f);
  ADD_BREAK(grad, id, v, v.w > 0.f);
  // CHECK: ADD_WHILE(grad, id, v, n);
  ADD_WHILE(grad, id, v, n);
  // CHECK: ADD_EXPR(grad, id, v);
  ADD_EXPR(grad, id, v);
  // CHECK: ADD_MORE(grad, id, v);
  ADD_MORE(grad, id, v);
  for (int j = 0; j < n; ++j) {
    // CHECK: ADD_CONTINUE(grad, id + j, v);
    ADD_CONTINUE(grad, id + j, v);
  }
}

// REPORT: do-while.cu: 22 atomic site(s), 4 group(s), rewritten
// REPORT: do-while.cu:56:3: batched atomicAdd in xyz {{.*}} field=.z slot=2 {{.*}} group=xyz#0
// REPORT: do-while.cu:69:3: batched atomicAdd in xyz buffer=r {{.*}} slot=4 {{.*}} group=xyz#0
// REPORT: do-while.cu:83:5: batched atomicAdd in xyz {{.*}} group=xyz#1
// REPORT: do-while.cu:[[#BREAK:]]:3: unchanged atomicAdd in refused {{.*}}DW0039 macro-do-while
// REPORT: do-while.cu:[[#BREAK]]:3: unchanged atomicAdd in refused {{.*}}DW0039 macro-do-while
// REPORT: do-while.cu:[[#BREAK+2]]:3: unchanged atomicAdd in refused {{.*}}DW0039 macro-do-while
// REPORT: do-while.cu:[[#BREAK+2]]:3: unchanged atomicAdd in refused {{.*}}DW0039 macro-do-while
// REPORT: do-while.cu:[[#BREAK+4]]:3: unchanged atomicAdd in refused {{.*}}DW0018 not-a-statement
// REPORT: do-while.cu:[[#BREAK+4]]:3: unchanged atomicAdd in refused {{.*}}DW0001 used-result
// REPORT: do-while.cu:[[#BREAK+6]]:3: unchanged atomicAdd in refused {{.*}}DW0032 macro-not-statements
// REPORT: do-while.cu:[[#BREAK+9]]:5: unchanged atomicAdd in refused {{.*}}DW0039 macro-do-while
// REPORT: group xyz#0: batched (serial{{.*}}) key=id type=float sites=5 slots=5
// REPORT: group xyz#1: batched (serial{{.*}}) key=other type=float sites=3 slots=3
// REPORT: group lines#0: batched
// REPORT: group looped#0: batched
