// Atomics written through macros are rewritten at the invocation: the whole
// invocation text becomes its expansion with the calls batched; macro bodies
// are never edited, and lines keep their numbers.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// Three prologue lines, then the file's own lines.
// RUN: %if format-compact %{ test $(wc -l < %t.cu) -eq $(( $(wc -l < %s) + 3 )) %}
// RUN: %check-line-map %s %t.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// The bodies stay as written.
// CHECK: #define ATOMICADD(PTR, VAL) atomicAdd((PTR), (VAL))
#define ATOMICADD(PTR, VAL) atomicAdd((PTR), (VAL))
#define ATOMICADD_F3(PTR, VAL)                                                 \
  ATOMICADD(&((PTR)->x), (VAL).x);                                             \
  ATOMICADD(&((PTR)->y), (VAL).y);                                             \
  ATOMICADD(&((PTR)->z), (VAL).z)
#define ADD3(buf, i, v)                                                        \
  atomicAdd(&buf[i].x, v.x);                                                   \
  atomicAdd(&buf[i].y, v.y);                                                   \
  atomicAdd(&buf[i].z, v.z);
#define AT(buf, i) (&(buf)[i])
#define ID(i) (i)

struct Grads {
  float3 *pos;
  float *rad;
  int *hits;
};

// A by-value parameter struct holds the buffers; its other members are read
// between the sites.
__global__ void spheres(const Grads g, const int *ids, float3 d, float r,
                        bool ortho) {
  const int id = ids[threadIdx.x];
  if (id >= 0) {
    // CHECK: ::distwar::Batch<float, 5, ::distwar::AlwaysSet<0, 5>> distwar_batch0;
    // CHECK: distwar_batch0.set(0, (&((&g.pos[id])->x)), ((d).x));
    // CHECK: distwar_batch0.set(1, {{[^;]*}};
    // CHECK: distwar_batch0.set(
    // CHECK: 2,
    // CHECK: (&((&g.pos[id])->z)),
    // CHECK: ((d).z));
    ATOMICADD_F3(&g.pos[id], d);
    float s = ortho ? 1.f : 2.f;
    // A multi-line invocation keeps its line count.
    // CHECK: distwar_batch0.set(3, (&g.rad[id]), (r * s))
    // CHECK: {{^}};
    // CHECK: float
    ATOMICADD(&g.rad[id],
              r * s); float unused = s;
    // Only the argument comes from a macro: the call stays in place.
    // CHECK: distwar_batch0.set(4, AT(g.rad, id), r);
    // CHECK: ::distwar::reduceSerial(
    // CHECK: distwar_batch0,
    // CHECK: id,
    // CHECK: DISTWAR_SITE_THRESHOLD(
    // CHECK: distwar_sites_macros_cu,
    // CHECK: 0),
    // CHECK: ::distwar::keepPeers(distwar_peers0));
    atomicAdd(AT(g.rad, id), r);
    // An integer counter through a macro: its own, exact, integer batch,
    // which reuses the float batch's key match.
    // CHECK: ::distwar::Batch<int, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1;
    // CHECK: distwar_batch1.set(0, (&g.hits[id]), (1));
    // CHECK: ::distwar::reduceSerial(
    // CHECK: distwar_batch1,
    // CHECK: id,
    // CHECK: DISTWAR_SITE_THRESHOLD(
    // CHECK: distwar_sites_macros_cu,
    // CHECK: 1),
    // CHECK: ::distwar::reusePeers(distwar_peers0));
    ATOMICADD(&g.hits[id], 1);
  }
}

// A macro whose body ends with ';' and a key spelled through a macro.
__global__ void xyz(float3 *grad, const int *ids, float3 v) {
  const int id = ids[threadIdx.x];
  // CHECK: ::distwar::Batch<float, 3, ::distwar::AlwaysSet<0, 3>> distwar_batch0;
  // CHECK: distwar_batch0.set(0, &grad[(id)].x, v.x);
  // CHECK: distwar_batch0.set(1, &grad[(id)].y, v.y);
  // CHECK: distwar_batch0.set(2, &grad[(id)].z, v.z);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_macros_cu,
  // CHECK: 2));
  ADD3(grad, ID(id), v)
}

// One invocation whose atomics fall in two groups (float and int) cannot be
// replaced for one of them only.
#define ADD_BOTH(f, n, i, v) atomicAdd(&f[i], v); atomicAdd(&n[i], 1)
__global__ void split(float *f, int *n, const int *ids, float v) {
  const int id = ids[threadIdx.x];
  // CHECK: ADD_BOTH(f, n, id, v);
  ADD_BOTH(f, n, id, v);
}

// REPORT: macros.cu: 11 atomic site(s), 5 group(s), rewritten
// REPORT: group spheres#0: batched (serial{{.*}}) key=id type=float sites=5 slots=5
// REPORT: group spheres#1: batched (serial{{.*}}) key=id type=int sites=1 slots=1
// REPORT: group xyz#0: batched (serial{{.*}}) key=id type=float sites=3 slots=3
// REPORT: unchanged key=id type=float sites=1 {{.*}}DW0033 macro-split
// REPORT: unchanged key=id type=int sites=1 {{.*}}DW0033 macro-split
