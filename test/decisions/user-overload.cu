// A file that declares its own atomicAdd for a type CUDA has none for (as
// half-precision torch code does) and instantiates one template for float
// and for that type: every atomic of the template is in the report, left
// alone with DW0059 (the Half instantiation calls the program's function,
// and one template is rewritten for all its instantiations or none). A
// kernel that is no template keeps its CUDA atomicAdd and is batched; so is
// a template no user overload reaches.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %distwar-rewrite --no-cuda-sdk %s --variant=floor --report --report-file=%t.floor.txt -- %shim > %t.floor.cu
// RUN: %FileCheck %s --check-prefix=FLOOR < %t.floor.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.floor.cu %}

// CHECK: user-overload.cu:30:5: unchanged atomicAdd in backward {{.*}}type=scalar_t [DW0059 user-overload
// CHECK: user-overload.cu:31:5: unchanged atomicAdd in backward {{.*}}type=scalar_t [DW0059 user-overload
// CHECK: group plain#0: batched
// FLOOR: user-overload.cu:30:5: unchanged atomicAdd in backward
// FLOOR: user-overload.cu:31:5: unchanged atomicAdd in backward

struct Half {
  unsigned short bits;
};
__device__ inline void atomicAdd(Half *address, Half val) { (void)address; }

template <typename scalar_t>
__global__ void backward(const int *ids, scalar_t *g, scalar_t v, int n) {
  for (int j = 0; j < n; ++j) {
    const int id = ids[j * 32 + threadIdx.x % 32];
    atomicAdd(&g[2 * id], v);
    atomicAdd(&g[2 * id + 1], v);
  }
}
template __global__ void backward<float>(const int *, float *, float, int);
template __global__ void backward<Half>(const int *, Half *, Half, int);

__global__ void plain(const int *ids, float *g, float v, int n) {
  for (int j = 0; j < n; ++j) {
    const int id = ids[j * 32 + threadIdx.x % 32];
    atomicAdd(&g[2 * id], v);
    atomicAdd(&g[2 * id + 1], v);
  }
}
