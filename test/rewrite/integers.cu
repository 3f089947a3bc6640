// Integer atomics (results unused, so batched sums stay exact), double.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void counters(int *hits, unsigned *uhits,
                         unsigned long long *bytes, double *acc, int id) {
  // One group per element type.
  // CHECK: ::distwar::Fields<int, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0; distwar_batch0.set(0, &hits[id], 1); ::distwar::reduceSerial(distwar_batch0, id, DISTWAR_SITE_THRESHOLD(distwar_sites_integers_cu, 0), [&](int distwar_slot) -> int * { if (distwar_slot == 0) return &hits[id]; return nullptr; });
  atomicAdd(&hits[id], 1);
  // CHECK-NEXT: ::distwar::Fields<unsigned int, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1; distwar_batch1.set(0, &uhits[id], 2u); ::distwar::reduceSerial(distwar_batch1, id, DISTWAR_SITE_THRESHOLD(distwar_sites_integers_cu, 1), [&](int distwar_slot) -> unsigned int * { if (distwar_slot == 0) return &uhits[id]; return nullptr; });
  atomicAdd(&uhits[id], 2u);
  // CHECK-NEXT: ::distwar::Fields<unsigned long long, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch2; distwar_batch2.set(0, &bytes[id], 4ull); ::distwar::reduceSerial(distwar_batch2, id, DISTWAR_SITE_THRESHOLD(distwar_sites_integers_cu, 2), [&](int distwar_slot) -> unsigned long long * { if (distwar_slot == 0) return &bytes[id]; return nullptr; });
  atomicAdd(&bytes[id], 4ull);
  // CHECK-NEXT: ::distwar::Fields<double, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch3; distwar_batch3.set(0, &acc[id], 0.5); ::distwar::reduceSerial(distwar_batch3, id, DISTWAR_SITE_THRESHOLD(distwar_sites_integers_cu, 3), [&](int distwar_slot) -> double * { if (distwar_slot == 0) return &acc[id]; return nullptr; });
  atomicAdd(&acc[id], 0.5);
}
