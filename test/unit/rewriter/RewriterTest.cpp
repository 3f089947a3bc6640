//===- RewriterTest.cpp - address decomposition and grouping --------------===//
//
// Parses in-memory CUDA with the hermetic shim and checks what the library
// finds and decides, below the level of the text the tool writes.
//
//===----------------------------------------------------------------------===//

#include "distwar/Rewriter.h"
#include "distwar/AtomicSites.h"
#include "distwar/CudaArgs.h"
#include "distwar/Divergence.h"
#include "distwar/GroupSafety.h"
#include "distwar/Grouping.h"
#include "distwar/LoopCounter.h"
#include "distwar/SharedCursors.h"
#include "distwar/Uniformity.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace distwar;

namespace {

std::vector<std::string> hermeticArgs() {
  CudaOptions Options;
  Options.NoCudaSdk = true;
  Options.ResourceDir = DISTWAR_CLANG_RESOURCE_DIR;
  return frontEndArgs(Options, {"-include", std::string(DISTWAR_TEST_INPUTS) +
                                                "/cuda_shim.h"});
}

struct Parsed {
  std::unique_ptr<clang::ASTUnit> AST;
  std::vector<AtomicSite> Sites;
  std::vector<SiteGroup> Groups;
};

Parsed parse(llvm::StringRef Code) {
  Parsed P;
  P.AST = clang::tooling::buildASTFromCodeWithArgs(Code, hermeticArgs(),
                                                   "/virtual/t.cu");
  EXPECT_TRUE(P.AST);
  EXPECT_FALSE(P.AST->getDiagnostics().hasErrorOccurred());
  clang::ASTContext &Ctx = P.AST->getASTContext();
  P.Sites = findAtomicSites(Ctx);
  P.Groups = groupSites(Ctx, P.Sites);
  for (SiteGroup &G : P.Groups)
    G.Why = checkGroupSafety(Ctx, P.Sites, G);
  return P;
}

TEST(AddressDecomposition, FieldsStridesAndChannels) {
  Parsed P = parse(R"cu(
    __global__ void k(float *a, float2 *m, float *c, int id, float v) {
      atomicAdd(&a[id * 4 + 2], v);
      atomicAdd(&m[id].y, v);
      atomicAdd(a + 4 * id + 3, v);
      for (int ch = 1; ch < 4; ++ch)
        atomicAdd(&c[id * 4 + ch], v);
    })cu");
  ASSERT_EQ(P.Sites.size(), 4u);
  for (const AtomicSite &S : P.Sites) {
    EXPECT_EQ(S.Why, Reason::None) << S.Line;
    EXPECT_EQ(S.KeyText, "id") << S.Line;
    EXPECT_EQ(S.TypeText, "float");
  }
  EXPECT_EQ(P.Sites[0].FieldText, "[*4+2]");
  EXPECT_EQ(P.Sites[1].FieldText, ".y");
  EXPECT_EQ(P.Sites[1].Buffer->getName(), "m");
  EXPECT_EQ(P.Sites[2].FieldText, "[*4+3]");
  ASSERT_TRUE(P.Sites[3].Channel.has_value());
  EXPECT_EQ(P.Sites[3].Channel->LowerText, "1");
  EXPECT_EQ(P.Sites[3].Channel->UpperText, "4");
  EXPECT_FALSE(P.Sites[3].Channel->LowerIsZero);
}

TEST(AddressDecomposition, RefusesWhatItCannotProve) {
  Parsed P = parse(R"cu(
    __global__ void k(float *a, int n, int id, float v, bool f) {
      float *p = f ? a : a + 1;
      atomicAdd(&p[id], v);
      for (int i = 0; i < n; ++i)
        atomicAdd(&a[id * 2 + i], v);
      float r = atomicAdd(&a[id], v);
      a = a + 1;
    })cu");
  ASSERT_EQ(P.Sites.size(), 3u);
  EXPECT_EQ(P.Sites[0].Why, Reason::BufferNotUniform);
  EXPECT_EQ(P.Sites[1].Why, Reason::ChannelLoopUnsupported);
  EXPECT_EQ(P.Sites[2].Why, Reason::UsedResult);
}

TEST(Grouping, OneGroupPerKeyTypeAndIteration) {
  Parsed P = parse(R"cu(
    __global__ void k(float *a, int *c, const int *ids, int n, float v) {
      for (int j = 0; j < n; ++j) {
        int g = ids[j];
        int h = ids[j + 1];
        atomicAdd(&a[g], v);
        atomicAdd(&a[(h)], v);
        atomicAdd(&c[g], 1);
        atomicAdd(&a[g + 0 * 0], v);
        atomicAdd(&a[(g)], v);
      }
    })cu");
  ASSERT_EQ(P.Sites.size(), 5u);
  // g (float): sites 0, 3 (an offset after the key) and 4 (parens do not
  // matter); h; g (int).
  ASSERT_EQ(P.Groups.size(), 3u);
  EXPECT_EQ(P.Groups[0].Sites, (std::vector<size_t>{0, 3, 4}));
  EXPECT_EQ(P.Groups[1].Sites, (std::vector<size_t>{1}));
  EXPECT_EQ(P.Groups[2].Sites, (std::vector<size_t>{2}));
  for (const SiteGroup &G : P.Groups)
    EXPECT_EQ(G.Why, Reason::None);
}

TEST(Grouping, RegionSafety) {
  Parsed P = parse(R"cu(
    __device__ float twice(float x) { return 2 * x; }
    __global__ void k(float *a, float *b, float *out, int id, int jd,
                      float v) {
      atomicAdd(&a[id], v);
      float w = twice(v) + sqrtf(v);  // pure calls: fine
      atomicAdd(&b[id], w);
      atomicAdd(&a[jd], v);
      out[0] = w;                     // may alias a or b
      atomicAdd(&b[jd], w);
    })cu");
  ASSERT_EQ(P.Groups.size(), 2u);
  EXPECT_EQ(P.Groups[0].Why, Reason::None);
  EXPECT_EQ(P.Groups[1].Why, Reason::StoreBetween);
}

TEST(Rewriter, OwnOutputIsRecognisedByTokens) {
  EXPECT_TRUE(looksRewritten("#include <distwar/runtime.cuh>\n"));
  EXPECT_TRUE(looksRewritten("x; ::distwar::reduceSerial(b, k, 0);"));
  EXPECT_FALSE(looksRewritten("// distwar_batch0 and DISTWAR_SITES(\n"));
  EXPECT_FALSE(looksRewritten("/* ::distwar::reduceSerial */ int x;"));
}

} // namespace

namespace {

/// The key of the first site, classified in its function.
KeyUniformity classifyFirstKey(Parsed &P) {
  EXPECT_FALSE(P.Sites.empty());
  UniformityAnalysis U(P.AST->getASTContext(), P.Sites[0].Function);
  return U.classifyKey(P.Sites[0].Key);
}

} // namespace

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

TEST(Divergence, ContinuesAndLoopTermBecomeOneFlag) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *x, int n, int w) {
      const bool done = threadIdx.x >= w;
      for (int j = 0; !done && j < n; ++j) {
        if (x[j] > 0.f)
          continue;
        atomicAdd(&g[j], x[j]);
      }
    })cu");
  ASSERT_EQ(P.Groups.size(), 1u);
  UniformityAnalysis U(P.AST->getASTContext(), P.Groups[0].Function);
  FlagPlan Plan;
  EXPECT_EQ(
      planActiveFlag(P.AST->getASTContext(), P.Sites, P.Groups[0], U, Plan),
      Reason::None);
  EXPECT_EQ(Plan.LiveInit, "(!done)");
  EXPECT_EQ(Plan.Continues.size(), 1u);
  EXPECT_TRUE(Plan.GuardFromStart);
  EXPECT_TRUE(Plan.UniformTrips);
  EXPECT_EQ(U.classifyKey(P.Sites[0].Key), KeyUniformity::Uniform);
}

Reason planFirstGroup(Parsed &P, FlagPlan &Plan) {
  EXPECT_EQ(P.Groups.size(), 1u);
  if (P.Groups.empty())
    return Reason::NotInLoop;
  UniformityAnalysis U(P.AST->getASTContext(), P.Groups[0].Function);
  return planActiveFlag(P.AST->getASTContext(), P.Sites, P.Groups[0], U, Plan);
}

TEST(Divergence, GroupInElseIfArmIsHeldByTheOutermostIf) {
  Parsed P = parse(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      for (int i = 0; i < n; ++i) {
        const float a = x[i];
        if (a > 2.f) {
          ga[n] = a;
        } else if (a > 0.f) {
          if (a < 1.f) {
            atomicAdd(&ga[i], a);
            atomicAdd(&gb[i], a);
          }
        }
      }
    })cu");
  FlagPlan Plan;
  ASSERT_EQ(planFirstGroup(P, Plan), Reason::None);
  EXPECT_TRUE(Plan.GroupUnderIf);
  EXPECT_TRUE(Plan.LiveInit.empty());
  const auto *Holder = llvm::dyn_cast<clang::IfStmt>(Plan.Holder);
  ASSERT_TRUE(Holder);
  EXPECT_EQ(Plan.Body->body_back(), Holder);
  EXPECT_TRUE(llvm::isa<clang::IfStmt>(Holder->getElse()));
}

TEST(Divergence, IfsThatCannotHoldTheGroup) {
  auto Why = [](llvm::StringRef Code) {
    Parsed P = parse(Code);
    FlagPlan Plan;
    return planFirstGroup(P, Plan);
  };
  EXPECT_EQ(Why(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      int seen = 0;
      for (int i = 0; i < n; ++i) {
        if (x[i] > 0.f) {
          if (++seen > 2) {
            atomicAdd(&ga[i], x[i]);
            atomicAdd(&gb[i], x[i]);
          }
        }
      }
    })cu"),
            Reason::ConditionSideEffects);
  EXPECT_EQ(Why(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      for (int i = 0; i < n; ++i) {
        if (const float a = x[i]; a > 0.f) {
          atomicAdd(&ga[i], a);
          atomicAdd(&gb[i], a);
        }
      }
    })cu"),
            Reason::IfForm);
  EXPECT_EQ(Why(R"cu(
    __global__ void k(float *ga, float *gb, const float *x, int n) {
      for (int i = 0; i < n; ++i) {
        if (x[i] > 0.f) {
          atomicAdd(&ga[i], x[i]);
          atomicAdd(&gb[i], x[i]);
        } else {
          continue;
        }
      }
    })cu"),
            Reason::UnconvertibleContinue);
}

namespace {

/// The for statements of \p Ctx's translation unit, in source order.
std::vector<const clang::ForStmt *> forLoops(clang::ASTContext &Ctx) {
  struct Collector : clang::RecursiveASTVisitor<Collector> {
    std::vector<const clang::ForStmt *> Loops;
    bool VisitForStmt(clang::ForStmt *F) {
      Loops.push_back(F);
      return true;
    }
  } C;
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  return C.Loops;
}

} // namespace

TEST(LoopCounter, BoundsFromTheCondition) {
  Parsed P = parse(R"cu(
    __global__ void k(int n, bool go) {
      for (int j = 2; j < min(64, n); j++) {}
      for (int j = 0; go && j <= 15; ++j) {}
      for (int j = 0; j < n; j++) {}
      for (int j = 0; j < 8; j++) { j += 0; }
      for (int j = n; j < 8; j++) {}
    })cu");
  clang::ASTContext &Ctx = P.AST->getASTContext();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 5u);
  std::optional<BoundedCounter> A = boundedCounter(Ctx, Loops[0]);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Start, 2);
  EXPECT_EQ(A->Max, 63);
  std::optional<BoundedCounter> B = boundedCounter(Ctx, Loops[1]);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Max, 15);
  EXPECT_FALSE(boundedCounter(Ctx, Loops[2])); // no constant bound
  EXPECT_FALSE(boundedCounter(Ctx, Loops[3])); // written in the body
  EXPECT_FALSE(boundedCounter(Ctx, Loops[4])); // start not a constant
}

TEST(SharedCursors, QualifyingArraysAndUses) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, int n, unsigned u) {
      __shared__ float a[64];
      __shared__ float b[32];
      __shared__ int c[3 * 64];
      for (int j = 0; j < min(64, n); j++) {
        __shared__ float inner[64];
        g[j] = a[j] + c[64 + j] + c[j + 128] + b[j] + c[u + j] + a[2 * j] +
               inner[j];
      }
    })cu");
  clang::ASTContext &Ctx = P.AST->getASTContext();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 1u);
  const auto *Fn = llvm::cast<clang::FunctionDecl>(
      Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("k")).front());
  std::optional<CursorPlan> Plan = planSharedCursors(Ctx, Fn, Loops[0]);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(Plan->Start, 0);
  // b is too short for j <= 63, c[u + j] may wrap, a[2 * j] is not at j,
  // inner is declared inside the loop.
  ASSERT_EQ(Plan->Cursors.size(), 2u);
  EXPECT_EQ(Plan->Cursors[0].Array->getName(), "a");
  ASSERT_EQ(Plan->Cursors[0].Uses.size(), 1u);
  EXPECT_EQ(Plan->Cursors[0].Uses[0].Sum, nullptr);
  EXPECT_EQ(Plan->Cursors[1].Array->getName(), "c");
  ASSERT_EQ(Plan->Cursors[1].Uses.size(), 2u);
  EXPECT_NE(Plan->Cursors[1].Uses[0].Sum, nullptr);
  EXPECT_NE(Plan->Cursors[1].Uses[1].Sum, nullptr);
}
