// Minimal CUDA declarations for hermetic tests: parse with
//   distwar-rewrite --no-cuda-sdk FILE -- -include cuda_shim.h
// Rewritten outputs do not include this file, so nvcc compiles them with the
// real SDK.
#ifndef DISTWAR_TEST_CUDA_SHIM_H
#define DISTWAR_TEST_CUDA_SHIM_H
// As the SDK's headers are: the tool recognises CUDA's atomics and math
// functions by their declarations in system headers.
#pragma clang system_header

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

#include <__clang_cuda_builtin_vars.h>

typedef unsigned long size_t;
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1)
      : x(x), y(y), z(z) {}
};
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0,
                                 void *stream = 0);
struct float2 { float x, y; };
struct float3 { float x, y, z; };
struct float4 { float x, y, z, w; };
struct int2 { int x, y; };
struct uint2 { unsigned x, y; };
struct __half { unsigned short x; };

__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);
__device__ int atomicAdd(int *address, int val);
__device__ unsigned int atomicAdd(unsigned int *address, unsigned int val);
__device__ unsigned long long atomicAdd(unsigned long long *address,
                                        unsigned long long val);
__device__ __half atomicAdd(__half *address, __half val);
__device__ float2 atomicAdd(float2 *address, float2 val);
__device__ float4 atomicAdd(float4 *address, float4 val);
__device__ float atomicAdd_block(float *address, float val);
__device__ float atomicAdd_system(float *address, float val);
__device__ int atomicSub(int *address, int val);
__device__ float atomicExch(float *address, float val);

__device__ float __shfl_sync(unsigned mask, float var, int src, int w = 32);
__device__ float __shfl_up_sync(unsigned mask, float var, unsigned d, int w = 32);
__device__ float __shfl_down_sync(unsigned mask, float var, unsigned d,
                                  int w = 32);
__device__ float __shfl_xor_sync(unsigned mask, float var, int m, int w = 32);
__device__ unsigned __activemask();
__device__ unsigned __match_any_sync(unsigned mask, int value);

// The read-only data cache's loads, as CUDA's headers declare them.
__device__ int __ldg(const int *ptr);
__device__ float __ldg(const float *ptr);
__device__ uint2 __ldg(const uint2 *ptr);

__device__ void __syncthreads();
__device__ int __syncthreads_count(int predicate);
__device__ float sqrtf(float);
__device__ float expf(float);
__device__ float fminf(float, float);
__device__ float fmaxf(float, float);
__device__ int min(int, int);
__device__ int max(int, int);
__device__ inline float2 make_float2(float x, float y) { return {x, y}; }
__device__ inline float3 make_float3(float x, float y, float z) {
  return {x, y, z};
}
__device__ void printf_like(const char *);

// What `assert` calls in device code, as CUDA's headers declare it.
extern "C" __device__ void __assert_fail(const char *, const char *, unsigned,
                                         const char *);
#endif
