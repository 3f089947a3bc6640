// What shared-memory atomics compile to on the target (bench/RESULTS.md,
// "Block-level accumulation"): build with
//   nvcc -arch=sm_90 -cubin -o probe.cubin bench/shared_atomics_sass.cu
//   cuobjdump -sass probe.cubin
// and read the instruction each function's atomic became: a native ATOMS.ADD
// or a loop around ATOMS.CAS. Nothing here runs.

// A float add whose result is unused (what gradient accumulation does).
__global__ void sharedFloatAdd(float *out, const float *in, const int *idx) {
  __shared__ float s[256];
  s[threadIdx.x] = 0.f;
  __syncthreads();
  atomicAdd(&s[idx[threadIdx.x] & 255], in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// A float add whose result is used.
__global__ void sharedFloatAddResult(float *out, const float *in,
                                     const int *idx) {
  __shared__ float s[256];
  s[threadIdx.x] = 0.f;
  __syncthreads();
  const float old = atomicAdd(&s[idx[threadIdx.x] & 255], in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + old;
}

// An int add and a compare-and-swap (the table's claim of an entry).
__global__ void sharedIntAddAndCas(int *out, const int *idx) {
  __shared__ int s[256];
  s[threadIdx.x] = -1;
  __syncthreads();
  atomicAdd(&s[idx[threadIdx.x] & 255], 1);
  const int old = atomicCAS(&s[(idx[threadIdx.x] >> 8) & 255], -1, 7);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + old;
}

// For comparison: a float add to global memory with the result unused.
__global__ void globalFloatAdd(float *out, const float *in, const int *idx) {
  atomicAdd(&out[idx[threadIdx.x]], in[threadIdx.x]);
}
