// A float helper called with double arguments in a template instantiated for
// double (an optimizer's kernel, written for float first): Clang finds the
// call ambiguous. The error is in the template's text, so the template is
// left as written (DW0060, the note at Clang's error), and so is the kernel
// whose call asked for the double instantiation (the note at that call);
// the other kernels are rewritten. nvcc rejects this input as well, so the
// output is not compiled.
// RUN: %distwar-rewrite --no-cuda-sdk %s -o %t.cu --report=diagnostics --report-file=%t.txt -- %shim 2> %t.err
// RUN: %FileCheck %s --check-prefix=WARN -DFILE=%s --implicit-check-not=error < %t.err
// RUN: %FileCheck %s --check-prefix=REPORT -DFILE=%s < %t.txt
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %s > %t.kept
// RUN: sed -n '/left as written: begin/,/left as written: end/p' %t.cu > %t.out
// RUN: diff %t.kept %t.out
// RUN: %FileCheck %s < %t.cu

// WARN: distwar-rewrite: warning: [[FILE]]:[[#AMBIGUOUS:@LINE+10]]:{{[0-9]+}}: Clang cannot parse this: call to 'dsigmoidvdv' is ambiguous; Clang finds this overload ambiguous where nvcc picks one; a cast of the arguments to the intended parameter types makes it unambiguous for both (3 functions left as written, DW0060 parse-error-in-function)

__device__ float dsigmoidvdv(float v, float dv) { return dv * v * (1.f - v); }
__device__ int dsigmoidvdv(int v, int dv) { return dv * v; }

// left as written: begin
template <typename T>
__global__ void adamStep(T *param, const T *__restrict__ grad, float *stats,
                         const int *id) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T g = dsigmoidvdv(param[i], grad[i]);
  atomicAdd(&stats[id[i] * 2 + 0], float(g));
  atomicAdd(&stats[id[i] * 2 + 1], float(g * g));
}
template __global__ void adamStep<float>(float *, const float *, float *,
                                         const int *);
template __global__ void adamStep<double>(double *, const double *, float *,
                                          const int *);

template <typename T> __device__ T opacityGrad(T v, T dv) {
  return dsigmoidvdv(v, dv);
}

__global__ void opacityStep(double *param, const double *__restrict__ grad,
                            float *stats, const int *id) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double g = opacityGrad(param[i], grad[i]);
  atomicAdd(&stats[id[i] * 2 + 0], float(g));
  atomicAdd(&stats[id[i] * 2 + 1], float(g * g));
}
// left as written: end

// CHECK: __global__ void floatStep(
// CHECK: distwar_batch
__global__ void floatStep(float *param, const float *__restrict__ grad,
                          float *stats, const int *id) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float g = opacityGrad(param[i], grad[i]);
  atomicAdd(&stats[id[i] * 2 + 0], g);
  atomicAdd(&stats[id[i] * 2 + 1], g * g);
}

// REPORT: [[FILE]]:[[#AMBIGUOUS:@LINE-32]]:{{[0-9]+}}: remark: 3 function(s) left as written: Clang reports: call to 'dsigmoidvdv' is ambiguous [DW0060 parse-error-in-function]
// REPORT: [[FILE]]:[[#AMBIGUOUS+1]]:3: remark: atomicAdd left as written: Clang could not parse this function
// REPORT: [[FILE]]:[[#AMBIGUOUS]]:{{[0-9]+}}: note: Clang reports: call to 'dsigmoidvdv' is ambiguous
// REPORT: [[FILE]]:[[#AMBIGUOUS+2]]:3: remark: atomicAdd left as written: Clang could not parse this function
// REPORT: [[FILE]]:[[#AMBIGUOUS+17]]:3: remark: atomicAdd left as written: Clang could not parse this function
// REPORT: [[FILE]]:[[#AMBIGUOUS+16]]:14: note: an instantiation asked for here holds an error: call to 'dsigmoidvdv' is ambiguous
// REPORT: [[FILE]]:{{[0-9]+}}:3: remark: batched 2 atomicAdd
