// Launches spelled `<< <` ... `>> >` (as Visual Studio formats them, and the
// 3DGS rasterizers keep them): nvcc accepts blanks or comments between `<<`
// and `<` on one line, and anything blank between `>>` and `>`; Clang only
// reads `<<<`. The parse sees them joined; the output keeps the user's
// spelling.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s -o %t.cu --report --report-file=%t.txt --
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %distwar-rewrite %t.cu -- | diff %t.cu -

__global__ void backward(float *g, float *h, const int *id, const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], 2.f * v[i]);
}

template <typename T> struct Pair {};
// A nested template closed `> >` is not a launch.
using Nested = Pair<Pair<Pair<int>> >;

void launch(float *g, float *h, const int *id, const float *v, int n) {
  // CHECK: backward << <(n + 255) / 256, 256 >> > (g, h, id, v);
  backward << <(n + 255) / 256, 256 >> > (g, h, id, v);
  // CHECK: backward<<	</*32 lanes*/1, 32>>
  // CHECK-NEXT: >(g, h, id, v);
  backward<<	</*32 lanes*/1, 32>>
      >(g, h, id, v);
  // A shift inside the configuration is not its end.
  // CHECK: backward << <n >> 8, 256 >> > (g, h, id, v);
  backward << <n >> 8, 256 >> > (g, h, id, v);
}

// REPORT: 2 atomic site(s), 1 group(s), rewritten
