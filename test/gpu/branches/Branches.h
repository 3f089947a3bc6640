//===- Branches.h - Buffers and launcher of the divergence kernels --------===//
//
// Shared by Branches.cu (compiled once per variant, in the namespace
// DISTWAR_BRANCHES_NS) and the test driver, which calls every variant's
// launcher with the same buffers.
//
//===----------------------------------------------------------------------===//
#ifndef DISTWAR_TEST_GPU_BRANCHES_H
#define DISTWAR_TEST_GPU_BRANCHES_H

namespace dwb {

constexpr int kBlock = 128;       // threads per block
constexpr int kKeysPerBlock = 64; // keys of one block: [b * 64, b * 64 + 64)
constexpr int kIterations = 64;   // n: loop trip count, <= kBlock

/// Device pointers of one launch. Inputs: x[threads * n] (per-lane data,
/// also read as float2 points), thr[threads] (per-lane thresholds in [0, 1)),
/// ids[blocks * kBlock] (keys in [0, keys)). Gradients (atomics) have `keys`
/// elements; gopt may be null (a grid-uniform nullable output). out has
/// threads * n elements, written with plain stores by some kernels.
struct Args {
  const float *x;
  const float *thr;
  const int *ids;
  float *ga, *gb, *gc, *gopt;
  unsigned *cnt;
  int *hits;
  float *out;
  int blocks, n, keys, npix;
};

#define DWB_KERNELS(X)                                                         \
  X(continuesNested)                                                           \
  X(loopTerm)                                                                  \
  X(earlyReturn)                                                               \
  X(earlyReturnKept)                                                           \
  X(thenArm)                                                                   \
  X(elseArm)                                                                   \
  X(elseIfArm)                                                                 \
  X(nestedIfs)                                                                 \
  X(nullableField)                                                             \
  X(speculation)                                                               \
  X(split)                                                                     \
  X(counters)                                                                  \
  X(laneKeysContinue)                                                          \
  X(laneKeysElse)                                                              \
  X(sharedTables)                                                              \
  X(localObjects)                                                              \
  X(uniformElements)                                                           \
  X(gridUniformLocal)                                                          \
  X(templateContinues)                                                         \
  X(localPointer)                                                              \
  X(bothArms)

enum Kernel {
#define DWB_ENUM(name) k_##name,
  DWB_KERNELS(DWB_ENUM)
#undef DWB_ENUM
      kKernelCount
};

} // namespace dwb

#ifdef DISTWAR_BRANCHES_NS
namespace DISTWAR_BRANCHES_NS {
/// Launches kernel `which` on the default stream (asynchronous).
void launch(dwb::Kernel which, const dwb::Args &a);
/// The same for the kernels of Decisions.cu.
void launchDecisions(dwb::Kernel which, const dwb::Args &a);
} // namespace DISTWAR_BRANCHES_NS
#endif

#endif // DISTWAR_TEST_GPU_BRANCHES_H
