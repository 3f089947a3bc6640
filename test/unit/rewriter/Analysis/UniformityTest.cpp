//===- UniformityTest.cpp - which keys are the same across a warp ---------===//

#include "Analysis/Uniformity.h"
#include "TestAST.h"
#include "gtest/gtest.h"
#include <string>

using namespace distwar;
using namespace distwar::test;

namespace {

/// The key of the first site, classified in its function.
KeyUniformity classifyFirstKey(Parsed &P) {
  EXPECT_FALSE(P.Sites.empty());
  if (P.Sites.empty())
    return KeyUniformity::Varying;
  UniformityAnalysis U(P.context(), P.Sites[0].Function);
  return U.classifyKey(P.Sites[0].Key);
}

TEST(Uniformity, SharedReadBetweenBarriersAtUniformIndex) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, int n) {
      __shared__ int s[256];
      for (int r = 0; r < n; ++r) {
        __syncthreads();
        s[threadIdx.x] = ids[r * 256 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; ++j)
          atomicAdd(&g[s[j]], 1.f);
      }
    })cu");
  EXPECT_EQ(classifyFirstKey(P), KeyUniformity::Uniform);
}

TEST(Uniformity, SharedReadWithoutSecondBarrierIsOnlyLikely) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const int *ids, int n) {
      __shared__ int s[256];
      for (int r = 0; r < n; ++r) {
        __syncthreads();
        s[threadIdx.x] = ids[r * 256 + threadIdx.x];
        for (int j = 0; j < 256; ++j)
          atomicAdd(&g[s[j]], 1.f);
      }
    })cu");
  EXPECT_EQ(classifyFirstKey(P), KeyUniformity::LikelyUniform);
}

TEST(Uniformity, ThreadIndexAndPerLaneLoads) {
  Parsed Distinct = parse(R"cu(
    __global__ void k(float *g) {
      const int idx = blockIdx.x * blockDim.x + threadIdx.x;
      atomicAdd(&g[idx], 1.f);
    })cu");
  EXPECT_EQ(classifyFirstKey(Distinct), KeyUniformity::Distinct);
  Parsed Varying = parse(R"cu(
    __global__ void k(float *g, const int *__restrict__ ids) {
      const int id = ids[threadIdx.x];
      atomicAdd(&g[id], 1.f);
    })cu");
  EXPECT_EQ(classifyFirstKey(Varying), KeyUniformity::Varying);
  // A counter written under a lane-dependent condition is not uniform.
  Parsed Counter = parse(R"cu(
    __global__ void k(float *g, int n) {
      int c = 0;
      for (int i = 0; i < n; ++i)
        if (threadIdx.x > i)
          c++;
      atomicAdd(&g[c], 1.f);
    })cu");
  EXPECT_EQ(classifyFirstKey(Counter), KeyUniformity::Varying);
}

/// The initialiser of local \p Name, judged grid-uniform in \p Function.
bool gridUniformInit(Parsed &P, llvm::StringRef Function, llvm::StringRef Name) {
  UniformityAnalysis U(P.context(), function(P.context(), Function));
  const clang::VarDecl *V = variable(P.context(), Name);
  return V && V->getInit() && U.isGridUniform(V->getInit());
}

TEST(Uniformity, LocalsOfGridUniformValuesAreGridUniform) {
  Parsed P = parse(R"cu(
    template <int CNum>
    __global__ void k(float *g, int C, int n) {
      const int c_num = min(CNum, C);
      const int both = max(c_num, n) * 2;
      int changed = C;
      if (threadIdx.x)
        changed = 1;
      const int lane = threadIdx.x;
      const int perLane = min(lane, C);
      int viaChanged = changed + 1;
      int aliased = C;
      int *p = &aliased;
      *p = threadIdx.x;
      int viaAliased = aliased;
      g[0] = both + perLane + viaChanged + viaAliased;
    }
    template __global__ void k<4>(float *, int, int);)cu");
  EXPECT_TRUE(gridUniformInit(P, "k", "c_num"));
  EXPECT_TRUE(gridUniformInit(P, "k", "both"));
  EXPECT_FALSE(gridUniformInit(P, "k", "perLane"));
  EXPECT_FALSE(gridUniformInit(P, "k", "viaChanged"));
  EXPECT_FALSE(gridUniformInit(P, "k", "viaAliased"));
}

TEST(Uniformity, BuiltinsNamedWholeAreJudgedByWhatTheyHold) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g) {
      dim3 t = threadIdx;
      dim3 b = blockIdx;
      unsigned tx = t.x, bx = b.x, dx = gridDim.x;
      g[0] = tx + bx + dx;
    })cu");
  EXPECT_FALSE(gridUniformInit(P, "k", "tx"));
  EXPECT_FALSE(gridUniformInit(P, "k", "bx"));
  EXPECT_TRUE(gridUniformInit(P, "k", "dx"));
}

/// The initialiser of local \p Name, judged warp-uniform in \p Function.
bool uniformInit(Parsed &P, llvm::StringRef Function, llvm::StringRef Name) {
  UniformityAnalysis U(P.context(), function(P.context(), Function));
  const clang::VarDecl *V = variable(P.context(), Name);
  return V && V->getInit() && U.isUniform(V->getInit());
}

TEST(Uniformity, LoadsOfReadOnlyParametersAtUniformIndices) {
  Parsed P = parse(R"cu(
    __global__ void k(const uint2 *__restrict__ spans, const uint2 *plain,
                      float *g) {
      const uint2 *tile = spans + blockIdx.x;
      const uint2 &ref = spans[blockIdx.y * gridDim.x + blockIdx.x];
      uint2 assigned;
      assigned = spans[blockIdx.x];
      int left = tile->y - tile->x;
      for (int b = 0; left > 0; b++, left -= 128)
        g[b] += 1.f;
      const unsigned fromRef = ref.y;
      const unsigned fromAssigned = assigned.y;
      const unsigned perLane = spans[threadIdx.x].y;
      const unsigned mayAlias = plain[blockIdx.x].y;
      g[0] = fromRef + fromAssigned + perLane + mayAlias;
    })cu");
  EXPECT_TRUE(uniformInit(P, "k", "fromRef"));
  EXPECT_TRUE(uniformInit(P, "k", "fromAssigned"));
  EXPECT_FALSE(uniformInit(P, "k", "perLane"));
  EXPECT_FALSE(uniformInit(P, "k", "mayAlias"));
  // `left` shrinks by a constant in a loop that every lane runs alike.
  std::vector<const clang::ForStmt *> Loops = forLoops(P.context());
  ASSERT_EQ(Loops.size(), 1u);
  UniformityAnalysis U(P.context(), function(P.context(), "k"));
  EXPECT_TRUE(U.isUniform(Loops[0]->getCond()));
}

TEST(Uniformity, AParameterTheKernelWritesIsNotReadOnly) {
  Parsed P = parse(R"cu(
    __global__ void k(const uint2 *__restrict__ spans, float *g) {
      if (threadIdx.x == 3)
        const_cast<uint2 *>(spans)[blockIdx.x].y = 0;
      const unsigned afterStore = spans[blockIdx.x].y;
      g[0] = afterStore;
    })cu");
  EXPECT_FALSE(uniformInit(P, "k", "afterStore"));
}

TEST(Uniformity, ReadOnlyLoadsByLdg) {
  Parsed P = parse(R"cu(
    __global__ void k(const uint2 *__restrict__ spans, const uint2 *plain,
                      float *g) {
      const int tile = blockIdx.y * gridDim.x + blockIdx.x;
      const unsigned byLdg = __ldg(&spans[blockIdx.x]).y;
      const unsigned byLdgOffset = __ldg(spans + tile).y;
      const unsigned ldgPerLane = __ldg(&spans[threadIdx.x]).y;
      const unsigned ldgMayAlias = __ldg(&plain[blockIdx.x]).y;
      g[0] = byLdg + byLdgOffset + ldgPerLane + ldgMayAlias;
    })cu");
  EXPECT_TRUE(uniformInit(P, "k", "byLdg"));
  EXPECT_TRUE(uniformInit(P, "k", "byLdgOffset"));
  EXPECT_FALSE(uniformInit(P, "k", "ldgPerLane"));
  EXPECT_FALSE(uniformInit(P, "k", "ldgMayAlias"));
}

/// Helpers of the tests below: what each reads and writes.
const char *const HelperCode = R"cu(
    __device__ uint2 at(const uint2 *r, int t) { return r[t]; }
    __device__ unsigned width(const uint2 &r) { return r.y - r.x; }
    __device__ uint2 viaAt(const uint2 *r, int t) { return at(r, t + 1); }
    __device__ uint2 laneAt(const uint2 *r, int t) {
      return r[t + threadIdx.x % 2];
    }
    __device__ uint2 firstOfRow(const uint2 *const *rows, int t) {
      return rows[t][0];
    }
    __shared__ unsigned s_skip[4];
    __device__ uint2 skipped(const uint2 *r, int t) {
      return {r[t].x + s_skip[t], r[t].y};
    }
    __device__ uint2 countedAt(const uint2 *r, int t, unsigned *n) {
      n[t] += 1;
      return r[t];
    }
    __device__ uint2 deepAt(const uint2 *r, int t, int d) {
      return d ? deepAt(r, t, d - 1) : r[t];
    }
    __device__ uint2 unseenAt(const uint2 *r, int t);
    __device__ float shuffledAt(const float *r, int t) {
      return __shfl_xor_sync(0xffffffffu, r[t], 1);
    }
    struct Reader {
      const uint2 *r;
      __device__ uint2 at(int t) const { return r[t]; }
    };
)cu";

TEST(Uniformity, HelpersReadingOnlyReadOnlyMemory) {
  Parsed P = parse(std::string(HelperCode) + R"cu(
    __global__ void k(const uint2 *__restrict__ spans, const uint2 *plain,
                      const uint2 *const *__restrict__ rows, float *g) {
      const unsigned byHelper = at(spans, blockIdx.x).y;
      const unsigned byReference = width(spans[blockIdx.x]);
      const unsigned byNestedHelper = viaAt(spans, blockIdx.x).y;
      const unsigned helperPerLane = at(spans, threadIdx.x).y;
      const unsigned helperMayAlias = at(plain, blockIdx.x).y;
      const unsigned helperReadsLane = laneAt(spans, blockIdx.x).y;
      // rows[t] is a pointer loaded from read-only memory: it points
      // elsewhere.
      const unsigned helperFollowsPointer = firstOfRow(rows, blockIdx.x).y;
      const unsigned helperReadsShared = skipped(spans, blockIdx.x).y;
      g[0] = byHelper + byReference + byNestedHelper + helperPerLane +
             helperMayAlias + helperReadsLane + helperFollowsPointer +
             helperReadsShared;
    })cu");
  EXPECT_TRUE(uniformInit(P, "k", "byHelper"));
  EXPECT_TRUE(uniformInit(P, "k", "byReference"));
  EXPECT_TRUE(uniformInit(P, "k", "byNestedHelper"));
  EXPECT_FALSE(uniformInit(P, "k", "helperPerLane"));
  EXPECT_FALSE(uniformInit(P, "k", "helperMayAlias"));
  EXPECT_FALSE(uniformInit(P, "k", "helperReadsLane"));
  EXPECT_FALSE(uniformInit(P, "k", "helperFollowsPointer"));
  EXPECT_FALSE(uniformInit(P, "k", "helperReadsShared"));
}

TEST(Uniformity, HelpersThatWriteRecurseShuffleOrAreUnseenAreNot) {
  Parsed P = parse(std::string(HelperCode) + R"cu(
    __global__ void counted(const uint2 *__restrict__ spans, unsigned *n,
                            float *g) {
      const unsigned helperWrites = countedAt(spans, blockIdx.x, n).y;
      g[0] = helperWrites;
    }
    __global__ void deep(const uint2 *__restrict__ spans, float *g) {
      const unsigned helperRecurses = deepAt(spans, blockIdx.x, 2).y;
      g[0] = helperRecurses;
    }
    __global__ void unseen(const uint2 *__restrict__ spans, float *g) {
      const unsigned helperUnseen = unseenAt(spans, blockIdx.x).y;
      g[0] = helperUnseen;
    }
    __global__ void pointer(const uint2 *__restrict__ spans, float *g) {
      uint2 (*pick)(const uint2 *, int) = at;
      const unsigned throughPointer = pick(spans, blockIdx.x).y;
      g[0] = throughPointer;
    }
    __global__ void shuffled(const float *__restrict__ xs, float *g) {
      const float helperShuffles = shuffledAt(xs, blockIdx.x);
      g[0] = helperShuffles;
    }
    __global__ void method(const uint2 *__restrict__ spans, float *g) {
      const Reader reader{spans};
      const unsigned byMethod = reader.at(blockIdx.x).y;
      g[0] = byMethod;
    })cu");
  EXPECT_FALSE(uniformInit(P, "counted", "helperWrites"));
  EXPECT_FALSE(uniformInit(P, "deep", "helperRecurses"));
  EXPECT_FALSE(uniformInit(P, "unseen", "helperUnseen"));
  EXPECT_FALSE(uniformInit(P, "pointer", "throughPointer"));
  EXPECT_FALSE(uniformInit(P, "shuffled", "helperShuffles"));
  // A method reads its object, which nothing proves stable.
  EXPECT_FALSE(uniformInit(P, "method", "byMethod"));
}

TEST(Uniformity, ReadOnlyMembersOfAByValueParameter) {
  Parsed P = parse(std::string(HelperCode) + R"cu(
    struct Args {
      const uint2 *__restrict__ spans;
      const uint2 *plain;
      unsigned n;
    };
    __global__ void k(Args a, float *g) {
      const uint2 *tiles = a.spans;
      const unsigned byMember = a.spans[blockIdx.x].y;
      const unsigned byLocalCopy = tiles[blockIdx.x].y;
      const unsigned byMemberHelper = at(a.spans, blockIdx.x).y;
      const unsigned memberPerLane = a.spans[threadIdx.x].y;
      const unsigned memberMayAlias = a.plain[blockIdx.x].y;
      g[0] = byMember + byLocalCopy + byMemberHelper + memberPerLane +
             memberMayAlias + a.n;
    }
    __global__ void changed(Args a, float *g) {
      if (threadIdx.x >= 16)
        a.spans += 1;
      const unsigned memberChanged = a.spans[blockIdx.x].y;
      g[0] = memberChanged;
    }
    __global__ void writtenThrough(Args a, float *g) {
      Args copy = a;
      if (threadIdx.x == 7)
        const_cast<uint2 *>(copy.spans)[blockIdx.x].y = 0;
      const unsigned memberWritten = a.spans[blockIdx.x].y;
      g[0] = memberWritten;
    })cu");
  EXPECT_TRUE(uniformInit(P, "k", "byMember"));
  EXPECT_TRUE(uniformInit(P, "k", "byLocalCopy"));
  EXPECT_TRUE(uniformInit(P, "k", "byMemberHelper"));
  EXPECT_FALSE(uniformInit(P, "k", "memberPerLane"));
  EXPECT_FALSE(uniformInit(P, "k", "memberMayAlias"));
  EXPECT_FALSE(uniformInit(P, "changed", "memberChanged"));
  EXPECT_FALSE(uniformInit(P, "writtenThrough", "memberWritten"));
}

TEST(Uniformity, ASharedArraysAddressIsUniform) {
  Parsed P = parse(R"cu(
    __global__ void k(const float *x, int n) {
      __shared__ float acc[2];
      for (int j = 0; j < n; j++)
        atomicAdd(&acc[1], x[j]);
    })cu");
  ASSERT_EQ(P.Sites.size(), 1u);
  EXPECT_TRUE(P.Sites[0].AddressIsUniform);
  EXPECT_EQ(classifyFirstKey(P), KeyUniformity::Uniform);
}

} // namespace
