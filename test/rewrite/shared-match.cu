// Serial groups one after another in one block, keyed by one variable that
// nothing assigns from the first group to the last (a float batch and an
// int counter of one primitive), share one key match: the first keeps it in
// a KeptPeers, the later ones reuse it when the same lanes call them
// (checked at run time). Where the key may change in between, or the groups
// lie in different blocks, each group matches on its own.
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: grep -v "^ *//" %t.cu | %FileCheck %s --check-prefix=OUT
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.auto.txt -- %shim > %t.auto.cu
// RUN: %FileCheck %s --check-prefix=AUTO < %t.auto.txt
// RUN: %if nvcc %{ %nvcc-check %t.cu %}
// RUN: %if nvcc %{ %nvcc-check %t.auto.cu %}

// CHECK: group chain#0: batched (serial) key=id type=float sites=2 slots=2{{$}}
// CHECK: group chain#1: batched (serial) key=id type=int sites=1 slots=1 match-of=chain#0{{$}}
// CHECK: group chain#2: batched (serial) key=id type=double sites=1 slots=1 match-of=chain#0{{$}}
// OUT-LABEL: void chain(
// OUT: ::distwar::KeptPeers distwar_peers0;
// OUT: ::distwar::keepPeers(distwar_peers0));
// OUT: ::distwar::reusePeers(distwar_peers0));
// OUT: ::distwar::reusePeers(distwar_peers0));
__global__ void chain(const int *ids, float *g, int *hits, double *acc, int n,
                      float w) {
  for (int k = 0; k < n; ++k) {
    const int id = ids[k * 32 + threadIdx.x % 32];
    atomicAdd(&g[id * 2], w);
    atomicAdd(&g[id * 2 + 1], -w);
    atomicAdd(&hits[id], 1);
    atomicAdd(&acc[id], 0.5);
  }
}

// A key assigned before the groups and after them in each pass (declared
// without an initialiser, as Pulsar reads its sphere id through a macro):
// the chain's match is kept anew at each pass's first group, so it chains.
// CHECK: group assigned#0: batched (serial) key=key type=float sites=1 slots=1{{$}}
// CHECK: group assigned#1: batched (serial) key=key type=int sites=1 slots=1 match-of=assigned#0{{$}}
// OUT-LABEL: void assigned(
// OUT: ::distwar::keepPeers(distwar_peers0));
// OUT: ::distwar::reusePeers(distwar_peers0));
// OUT-LABEL: void between(
__global__ void assigned(const int *ids, float *g, int *hits, int n, float w) {
  int id = ids[threadIdx.x];
  for (int k = 0; k < n; ++k) {
    int key;
    key = ids[(id + k) % 32];
    atomicAdd(&g[key], w);
    atomicAdd(&hits[key], 1);
    id = ids[key];
  }
}

// A key assigned between the groups: each matches.
// CHECK: group between#0: batched (serial) key=key type=float sites=1 slots=1{{$}}
// CHECK: group between#1: batched (serial) key=key type=int sites=1 slots=1{{$}}
// OUT-NOT: Peers
// OUT-LABEL: void escaped(
__global__ void between(const int *ids, float *g, int *hits, int n, float w) {
  for (int k = 0; k < n; ++k) {
    int key = ids[k];
    atomicAdd(&g[key], w);
    key = ids[key];
    atomicAdd(&hits[key], 1);
  }
}

// A key whose address escapes (before the groups): a callee may change it
// where no statement names it.
// CHECK: group escaped#0: batched (serial) key=id type=float sites=1 slots=1{{$}}
// CHECK: group escaped#1: batched (serial) key=id type=int sites=1 slots=1{{$}}
// OUT-NOT: Peers
// OUT-LABEL: void blocks(
__device__ void next(int *id) { *id += 1; }
__global__ void escaped(const int *ids, float *g, int *hits, float w) {
  int id = ids[threadIdx.x];
  next(&id);
  atomicAdd(&g[id], w);
  atomicAdd(&hits[id], 1);
}

// Groups in different blocks (one under a per-lane test): each matches.
// CHECK: group blocks#0: batched (serial) key=id type=float sites=1 slots=1{{$}}
// CHECK: group blocks#1: batched (serial) key=id type=int sites=1 slots=1{{$}}
// OUT-NOT: Peers
// OUT-LABEL: void expression(
__global__ void blocks(const int *ids, float *g, int *hits, float w) {
  const int id = ids[threadIdx.x];
  if (w > id) {
    atomicAdd(&g[id], w);
  }
  atomicAdd(&hits[id], 1);
}

// A key that is an expression, not a variable: each matches.
// CHECK: group expression#0: batched (serial) key=ids[k] type=float sites=1 slots=1{{$}}
// CHECK: group expression#1: batched (serial) key=ids[k] type=int sites=1 slots=1{{$}}
// OUT-NOT: Peers
// OUT-LABEL: void uniform(
__global__ void expression(const int *ids, float *g, int *hits, float w,
                           int k) {
  atomicAdd(&g[ids[k]], w);
  atomicAdd(&hits[ids[k]], 1);
}

// Under auto, a key the warp shares is a butterfly (no match to share);
// a per-lane key stays serial and chains as before.
// AUTO: group chain#0: batched (serial; not butterfly: DW0026 key-varies) key=id type=float sites=2 slots=2{{$}}
// AUTO: group chain#1: batched (serial; not butterfly: DW0026 key-varies) key=id type=int sites=1 slots=1 match-of=chain#0{{$}}
// AUTO: group uniform#0: batched (butterfly-uniform) key=b type=float sites=1 slots=1{{$}}
// AUTO: group uniform#1: batched (butterfly-uniform) key=b type=int sites=1 slots=1{{$}}
__global__ void uniform(float *g, int *hits, float w) {
  const int b = blockIdx.x;
  atomicAdd(&g[b], w);
  atomicAdd(&hits[b], 1);
}
