//===- DiffTestAbi.h - What generated kernels and the harness share -------===//
//
// The generated translation units (gen_difftest.py) include this header; so
// does the harness. A kernel's own parameters vary (aliases, nullable
// outputs, templates); each kernel comes with a host launcher, in its own
// translation unit, that maps the harness's buffers onto them.
//
// Compiled with DIFFTEST_COUNT (the plain sources only, never rewritten),
// every float or double atomicAdd adds 1 instead of its value: the harness
// learns how many terms each element sums, which bounds the rounding error
// of any summation order (the tolerance's floor). Integer atomics keep their
// values there. Generated kernels never let a value read from a destination
// steer control flow or keys, so the count run takes the plain run's path.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TEST_GPU_DIFFTEST_ABI_H
#define DISTWAR_TEST_GPU_DIFFTEST_ABI_H

#include <cuda_runtime.h>

// Sizes the generated kernels rely on (literal macros, so that loop bounds
// stay compile-time constants for the tool).
#define DT_KEYS 64     // primitives per gradient buffer; keys in [0, DT_KEYS)
#define DT_TRIPS 16    // per-lane data per thread: x[tid * DT_TRIPS + j]
#define DT_TILE 256    // shared tile of ids, as in the 3DGS backward
#define DT_TCAP 1536   // thread capacity of every launch shape
#define DT_IDS DT_TCAP // ids[]: values in [0, DT_KEYS)
#define DT_XS (DT_TCAP * DT_TRIPS)

namespace difftest {

enum Elem : int { kF32, kF64, kI32, kU32, kU64 };

/// Atomic: gradients and counters, start from random non-negative values,
/// compared with the tolerance (floats) or exactly (integers). Store: plain
/// per-thread outputs, poisoned (0xff bytes) before each run, compared bit
/// for bit.
enum Role : int { kAtomic, kStore };

struct BufferSpec {
  const char *name;
  Elem elem;
  Role role;
  int count;     // elements of `elem`
  bool optional; // passed as nullptr in the runs without optional outputs
};

/// Inputs every kernel may read: x[DT_XS] and thr[DT_TCAP] in [0, 1),
/// ids[DT_IDS] in [0, DT_KEYS), trips[DT_TCAP] in [0, DT_TRIPS] (per-lane
/// loop bounds), n in [DT_TRIPS / 2, DT_TRIPS], npix <= threads (edge tiles).
struct Inputs {
  const float *x;
  const float *thr;
  const int *ids;
  const int *trips;
  int n;
  int npix;
};

struct LaunchArgs {
  Inputs in;
  void *const *out; // one device buffer per BufferSpec, in order
  bool withOptional;
  dim3 grid, block;
  // Dynamic shared memory of the launch, which no kernel uses: 0, or in the
  // multi-tile shape (Worker.cpp) enough that few blocks fit on an SM, so
  // that a launch with dynamic tiles has more tiles than blocks.
  size_t shared;
};

/// Launches kernel `local` of one translation unit (asynchronously).
using LaunchFn = void (*)(int local, const LaunchArgs &);

/// Called instead of a launch by the stub of a translation unit that nvcc
/// rejected (compile_or_stub.sh); the harness reports it as a failure.
void notCompiled(const char *why);

struct KernelSpec {
  int index;            // global index: gen_difftest.py --only <index>
  const char *name;     // k<index> (fixed cases: k<index>_<repro>)
  int tu;               // translation unit
  int local;            // index within the translation unit
  const char *features; // comma-separated, as in the coverage table
  const BufferSpec *bufs;
  int nbufs;
  bool hasOptional;
  int minBlock; // threads a block needs (d5 loads a shared array in its
                // first warp): smaller launch shapes are not run
};

} // namespace difftest

#if defined(DIFFTEST_COUNT) && defined(__CUDACC__)
// Declared before the macro, so their own calls reach CUDA's atomicAdd.
__device__ inline float difftest_count_add(float *p, float) {
  return ::atomicAdd(p, 1.0f);
}
__device__ inline double difftest_count_add(double *p, double) {
  return ::atomicAdd(p, 1.0);
}
__device__ inline int difftest_count_add(int *p, int v) {
  return ::atomicAdd(p, v);
}
__device__ inline unsigned difftest_count_add(unsigned *p, unsigned v) {
  return ::atomicAdd(p, v);
}
__device__ inline unsigned long long difftest_count_add(unsigned long long *p,
                                                        unsigned long long v) {
  return ::atomicAdd(p, v);
}
#define atomicAdd difftest_count_add
#endif

#endif // DISTWAR_TEST_GPU_DIFFTEST_ABI_H
