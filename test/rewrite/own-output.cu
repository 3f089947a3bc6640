// The tool's output is recognised and left alone, whether or not it parses.
// RUN: %distwar-rewrite --no-cuda-sdk %s -- %shim > %t.once.cu
// RUN: %distwar-rewrite --no-cuda-sdk %t.once.cu --report --report-file=%t.txt -- %shim > %t.twice.cu
// RUN: diff %t.once.cu %t.twice.cu
// RUN: %FileCheck %s < %t.txt
// CHECK: [DW0016 already-rewritten: the file is distwar-rewrite output]
// Output that no longer parses (here: a missing runtime macro) is still
// recognised as ours and left alone.
// RUN: %distwar-rewrite --no-cuda-sdk %inputs/rewritten-unparsable.cu -- %shim > %t.bad.cu
// RUN: diff %inputs/rewritten-unparsable.cu %t.bad.cu

__global__ void k(float *a, float *b, int id, float v) {
  atomicAdd(&a[id], v);
  atomicAdd(&b[id], v);
}
