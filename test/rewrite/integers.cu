// Integer atomics (results unused, so batched sums stay exact), double.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void counters(int *hits, unsigned *uhits,
                         unsigned long long *bytes, double *acc, int id) {
  // One group per element type.
  // CHECK: ::distwar::Batch<int, 1> distwar_batch0; distwar_batch0.set(0, &hits[id], 1); ::distwar::reduceSerial(distwar_batch0, id, DISTWAR_SITE_THRESHOLD(distwar_sites_integers_cu, 0));
  atomicAdd(&hits[id], 1);
  // CHECK-NEXT: ::distwar::Batch<unsigned int, 1> distwar_batch1; distwar_batch1.set(0, &uhits[id], 2u); ::distwar::reduceSerial(distwar_batch1, id, DISTWAR_SITE_THRESHOLD(distwar_sites_integers_cu, 1));
  atomicAdd(&uhits[id], 2u);
  // CHECK-NEXT: ::distwar::Batch<unsigned long long, 1> distwar_batch2; distwar_batch2.set(0, &bytes[id], 4ull); ::distwar::reduceSerial(distwar_batch2, id, DISTWAR_SITE_THRESHOLD(distwar_sites_integers_cu, 2));
  atomicAdd(&bytes[id], 4ull);
  // CHECK-NEXT: ::distwar::Batch<double, 1> distwar_batch3; distwar_batch3.set(0, &acc[id], 0.5); ::distwar::reduceSerial(distwar_batch3, id, DISTWAR_SITE_THRESHOLD(distwar_sites_integers_cu, 3));
  atomicAdd(&acc[id], 0.5);
}
