// Which slots the batch type marks Adjacent (adjacent floats of one struct
// element, added with float4 atomics on sm_90): runs in slot order, in
// elements whose size is a multiple of 16 bytes, that hold a 16-byte block;
// the phase says where the run starts within 16 bytes.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim | diff %t.cu -

struct CamGrad {
  float3 pos, axis_x, axis_y, axis_z; // 48 bytes
};

#define ADD3(PTR, V)                                                           \
  atomicAdd(&((PTR)->x), (V).x);                                               \
  atomicAdd(&((PTR)->y), (V).y);                                               \
  atomicAdd(&((PTR)->z), (V).z)

// Twelve members of a 48-byte element, through a macro's `(&e.m)->x`; the
// radius before them is a buffer of its own.
__global__ void camera(float *drad, CamGrad *dcam, const int *ids, float3 g) {
  const int id = ids[threadIdx.x];
  // CHECK-LABEL: void camera(
  // CHECK: ::distwar::Batch<float, 13, ::distwar::AlwaysSet<0, 13>,
  // CHECK: ::distwar::Adjacent<1, 13>>
  atomicAdd(&drad[id], g.x);
  ADD3(&dcam[id].pos, g);
  ADD3(&dcam[id].axis_x, g);
  ADD3(&dcam[id].axis_y, g);
  ADD3(&dcam[id].axis_z, g);
}

// A float4 whole is a run; x and y before a gap are none (no float4, and
// pairs are not issued).
__global__ void quads(float4 *dq, float4 *dconic, const int *ids, float v) {
  const int id = ids[threadIdx.x];
  // CHECK-LABEL: void quads(
  // CHECK: ::distwar::Fields<float, 7, ::distwar::AlwaysSet<0, 7>,
  // CHECK: ::distwar::Adjacent<0, 4>>
  atomicAdd(&dq[id].x, v);
  atomicAdd(&dq[id].y, v);
  atomicAdd(&dq[id].z, v);
  atomicAdd(&dq[id].w, v);
  atomicAdd(&dconic[id].x, v);
  atomicAdd(&dconic[id].y, 2 * v);
  atomicAdd(&dconic[id].w, 3 * v);
}

struct Eight {
  float a, b, c, d, e, f, g, h; // 32 bytes
};

// A run from the second float starts one float past 16 bytes: b to h hold
// the block e to h; b to g (in another group) hold none.
__global__ void phase(Eight *d, Eight *d2, const int *ids, float v) {
  const int id = ids[threadIdx.x];
  const int id2 = ids[threadIdx.x + 7];
  // CHECK-LABEL: void phase(
  // CHECK: ::distwar::Adjacent<0, 7, 1>>
  atomicAdd(&d[id].b, v);
  atomicAdd(&d[id].c, v);
  atomicAdd(&d[id].d, v);
  atomicAdd(&d[id].e, v);
  atomicAdd(&d[id].f, v);
  atomicAdd(&d[id].g, v);
  atomicAdd(&d[id].h, v);
  // CHECK-NOT: Adjacent
  // CHECK: distwar::reduceSerial
  atomicAdd(&d2[id2].b, v);
  atomicAdd(&d2[id2].c, v);
  atomicAdd(&d2[id2].d, v);
  atomicAdd(&d2[id2].e, v);
  atomicAdd(&d2[id2].f, v);
  atomicAdd(&d2[id2].g, v);
}

struct Float3x4 {
  float3 a, b, c, d;
};

// No run: two float3 elements (12 bytes: their alignment changes with the
// index), members out of order, and members of two elements.
__global__ void noRuns(float3 *dpos, float4 *dq, Float3x4 *dm, const int *ids,
                       float v) {
  const int id = ids[threadIdx.x];
  const int other = ids[threadIdx.x + 1];
  // CHECK-LABEL: void noRuns(
  // CHECK-NOT: Adjacent
  // CHECK: distwar::reduceSerial
  atomicAdd(&dpos[id].x, v);
  atomicAdd(&dpos[id].y, v);
  atomicAdd(&dpos[id].z, v);
  atomicAdd(&dpos[id + 1].x, v);
  atomicAdd(&dq[id].y, v);
  atomicAdd(&dq[id].x, v);
  atomicAdd(&dq[id].w, v);
  atomicAdd(&dq[id].z, v);
  // CHECK-NOT: Adjacent
  // CHECK: distwar::reduceSerial
  atomicAdd(&dm[other].a.x, v);
  atomicAdd(&dm[other].a.y, v);
  atomicAdd(&dm[id].a.z, v);
  atomicAdd(&dm[id].b.x, v);
}

// A template's channel loop before the members: slots `C + k`.
template <int C>
__global__ void channelsFirst(float *dcol, float4 *dq, const int *ids,
                              float v) {
  const int id = ids[threadIdx.x];
  // CHECK-LABEL: void channelsFirst(
  // CHECK: ::distwar::Adjacent<C + 0, C + 4>>
  for (int ch = 0; ch < C; ch++)
    atomicAdd(&dcol[id * C + ch], v * ch);
  atomicAdd(&dq[id].x, v);
  atomicAdd(&dq[id].y, v);
  atomicAdd(&dq[id].z, v);
  atomicAdd(&dq[id].w, v);
}
template __global__ void channelsFirst<3>(float *, float4 *, const int *,
                                          float);

struct Counts {
  int hits, misses, p, q;
};

// Integers are no run: sm_90's vector atomics add floats.
__global__ void integers(Counts *c, const int *ids) {
  const int id = ids[threadIdx.x];
  // CHECK-LABEL: void integers(
  // CHECK-NOT: Adjacent
  // CHECK: distwar::reduceSerial
  atomicAdd(&c[id].hits, 1);
  atomicAdd(&c[id].misses, 2);
  atomicAdd(&c[id].p, 3);
  atomicAdd(&c[id].q, 4);
}

template <typename T> struct Pair4 {
  T a, b, c, d;
};

// A member of a dependent element has no layout before instantiation: no
// run (nor a group) in the template as written.
template <typename T>
__global__ void dependentElement(Pair4<T> *g, const int *ids, float v) {
  const int id = ids[threadIdx.x];
  // CHECK-LABEL: void dependentElement(
  // CHECK-NOT: Adjacent
  // CHECK: atomicAdd(&g[id].d, v);
  atomicAdd(&g[id].a, v);
  atomicAdd(&g[id].b, v);
  atomicAdd(&g[id].c, v);
  atomicAdd(&g[id].d, v);
}
template __global__ void dependentElement<float>(Pair4<float> *, const int *,
                                                 float);
