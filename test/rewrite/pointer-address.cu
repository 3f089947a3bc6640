// A pointer passed whole, `atomicAdd(p, v)`, is read as `&p[0]`: where `p`
// is the same in every lane (a kernel's loss accumulator) the warp reduces
// into its one element; where it may differ (a primitive's row computed into
// a local) it is field 0 of the row and joins the row's other fields.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// REPORT-DAG: group intoLoss#0: batched (butterfly-uniform) key=loss type=float sites=1 slots=1
// CHECK-LABEL: void intoLoss(
// CHECK: distwar_key0 = loss;
// CHECK: ::distwar::reduceButterflyUniform(
// CHECK-NOT: atomicAdd(
__global__ void intoLoss(float *loss, const float *x) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  atomicAdd(loss, x[t] * x[t]);
}

// REPORT-DAG: rowFields buffer=row key=row field=[0] slot=0
// REPORT-DAG: rowFields buffer=row key=row field=[1] slot=1
// REPORT-DAG: rowFields buffer=row key=row field=[2] slot=2
// REPORT-DAG: group rowFields#0: batched (serial; not butterfly: DW0026 key-varies) key=row type=float sites=3 slots=3
// CHECK-LABEL: void rowFields(
// CHECK-NOT: atomicAdd(
// CHECK: ::distwar::reduceSerial(
__global__ void rowFields(float *ga, const int *ids,
                          const float *__restrict__ x, int n) {
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int j = 0; j < n; j++) {
    float *row = ga + ids[j] * 3;
    const float v = x[tid * 64 + j];
    atomicAdd(row, v);
    atomicAdd(row + 1, 2.f * v);
    atomicAdd(&row[2], 3.f * v);
  }
}
