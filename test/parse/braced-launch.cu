// A braced launch configuration `<<<grid, {16, 4, 4}>>>`: nvcc reads the
// list as a dim3, Clang's launch grammar has no braced lists. The output
// keeps the braces.
// REQUIRES: cuda-sdk
// RUN: %distwar-rewrite %s -o %t.cu --report --report-file=%t.txt --
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void backward(float *g, float *h, const int *id, const float *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[id[i]], v[i]);
  atomicAdd(&h[id[i]], v[i]);
}

void launch(float *g, float *h, const int *id, const float *v, dim3 grid,
            cudaStream_t s) {
  // CHECK: backward<<<grid, {16, 4, 4}>>>(g, h, id, v);
  backward<<<grid, {16, 4, 4}>>>(g, h, id, v);
  // CHECK: backward<<<{2, 2}, {32}, 0, s>>>(g, h, id, v);
  backward<<<{2, 2}, {32}, 0, s>>>(g, h, id, v);
  // CHECK: backward<<<dim3{8}, {}>>>(g, h, id, v);
  backward<<<dim3{8}, {}>>>(g, h, id, v);
}

// REPORT: 2 atomic site(s), 1 group(s), rewritten
