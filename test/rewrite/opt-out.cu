// NODISTWAR comments, as clang-tidy's NOLINT: the site on the comment's
// line, on the line after NODISTWARNEXTLINE, or between NODISTWARBEGIN and
// NODISTWAREND stays as written (DW0052), the others of its group batch
// around it (a plain atomicAdd commutes with the deferred ones). A string
// that spells the marker is no comment.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk --variant=floor %s -- %shim 2> /dev/null | %FileCheck %s --check-prefix=FLOOR
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__device__ const char *kNote = "NODISTWAR";

// REPORT-DAG: opt-out.cu:[[@LINE+9]]:{{[0-9]+}}: unchanged atomicAdd in sameLine {{.*}}[DW0052 opted-out:
// REPORT-DAG: opt-out.cu:[[@LINE+10]]:{{[0-9]+}}: unchanged atomicAdd in sameLine {{.*}}[DW0052 opted-out:
// REPORT-DAG: group sameLine#0: batched (serial) key=id type=float sites=2
// CHECK-LABEL: __global__ void sameLine(
// CHECK: distwar_batch0.set(0, &g[id * 4 + 0], v);
// CHECK: atomicAdd(&g[id * 4 + 1], v); // NODISTWAR: kept plain
__global__ void sameLine(float *g, const int *ids, float v) {
  const int id = ids[threadIdx.x];
  atomicAdd(&g[id * 4 + 0], v);
  atomicAdd(&g[id * 4 + 1], v); // NODISTWAR: kept plain
  // NODISTWARNEXTLINE
  atomicAdd(&g[id * 4 + 2], v);
  atomicAdd(&g[id * 4 + 3], v);
}

// REPORT-DAG: opt-out.cu:[[@LINE+10]]:{{[0-9]+}}: unchanged atomicAdd in region {{.*}}[DW0052 opted-out:
// REPORT-DAG: opt-out.cu:[[@LINE+10]]:{{[0-9]+}}: unchanged atomicAdd in region {{.*}}[DW0052 opted-out:
// REPORT-DAG: opt-out.cu:[[@LINE+15]]:{{[0-9]+}}: batched atomicAdd in after
// FLOOR-LABEL: __global__ void region(
// FLOOR: atomicAdd(&g[id * 2 + 0], v);
// FLOOR-LABEL: __global__ void after(
// FLOOR: ::distwar::floorAdd<float>(&g[id * 2 + 0], v);
/* NODISTWARBEGIN: this kernel's order of additions is part of its contract */
__global__ void region(float *g, const int *ids, float v) {
  const int id = ids[threadIdx.x];
  atomicAdd(&g[id * 2 + 0], v);
  atomicAdd(&g[id * 2 + 1], v);
}
// NODISTWAREND

__global__ void after(float *g, const int *ids, float v) {
  const int id = ids[threadIdx.x] + (kNote[0] == 'N');
  atomicAdd(&g[id * 2 + 0], v);
  atomicAdd(&g[id * 2 + 1], v);
}
