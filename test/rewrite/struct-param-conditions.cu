// A condition that reads only kernel parameters (members of by-value struct
// parameters included), constants and literals is grid-uniform: the field
// under it joins its group as a conditional field (tracked: the address is
// null where the condition is false). Stores through the struct's pointer
// members do not change the struct; stores into the struct itself (a member,
// a member array, a non-const method) do, and the field under such a
// condition becomes a LaneSet field (its presence shared across the lanes of
// a key, its condition not repeated at the reduction).
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %FileCheck %s --check-prefix=OUT < %t.cu
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

struct Camera {
  bool orthogonal;
  int flags[2];
  __device__ void toggle() { orthogonal = !orthogonal; }
  __device__ bool isOrtho() const { return orthogonal; }
};
struct Args {
  Camera cam;
  float *ga, *gb, *gc;
  const int *ids;
  int n;
};

__global__ void nestedMember(const Args p) {
  int i = p.ids[threadIdx.x];
  atomicAdd(&p.ga[i], 1.f);
  if (!p.cam.orthogonal && p.cam.flags[1] > 2)
    atomicAdd(&p.gb[i], 2.f);
  atomicAdd(&p.gc[i], 3.f);
}
// CHECK-DAG: group nestedMember#0: batched (serial) key=i type=float sites=3 slots=3
// OUT: ::distwar::Fields<float, 3, ::distwar::AlwaysSet<0, 1>, ::distwar::AlwaysSet<2, 3>> distwar_batch0
// OUT: if (!p.cam.orthogonal && p.cam.flags[1] > 2)
// OUT: {{^}} distwar_batch0.set(1, &p.gb[i], 2.f);

__global__ void memberWritten(Args p) {
  int i = p.ids[threadIdx.x];
  p.cam.orthogonal = i > 3;
  atomicAdd(&p.ga[i], 1.f);
  if (!p.cam.orthogonal)
    atomicAdd(&p.gb[i], 2.f);
  atomicAdd(&p.gc[i], 3.f);
}
// CHECK-DAG: group memberWritten#0: batched (serial) key=i type=float sites=3 slots=3
// OUT: ::distwar::Fields<float, 3, ::distwar::AlwaysSet<0, 1>, ::distwar::LaneSet<1, 2>, ::distwar::AlwaysSet<2, 3>> distwar_batch0
// OUT: if (distwar_slot == 1) return &p.gb[distwar_key0];

__global__ void memberArrayWritten(Args p) {
  int i = p.ids[threadIdx.x];
  p.cam.flags[1] = i;
  atomicAdd(&p.ga[i], 1.f);
  if (p.cam.flags[1] > 2)
    atomicAdd(&p.gb[i], 2.f);
  atomicAdd(&p.gc[i], 3.f);
}
// CHECK-DAG: group memberArrayWritten#0: batched (serial) key=i type=float sites=3 slots=3
// OUT: ::distwar::LaneSet<1, 2>

__global__ void nonConstMethod(Args p) {
  int i = p.ids[threadIdx.x];
  if (i > 3)
    p.cam.toggle();
  atomicAdd(&p.ga[i], 1.f);
  if (p.cam.isOrtho())
    atomicAdd(&p.gb[i], 2.f);
  atomicAdd(&p.gc[i], 3.f);
}
// CHECK-DAG: group nonConstMethod#0: batched (serial) key=i type=float sites=3 slots=3
// OUT: ::distwar::LaneSet<1, 2>

// The same holds for a key that reads arithmetic members of the struct
// (`p.n`): the atomics store through `p.ga`, which leaves `p.n` as it is. A
// store into the struct between the sites changes it (DW0014), and a key
// that loads through one of its pointers (`p.ids[j]`) may be changed by the
// group's own stores through the others.
__global__ void memberInKey(const Args p, const float *x) {
  for (int k = 0; k < p.n; ++k) {
    const int i = p.ids[threadIdx.x + k];
    for (int c = 0; c < p.n; ++c)
      atomicAdd(&p.ga[i * p.n + c], x[c]);
  }
}
// CHECK-DAG: group memberInKey#0: batched (serial) key=i * p.n type=float sites=1 slots=distwar_trip

__global__ void memberInKeyWritten(Args p, const float *x) {
  const int i = p.ids[threadIdx.x];
  atomicAdd(&p.ga[i * p.n], x[0]);
  p.n = 2;
  atomicAdd(&p.ga[i * p.n + 1], x[1]);
}
// CHECK-DAG: group memberInKeyWritten@{{[0-9]+}}: unchanged {{.*}}[DW0014 key-modified

__global__ void pointerMemberInKey(const Args p, const float *x) {
  const int j = threadIdx.x;
  atomicAdd(&p.ga[p.ids[j]], x[0]);
  atomicAdd(&p.gb[p.ids[j]], x[1]);
}
// CHECK-DAG: group pointerMemberInKey@{{[0-9]+}}: unchanged {{.*}}[DW0014 key-modified
