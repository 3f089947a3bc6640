// Templates on channel count and element type are rewritten once, with text
// valid for every instantiation (T, C spelled as written); where the element
// type is only known per instantiation (a member of a dependent vector type,
// a dependent nested type) the sites are refused with DW0024.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

#define ADD1(PTR, VAL) atomicAdd((PTR), (VAL))

// CHECK: ::distwar::Batch<T, C + 1, ::distwar::AlwaysSet<0, C + 1>> distwar_batch0;
// CHECK: {{_Pragma\("|#pragma }}unroll ::distwar::kChannelUnroll<C>
// CHECK: for (int ch = 0;
// CHECK: ch < C;
// CHECK: ++ch)
// CHECK: distwar_batch0.set(C + 0, (&g[id * (C + 1) + C]), (T(1)));
template <typename T, int C>
__global__ void channels(T *g, const int *ids, const T *__restrict__ v) {
  const int id = ids[threadIdx.x];
  for (int ch = 0; ch < C; ++ch)
    atomicAdd(&g[id * (C + 1) + ch], v[ch]);
  ADD1(&g[id * (C + 1) + C], T(1));
}
template __global__ void channels<float, 3>(float *, const int *, const float *);
template __global__ void channels<double, 1>(double *, const int *, const double *);

// float2 in one instantiation, a double pair in the other: the type of `.x`
// has no single spelling.
struct Double2 { double x, y; };
// CHECK: atomicAdd(&g[id].x, v);
template <typename V, typename S>
__global__ void vectors(V *g, const int *ids, S v) {
  const int id = ids[threadIdx.x];
  atomicAdd(&g[id].x, v);
  atomicAdd(&g[id].y, v);
}
template __global__ void vectors<float2, float>(float2 *, const int *, float);
template __global__ void vectors<Double2, double>(Double2 *, const int *, double);

template <typename T> struct Traits { using grad_t = T; };
// CHECK: atomicAdd(&g[id], v);
template <typename T>
__global__ void nested(typename Traits<T>::grad_t *g, const int *ids, T v) {
  const int id = ids[threadIdx.x];
  atomicAdd(&g[id], v);
}
template __global__ void nested<float>(float *, const int *, float);

// REPORT: unchanged atomicAdd in vectors {{.*}}DW0036 dependent-element-type
// REPORT: unchanged atomicAdd in vectors {{.*}}DW0036 dependent-element-type
// REPORT: unchanged atomicAdd in nested {{.*}}DW0036 dependent-element-type
// REPORT: group channels#0: batched (serial{{.*}}) key=id type=T sites=2 slots=C + 1
