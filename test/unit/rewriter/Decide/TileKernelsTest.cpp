//===- TileKernelsTest.cpp - which kernels --balance=tiles rewrites -------===//

#include "Decide/TileKernels.h"
#include "TestAST.h"
#include "TileTree.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// The plan of kernel \p Name in \p Plan.
TileKernelPlan planOf(const TilePlan &Plan, llvm::StringRef Name) {
  for (const TileKernelPlan &K : Plan.Kernels)
    if (K.Kernel->getName() == Name)
      return K;
  ADD_FAILURE() << "no plan for " << Name.str();
  return {};
}

/// The plan of kernel \p Name in \p P.
TileKernelPlan planOf(Parsed &P, llvm::StringRef Name) {
  return planOf(planTiles(P.context()), Name);
}

TEST(TileKernels, ALaunchedTileKernelIsBalancedWithItsUsesAndLaunches) {
  AnnotatedCode Code(R"cu(
    template <int C>
    __global__ void k(float *v, int n) {
      if (blockIdx.x * blockDim.x + threadIdx.x >= n)
        return;
      v[blockIdx.x * C + gridDim.x] = 0;
    }
    void run(float *v, int n) {
      $launch^k<3><<<n, 32>>>(v, n);
      if (n)
        $second^k<4><<<dim3(n, 2), 32, 0, 0>>>(v, n);
    })cu");
  Parsed P = parse(Code.code());
  TileKernelPlan K = planOf(P, "k");
  EXPECT_EQ(K.Why.Code, Reason::None);
  EXPECT_TRUE(K.balanced());
  ASSERT_EQ(K.Launches.size(), 2u);
  EXPECT_EQ(offsetOf(P.context(), K.Launches[0].Call->getBeginLoc()),
            Code.point("launch"));
  EXPECT_EQ(offsetOf(P.context(), K.Launches[1].Call->getBeginLoc()),
            Code.point("second"));
  EXPECT_EQ(K.Returns.size(), 1u);
  EXPECT_GE(K.Uses.size(), 3u);
}

TEST(TileKernels, EveryNameOfTheKernelMustBeALaunch) {
  Parsed P = parse(R"cu(
    __global__ void prototyped(float *v);
    __global__ void prototyped(float *v) { v[blockIdx.x] = 0; }
    __global__ void unlaunched(float *v) { v[blockIdx.x] = 0; }
    __global__ void addressTaken(float *v) { v[blockIdx.x] = 0; }
    __global__ void inExpression(float *v) { v[blockIdx.x] = 0; }
    __device__ void take(void (*)(float *));
    void run(float *v) {
      prototyped<<<4, 32>>>(v);
      addressTaken<<<4, 32>>>(v);
      void (*f)(float *) = addressTaken;
      (void)f;
      int r = (inExpression<<<4, 32>>>(v), 0);
      (void)r;
    })cu");
  EXPECT_EQ(planOf(P, "prototyped").Why.Code, Reason::TileLaunch);
  EXPECT_EQ(planOf(P, "unlaunched").Why.Code, Reason::TileLaunch);
  EXPECT_EQ(planOf(P, "addressTaken").Why.Code, Reason::TileLaunch);
  EXPECT_EQ(planOf(P, "inExpression").Why.Code, Reason::TileLaunch);
}

TEST(TileKernels, ALaunchMustNameOneInstanceOfTheKernel) {
  // The size of the launch and the choice of its mode take a pointer to
  // the instance it runs: no overloads left to the arguments, no template
  // argument left to deduce from them.
  Parsed P = parse(R"cu(
    __global__ void overloaded(float *v) { v[blockIdx.x] = 0; }
    __global__ void overloaded(int *v) { v[blockIdx.x] = 0; }
    template <typename T> __global__ void deduced(T *v) { v[blockIdx.x] = 0; }
    template <typename T, int C = 2>
    __global__ void defaulted(T *v) { v[blockIdx.x] = C; }
    extern "C" __global__ void plain(float *v) { v[blockIdx.x] = 0; }
    __global__ void withDefault(float *v, int n = 1) { v[blockIdx.x] = n; }
    void run(float *v) {
      overloaded<<<4, 32>>>(v);
      deduced<<<4, 32>>>(v);
      defaulted<float><<<4, 32>>>(v);
      plain<<<4, 32>>>(v);
      withDefault<<<4, 32>>>(v);
    })cu");
  EXPECT_EQ(planOf(P, "overloaded").Why.Code, Reason::TileLaunch);
  EXPECT_EQ(planOf(P, "deduced").Why.Code, Reason::TileLaunch);
  TileKernelPlan Defaulted = planOf(P, "defaulted");
  ASSERT_TRUE(Defaulted.balanced());
  EXPECT_TRUE(Defaulted.ModeParameter);
  EXPECT_TRUE(Defaulted.Launches.at(0).ChoosesInstance);
  // C linkage: no template, one instance for both modes.
  TileKernelPlan Plain = planOf(P, "plain");
  ASSERT_TRUE(Plain.balanced());
  EXPECT_FALSE(Plain.ModeParameter);
  EXPECT_FALSE(Plain.Launches.at(0).ChoosesInstance);
  // A pointer has no default arguments: the dynamic instance for both.
  TileKernelPlan WithDefault = planOf(P, "withDefault");
  ASSERT_TRUE(WithDefault.balanced());
  EXPECT_TRUE(WithDefault.ModeParameter);
  EXPECT_FALSE(WithDefault.Launches.at(0).ChoosesInstance);
}

TEST(TileKernels, AnExplicitSpecializationKeepsItsTemplateAsWritten) {
  // Its parameters must match its template's: neither may change.
  Parsed P = parse(R"cu(
    template <int C> __global__ void k(float *v) { v[blockIdx.x] = C; }
    template <> __global__ void k<2>(float *v) { v[blockIdx.x * 2] = 7; }
    void run(float *v) {
      k<1><<<4, 32>>>(v);
      k<2><<<4, 32>>>(v);
    })cu");
  const TilePlan Plan = planTiles(P.context());
  ASSERT_EQ(Plan.Kernels.size(), 1u);
  EXPECT_FALSE(Plan.Kernels.front().balanced());
  EXPECT_EQ(Plan.Kernels.front().Why.Code, Reason::TileLaunch);
}

TEST(TileKernels, AnExplicitInstantiationKeepsItsTemplateAsWritten) {
  Parsed P = parse(R"cu(
    template <int C> __global__ void k(float *v) { v[blockIdx.x] = C; }
    template __global__ void k<3>(float *v);
    void run(float *v) { k<1><<<4, 32>>>(v); })cu");
  EXPECT_EQ(planOf(P, "k").Why.Code, Reason::TileLaunch);
}

TEST(TileKernels, NothingToBalanceAlreadyBalancedAndOurNames) {
  Parsed P = parse(R"cu(
    namespace distwar { struct TileQueue; }
    __global__ void same(float *v) { v[threadIdx.x] = 0; }
    __global__ void done(distwar::TileQueue *q, float *v) { v[blockIdx.x] = 0; }
    __global__ void clash(float *v) {
      int distwar_grid = blockIdx.x;
      v[distwar_grid] = 0;
    }
    // The cost kernel's parameter: a second one of that name would not
    // compile.
    __global__ void ordered(const int *distwar_order, float *v) {
      for (int i = 0; i < distwar_order[blockIdx.x]; ++i)
        v[blockIdx.x] += 1;
    }
    void run(float *v, const int *n) {
      same<<<4, 32>>>(v);
      done<<<4, 32>>>(nullptr, v);
      clash<<<4, 32>>>(v);
      ordered<<<4, 32>>>(n, v);
    })cu");
  EXPECT_EQ(planOf(P, "same").Why.Code, Reason::TileNoBlockIndex);
  EXPECT_EQ(planOf(P, "done").Why.Code, Reason::TileAlreadyBalanced);
  EXPECT_EQ(planOf(P, "clash").Why.Code, Reason::NameShadowed);
  EXPECT_EQ(planOf(P, "ordered").Why.Code, Reason::NameShadowed);
}

class TileKernelsTree : public TileTree {};

TEST_F(TileKernelsTree, AKernelOfAnAllowedHeaderLaunchedFromTheFile) {
  write("include/blur.cuh", "#pragma once\n"
                            "__global__ void blur(float *v) {\n"
                            "  v[blockIdx.x] = 0;\n"
                            "}\n"
                            "inline void blurAgain(float *v) {\n"
                            "  blur<<<4, 32>>>(v);\n"
                            "}\n");
  write("vendor/lib.cuh", "#pragma once\n"
                          "__global__ void vendored(float *v) {\n"
                          "  v[blockIdx.x] = 0;\n"
                          "}\n"
                          "__global__ void unused(float *v) {\n"
                          "  v[blockIdx.x] = 0;\n"
                          "}\n"
                          "__global__ void libLaunched(float *v);\n"
                          "inline void libLaunch(float *v) {\n"
                          "  libLaunched<<<4, 32>>>(v);\n"
                          "}\n");
  write("include/launched.cuh", "#pragma once\n"
                                "#include \"lib.cuh\"\n"
                                "__global__ void libLaunched(float *v) {\n"
                                "  v[blockIdx.x] = 0;\n"
                                "}\n");
  parseTree(
      "#include \"blur.cuh\"\n"
      "#include \"launched.cuh\"\n"
      "void run(float *v) {\n"
      "  blur<<<4, 32>>>(v);\n"
      "  vendored<<<4, 32>>>(v);\n"
      "}\n",
      [&](ParsedFile &P, const TileFiles &Files) {
        TilePlan Plan = planTiles(P.Ctx, Files);
        TileKernelPlan Blur = planOf(Plan, "blur");
        EXPECT_TRUE(Blur.balanced()) << reasonInfo(Blur.Why).Name.str();
        EXPECT_EQ(Blur.Launches.size(), 2u);
        TileKernelPlan Vendored = planOf(Plan, "vendored");
        EXPECT_EQ(Vendored.Why.Code, Reason::TileLaunch);
        ASSERT_TRUE(Vendored.Why.Place);
        EXPECT_EQ(Vendored.Why.Place->Text,
                  "the kernel is defined in a header that no "
                  "--edit-headers entry names");
        EXPECT_EQ(Vendored.Why.Place->File, path("vendor/lib.cuh"));
        TileKernelPlan Lib = planOf(Plan, "libLaunched");
        EXPECT_EQ(Lib.Why.Code, Reason::TileLaunch);
        ASSERT_TRUE(Lib.Why.Place);
        EXPECT_EQ(Lib.Why.Place->Text, "the kernel is declared elsewhere too");
        // A kernel of a header not written, named nowhere the pass
        // writes, is not the pass's.
        EXPECT_TRUE(llvm::none_of(Plan.Kernels, [](const TileKernelPlan &K) {
          return K.Kernel->getName() == "unused";
        }));
      });
}

TEST_F(TileKernelsTree, ALaunchInAHeaderNotWrittenKeepsTheKernel) {
  // The file's own kernel, launched from a header that is not written
  // (included after its definition).
  write("vendor/late.cuh", "#pragma once\n"
                           "inline void launchLater(float *v) {\n"
                           "  later<<<4, 32>>>(v);\n"
                           "}\n");
  parseTree("__global__ void later(float *v) { v[blockIdx.x] = 0; }\n"
            "#include \"late.cuh\"\n"
            "void run(float *v) { launchLater(v); }\n",
            [&](ParsedFile &P, const TileFiles &Files) {
              TileKernelPlan Later = planOf(planTiles(P.Ctx, Files), "later");
              EXPECT_EQ(Later.Why.Code, Reason::TileLaunch);
              ASSERT_TRUE(Later.Why.Place);
              EXPECT_EQ(Later.Why.Place->Text,
                        "this launch is in a header that no --edit-headers "
                        "entry names");
              EXPECT_EQ(Later.Why.Place->File, path("vendor/late.cuh"));
              EXPECT_EQ(Later.Why.Place->Line, 3u);
            });
}

TEST_F(TileKernelsTree, ClangsErrorsKeepTheKernelsTheyReach) {
  parseTree(
      "__device__ float f(float a, float b) { return a + b; }\n"
      "__device__ double f(double a, double b) { return a * b; }\n"
      "__global__ void broken(float *v) { v[blockIdx.x] = f(v[0], "
      "2.0); }\n"
      "__global__ void sound(float *v) { v[blockIdx.x] = 0; }\n"
      "void run(float *v) {\n"
      "  broken<<<4, 32>>>(v);\n"
      "  sound<<<4, 32>>>(v);\n"
      "}\n"
      "float unrelated(float a) { return f(a, 2.0); }\n",
      [&](ParsedFile &P, const TileFiles &Files) {
        TileErrors Errors(P.Ctx, P.Tokens, P.Errors);
        TilePlan Plan = planTiles(P.Ctx, Files, &Errors);
        EXPECT_EQ(planOf(Plan, "broken").Why.Code, Reason::TileParseError);
        TileKernelPlan Sound = planOf(Plan, "sound");
        EXPECT_TRUE(Sound.balanced()) << reasonInfo(Sound.Why).Name.str();
      },
      /*Errors=*/true);
}

} // namespace
