// Integer atomics (results unused, so batched sums stay exact), double.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.cu
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

__global__ void counters(int *hits, unsigned *uhits,
                         unsigned long long *bytes, double *acc, int id) {
  // One group per element type; all four have the key `id`, which never
  // changes, so the later ones reuse the first one's key match.
  // CHECK: ::distwar::Fields<int, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch0;
  // CHECK: ::distwar::KeptPeers distwar_peers0;
  // CHECK: distwar_batch0.set(0, &hits[id], 1);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch0,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_integers_cu,
  // CHECK: 0),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: int * {
  // CHECK: if (distwar_slot == 0)
  // CHECK: return &hits[id];
  // CHECK: return nullptr;
  // CHECK: },
  // CHECK: ::distwar::keepPeers(distwar_peers0));
  atomicAdd(&hits[id], 1);
  // CHECK: ::distwar::Fields<unsigned int, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1;
  // CHECK: distwar_batch1.set(0, &uhits[id], 2u);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch1,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_integers_cu,
  // CHECK: 1),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: unsigned int * {
  // CHECK: if (distwar_slot == 0)
  // CHECK: return &uhits[id];
  // CHECK: return nullptr;
  // CHECK: },
  // CHECK: ::distwar::reusePeers(distwar_peers0));
  atomicAdd(&uhits[id], 2u);
  // CHECK: ::distwar::Fields<unsigned long long,
  // CHECK: 1,
  // CHECK: ::distwar::AlwaysSet<0,
  // CHECK: 1>>
  // CHECK: distwar_batch2;
  // CHECK: distwar_batch2.set(0, &bytes[id], 4ull);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch2,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_integers_cu,
  // CHECK: 2),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: unsigned long long * {
  // CHECK: if (distwar_slot == 0)
  // CHECK: return &bytes[id];
  // CHECK: return nullptr;
  // CHECK: },
  // CHECK: ::distwar::reusePeers(distwar_peers0));
  atomicAdd(&bytes[id], 4ull);
  // CHECK: ::distwar::Fields<double, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch3;
  // CHECK: distwar_batch3.set(0, &acc[id], 0.5);
  // CHECK: ::distwar::reduceSerial(
  // CHECK: distwar_batch3,
  // CHECK: id,
  // CHECK: DISTWAR_SITE_THRESHOLD(
  // CHECK: distwar_sites_integers_cu,
  // CHECK: 3),
  // CHECK: [&](int distwar_slot) ->
  // CHECK: double * {
  // CHECK: if (distwar_slot == 0)
  // CHECK: return &acc[id];
  // CHECK: return nullptr;
  // CHECK: },
  // CHECK: ::distwar::reusePeers(distwar_peers0));
  atomicAdd(&acc[id], 0.5);
}
