// The kernels of test/cli/diagnostics.test, which checks their line numbers.
__device__ void log_value(float *out, float v) { out[0] = v; }

__global__ void reasons(float *la, float *lb, float *out, int n, float v) {
  for (int i = 0; i < n; ++i) {
    atomicAdd(&la[i], v);
    log_value(out, v);
    atomicAdd(&lb[i], v);
  }
  for (int i = 0; i < n; ++i) {
    atomicAdd(&la[i], v);
    out[i] = v;
    atomicAdd(&lb[i], v);
  }
  for (int i = 0; i < n; ++i) {
    atomicAdd(&la[i], v);
    if (v > 1.f)
      break;
    atomicAdd(&lb[i], v);
  }
  float old = atomicAdd(&la[0], v);
  out[1] = old;
}

__global__ void batched(float *a, float *b, int id, float v) {
  atomicAdd(&a[id], v);
  atomicAdd(&b[id], v);
}

__global__ void serial(float *a, float *b, const int *keys, float v) {
  int k = keys[threadIdx.x];
  atomicAdd(&a[k], v);
  atomicAdd(&b[k], v);
}
