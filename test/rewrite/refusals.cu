// Groups that must stay as written, each with its reason code.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report=json --report-file=%t.json -- %shim > %t.cu
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.json

__device__ float helper(float *p, int i) { return p[i]; }
__device__ void log_value(float *out, float v) { out[0] = v; }
// A macro that does more than the atomic cannot be replaced whole.
#define ADD_AND_COUNT(p, v, n) atomicAdd(p, v); ++n

__global__ void refusals(float *da, float *db, float *out, float *la, int counter,
                         float *lb, int n, int id, float v, bool flag) {
  // CHECK: "line": [[@LINE+2]],
  // CHECK: "name": "buffer-accessed-between"
  atomicAdd(&da[id], v);
  float seen = da[id + 1];
  atomicAdd(&db[id], seen);

  // CHECK: "line": [[@LINE+2]],
  // CHECK: "name": "used-result"
  float old = atomicAdd(&da[id], v);
  out[1] = old;

  for (int i = 0; i < n; ++i) {
    // CHECK: "line": [[@LINE+2]],
    // CHECK: "name": "leaves-iteration"
    atomicAdd(&la[i], v);
    if (v > 1.f)
      break;
    atomicAdd(&lb[i], v);
  }

  for (int i = 0; i < n; ++i) {
    // CHECK: "line": [[@LINE+2]],
    // CHECK: "name": "call-between"
    atomicAdd(&la[i], v);
    log_value(out, v);
    atomicAdd(&lb[i], v);
  }

  for (int i = 0; i < n; ++i) {
    // CHECK: "line": [[@LINE+2]],
    // CHECK: "name": "conditional-site"
    atomicAdd(&la[i * 2], v);
    if (const float w = v * threadIdx.x)
      atomicAdd(&la[i * 2 + 1], w);
  }

  for (int i = 0; i < n; ++i) {
    // CHECK: "line": [[@LINE+2]],
    // CHECK: "name": "store-between"
    atomicAdd(&la[i], v);
    out[i] = v;
    atomicAdd(&lb[i], v);
  }

  for (int i = 0; i < n; ++i) {
    int k = i;
    // CHECK: "line": [[@LINE+2]],
    // CHECK: "name": "key-modified"
    atomicAdd(&la[k], v);
    k = k + 1;
    atomicAdd(&lb[k], v);
  }

  // CHECK: "line": [[@LINE+2]],
  // CHECK: "name": "unsupported-atomic"
  atomicAdd_block(&da[id], v);

  // CHECK: "line": [[@LINE+2]],
  // CHECK: "name": "macro-not-statements"
  ADD_AND_COUNT(&da[id], v, counter);

  float *local = flag ? da : db;
  // CHECK: "line": [[@LINE+2]],
  // CHECK: "name": "buffer-not-uniform"
  atomicAdd(&local[id], v);

  for (int ch = 0; ch < n; ++ch) {
    // CHECK: "line": [[@LINE+2]],
    // CHECK: "name": "channel-loop"
    atomicAdd(&la[id * 3 + ch], v);
  }

  for (int i = 0; i < n; ++i) {
    // CHECK: "line": [[@LINE+2]],
    // CHECK: "name": "preprocessor-conditional"
    atomicAdd(&la[i], v);
#if 1
    atomicAdd(&lb[i], v);
#endif
  }
}

__global__ void types(__half *h, float2 *f2, int id, __half hv, float2 fv) {
  // CHECK: "line": [[@LINE+2]],
  // CHECK: "name": "unsupported-type"
  atomicAdd(&h[id], hv);
  // CHECK: "line": [[@LINE+2]],
  // CHECK: "name": "unsupported-type"
  atomicAdd(&f2[id], fv);
}
