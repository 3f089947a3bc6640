//===- TileReturnsTest.cpp - may a lane's return end its tile instead -----===//

#include "Decide/TileReturns.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The offset of the return returnBeforeBarrier finds in kernel k of
/// \p Code, or -1 for none.
/// The offset of the statement barrierNotEveryLaneReaches finds in kernel
/// k of \p Code, or -1 for none.
long skippedBarrier(const AnnotatedCode &Code) {
  Parsed P = parse(Code.code());
  const clang::Stmt *S =
      barrierNotEveryLaneReaches(P.context(), function(P.context(), "k"));
  return S ? long(offsetOf(P.context(), S->getBeginLoc())) : -1;
}

long offendingReturn(const AnnotatedCode &Code) {
  Parsed P = parse(Code.code());
  const clang::ReturnStmt *R =
      returnBeforeBarrier(P.context(), function(P.context(), "k"));
  return R ? long(offsetOf(P.context(), R->getBeginLoc())) : -1;
}

TEST(TileReturns, NoBarrierEveryReturnEndsTheTile) {
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n)
        return;
      v[i] = 0;
    })cu");
  EXPECT_EQ(offendingReturn(Code), -1);
}

TEST(TileReturns, ALaneReturnBeforeABarrierIsRefused) {
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, int n) {
      __shared__ float s[128];
      int i = blockIdx.x * 128 + threadIdx.x;
      if (i >= n)
        $r^return;
      s[threadIdx.x] = v[i];
      __syncthreads();
      v[i] = s[127 - threadIdx.x];
    })cu");
  EXPECT_EQ(offendingReturn(Code), long(Code.point("r")));
}

TEST(TileReturns, ABlockUniformReturnBeforeABarrierIsAccepted) {
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, int tiles) {
      __shared__ float s[128];
      if (blockIdx.x >= tiles)
        return;
      s[threadIdx.x] = v[blockIdx.x * 128 + threadIdx.x];
      __syncthreads();
      v[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
    })cu");
  EXPECT_EQ(offendingReturn(Code), -1);
}

TEST(TileReturns, AReturnAfterTheLastBarrierIsAccepted) {
  // Lanes part at `if (i < n)` before the barrier, but are back together
  // at it: only the branch that is still open at the return counts.
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, int n) {
      __shared__ float s[128];
      int i = blockIdx.x * 128 + threadIdx.x;
      float x = 0;
      if (i < n)
        x = v[i];
      for (int r = 0; r < n; ++r) {
        s[threadIdx.x] = x;
        __syncthreads();
      }
      if (i >= n)
        return;
      v[i] = s[127 - threadIdx.x];
    })cu");
  EXPECT_EQ(offendingReturn(Code), -1);
}

TEST(TileReturns, AReturnInALoopWithABarrierIsRefused) {
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, int rounds) {
      __shared__ float s[128];
      for (int r = 0; r < rounds; ++r) {
        s[threadIdx.x] = v[r * 128 + threadIdx.x];
        __syncthreads();
        if (s[threadIdx.x] < 0)
          $r^return;
      }
    })cu");
  EXPECT_EQ(offendingReturn(Code), long(Code.point("r")));
}

TEST(TileReturns, ABarrierInACalledFunctionCounts) {
  AnnotatedCode Code(R"cu(
    __device__ void stage() { __syncthreads(); }
    __global__ void k(float *v, int n) {
      if (threadIdx.x >= n)
        $r^return;
      stage();
    })cu");
  EXPECT_EQ(offendingReturn(Code), long(Code.point("r")));
}

TEST(TileReturns, AWarpCollectiveAfterALaneReturnIsRefused) {
  // The original's exited lane is not waited for at a full-mask shuffle; a
  // lane waiting at the tile loop's barrier would be.
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, int n) {
      int i = blockIdx.x * 32 + threadIdx.x;
      if (i >= n)
        $r^return;
      v[i] = __shfl_xor_sync(0xffffffffu, v[i], 1);
    })cu");
  EXPECT_EQ(offendingReturn(Code), long(Code.point("r")));
}

TEST(TileReturns, ALambdasReturnIsItsOwn) {
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, int n) {
      auto f = [&](int i) { if (i < 0) return 0.f; return v[i]; };
      __syncthreads();
      v[threadIdx.x] = f(n);
    })cu");
  EXPECT_EQ(offendingReturn(Code), -1);
}

TEST(TileReturns, LanesFallingOffPastABarrierAreRefused) {
  // No return: the lanes past the end reach the body's end while the
  // others wait at the barrier.
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, int n) {
      __shared__ float s[128];
      int i = blockIdx.x * 128 + threadIdx.x;
      if (i < n) {
        s[threadIdx.x] = v[i];
        $b^__syncthreads();
        v[i] = s[127 - threadIdx.x];
      }
    })cu");
  EXPECT_EQ(offendingReturn(Code), -1);
  EXPECT_EQ(skippedBarrier(Code), long(Code.point("b")));
}

TEST(TileReturns, ALaneBreakOutOfABarriersLoopIsRefused) {
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v, const int *c) {
      int i = blockIdx.x * 128 + threadIdx.x;
      for (int r = 0; r < 8; ++r) {
        if (r >= c[i])
          break;
        $b^__syncthreads();
        v[i] += 1;
      }
    })cu");
  EXPECT_EQ(skippedBarrier(Code), long(Code.point("b")));
}

TEST(TileReturns, RoundsOfALoadedCountEndedByTheBlocksVoteAreAccepted) {
  // The 3DGS render's shape: the bound loaded from read-only memory at the
  // block's place, a break on __syncthreads_count; lanes part only where
  // no barrier depends on it.
  AnnotatedCode Code(R"cu(
    __global__ void k(const uint2 *__restrict__ spans, float *v) {
      __shared__ float s[128];
      const uint2 span = spans[blockIdx.x];
      const int rounds = (span.y - span.x + 127) / 128;
      bool done = threadIdx.x >= span.y - span.x;
      for (int r = 0; r < rounds; ++r) {
        if (__syncthreads_count(done) == 128)
          break;
        if (span.x + r * 128 + threadIdx.x < span.y)
          s[threadIdx.x] = 1;
        __syncthreads();
        for (int j = 0; !done && j < 128; ++j)
          done = s[j] > 2;
      }
      v[blockIdx.x * 128 + threadIdx.x] = done;
    })cu");
  EXPECT_EQ(skippedBarrier(Code), -1);
}

TEST(TileReturns, AWarpsVoteDoesNotDecideABlockBarrier) {
  // The warp's lanes are the same in a warp, not across the block's warps
  // (the last may be partial).
  AnnotatedCode Code(R"cu(
    __global__ void k(float *v) {
      unsigned m = __activemask();
      if (m == 0xffffffffu)
        $b^__syncthreads();
      v[threadIdx.x] = m;
    })cu");
  EXPECT_EQ(skippedBarrier(Code), long(Code.point("b")));
}

} // namespace
