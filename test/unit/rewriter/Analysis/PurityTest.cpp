//===- PurityTest.cpp - calls and statements that write nothing -----------===//
//
// A call judged pure may be moved past a group's atomics or run in lanes
// that skipped it; one judged to read only its arguments may be evaluated
// once for the warp. Each judgement is checked in both directions.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Purity.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const PurityCode = R"cu(
    __device__ float twice(float x) { return 2.f * x; }
    __device__ float load(const float *p) { return p[0]; }
    __device__ void store(float *p, float v) { p[0] = v; }
    __device__ float lane(float x) { return x + threadIdx.x; }
    __device__ float synced(float x) { __syncthreads(); return x; }
    __device__ float opaque(float x);
    __device__ float viaLocal(float x) {
      float t[2] = {x, x};
      t[1] += 1.f;
      return t[0] + t[1];
    }
    // A user's function whose name has a math prefix is judged by its body.
    __device__ float make_scaled(float *p) { p[0] *= 2.f; return p[0]; }
    // A parameter passed by value is the callee's own copy; one passed by
    // reference, or an element through a pointer parameter, is the caller's.
    __device__ int folded(int x, int h) { x = x < h ? h - x : x - h; return x; }
    __device__ int stepped(const int *p) { ++p; return p[0]; }
    __device__ int byRef(int &x) { x = 1; return x; }
    __device__ int arrayParam(int a[2]) { a[0] = 1; return a[1]; }
    // A constructor stores into the object it builds; a method's stores
    // into its object are the caller's (its local's, for scaled).
    __device__ float sideEffect(float *p);
    struct V {
      float x, y;
      __device__ V(float a, float b) { x = a; y = b; }
      __device__ V(float *p) : x(sideEffect(p)) { y = 0.f; }
      __device__ void scale(float s) { x *= s; }
    };
    struct W : V {
      __device__ W(float a) : V(a, a) {}
      __device__ W(float *p, int) : V(p) {}
    };
    __device__ float built(float a) { V v(a, 2.f); return v.x + v.y; }
    __device__ float derived(float a) { W w(a); return w.x; }
    __device__ float derivedImpure(float *p) { W w(p, 0); return w.x; }
    __device__ float initialised(float *p) { V v(p); return v.y; }
    // A method that writes only its object, called on a local: pure; on
    // what a pointer points to: not.
    __device__ float scaled(float a) { V v(a, a); v.scale(2.f); return v.x; }
    __device__ float scaledThrough(V *p) { p->scale(2.f); return p->x; }
    // assert's failure handler writes nothing; a function without a body
    // may write anything.
    __device__ float checked(const float *p, int i) {
      if (i > 3) __assert_fail("i > 3", "t.cu", 1, "checked");
      return p[i];
    }
    __device__ void unknown(const char *);
    __device__ float logged(float a) { unknown("a"); return a; }

    __global__ void k(float *g, float x, int i) {
      float l[4] = {};
      float a = twice(x) + sqrtf(x);
      float b = g[i];
      a = l[i & 3];
      store(g, a);
      float c = load(g) + lane(b);
      float d = lane(x);
      ++i;
      float e = synced(x);
    })cu";

TEST(Purity, Callees) {
  Parsed P = parse(PurityCode);
  clang::ASTContext &Ctx = P.context();
  struct Expected {
    const char *Name;
    bool Pure, OnlyArguments, Math;
  };
  for (const Expected &W : {Expected{"sqrtf", true, true, true},
                            Expected{"twice", true, true, false},
                            Expected{"viaLocal", true, true, false},
                            Expected{"load", true, false, false},
                            Expected{"lane", true, false, false},
                            Expected{"store", false, false, false},
                            Expected{"synced", false, false, false},
                            Expected{"opaque", false, false, false},
                            Expected{"make_scaled", false, false, false},
                            Expected{"folded", true, true, false},
                            Expected{"stepped", true, false, false},
                            Expected{"byRef", false, false, false},
                            Expected{"arrayParam", false, false, false},
                            // Built from its arguments alone: the object's
                            // stores are the constructor's own.
                            Expected{"built", true, true, false},
                            Expected{"derived", true, true, false},
                            Expected{"derivedImpure", false, false, false},
                            Expected{"initialised", false, false, false},
                            Expected{"scaled", true, true, false},
                            Expected{"scaledThrough", false, false, false},
                            Expected{"checked", true, false, false},
                            Expected{"logged", false, false, false}}) {
    const clang::FunctionDecl *FD = function(Ctx, W.Name);
    ASSERT_TRUE(FD) << W.Name;
    EXPECT_EQ(isPureCallee(FD), W.Pure) << W.Name;
    EXPECT_EQ(readsOnlyArguments(FD), W.OnlyArguments) << W.Name;
    EXPECT_EQ(isKnownMathFunction(FD), W.Math) << W.Name;
  }
}

TEST(Purity, Statements) {
  Parsed P = parse(PurityCode);
  std::vector<const clang::Stmt *> Body = bodyOf(P.context(), "k");
  ASSERT_EQ(Body.size(), 9u);
  struct Expected {
    size_t Index;
    bool NoMemory, Writes, Impure;
  };
  for (const Expected &W : {
           Expected{0, true, false, false},  // float l[4] = {};
           Expected{1, true, false, false},  // twice(x) + sqrtf(x)
           Expected{2, false, false, false}, // g[i]
           Expected{3, true, true, false},   // a = l[i & 3]
           Expected{4, false, false, true},  // store(g, a)
           Expected{5, false, false, false}, // load(g) + lane(b)
           Expected{6, false, false, false}, // lane(x): a thread index
           Expected{7, true, true, false},   // ++i
           Expected{8, false, false, true},  // synced(x): a barrier
       }) {
    const clang::Stmt *S = Body[W.Index];
    EXPECT_EQ(readsNoMemory(S), W.NoMemory) << W.Index;
    EXPECT_EQ(writesSomething(S), W.Writes) << W.Index;
    EXPECT_EQ(callsImpure(S), W.Impure) << W.Index;
  }
}

} // namespace
