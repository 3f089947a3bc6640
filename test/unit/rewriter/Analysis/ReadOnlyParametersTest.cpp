//===- ReadOnlyParametersTest.cpp - memory a kernel only reads ------------===//

#include "Analysis/ReadOnlyParameters.h"
#include "TestAST.h"
#include "clang/AST/ParentMap.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const char *const ReadOnlyCode = R"cu(
    struct Pair { const int *p; int n; };
    __device__ void sink(const int *p);
    __device__ int first(const int *p) { return p[0]; }
    __device__ const int *g_saved;

    __global__ void reads(const int *__restrict__ xs, const int *ys,
                          int *out, bool c) {
      const int direct = xs[blockIdx.x];
      const int *row = xs + 4 * blockIdx.x;
      const int viaLocal = row[1];
      const int &ref = xs[2];
      const int viaAddress = *&xs[3];
      const int viaPure = first(xs) + (xs != ys) + (xs ? 1 : 0);
      const int notRestrict = ys[0];
      const int *either = c ? xs : row;
      const int viaEither = either[0];
      out[0] = direct + viaLocal + ref + viaAddress + viaPure + notRestrict +
               viaEither;
    }
    __global__ void constCast(const int *__restrict__ xs, int *out) {
      const_cast<int *>(xs)[threadIdx.x] = 1;
      const int afterCast = xs[0];
      out[0] = afterCast;
    }
    __global__ void copiedWritable(const int *__restrict__ xs, int *out) {
      int *w = (int *)xs;
      w[threadIdx.x] = 1;
      const int afterCopy = xs[0];
      out[0] = afterCopy;
    }
    __global__ void stored(const int *__restrict__ xs, int *out) {
      g_saved = xs;
      const int afterStore = xs[0];
      out[0] = afterStore;
    }
    __global__ void opaqueCall(const int *__restrict__ xs, int *out) {
      sink(xs + 1);
      const int afterSink = xs[0];
      out[0] = afterSink;
    }
    __global__ void reseated(const int *__restrict__ xs, const int *ys,
                             int *out) {
      const int *r = xs;
      r = ys;
      const int afterReseat = xs[0];
      out[0] = afterReseat + r[0];
    }
    __global__ void mixed(const int *__restrict__ xs, const int *ys, int *out,
                          bool c) {
      const int *m = c ? xs : ys;
      const int fromXs = xs[0];
      out[0] = fromXs + m[0];
    }
    __global__ void loadedPointer(const Pair *__restrict__ pairs, int *out) {
      const int n = pairs[0].n;
      const int behind = pairs[0].p[1];
      out[0] = n + behind;
    })cu";

/// Whether the load that initialises local \p Name of kernel \p Kernel
/// reads memory that the kernel only reads.
bool loadsReadOnly(clang::ASTContext &Ctx, llvm::StringRef Kernel,
                   llvm::StringRef Name) {
  const clang::FunctionDecl *F = function(Ctx, Kernel);
  if (!F)
    return false;
  clang::ParentMap Parents(F->getBody());
  ReadOnlyParameters ReadOnly(F, &Parents);
  for (const clang::Stmt *S : bodyOf(Ctx, Kernel))
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : DS->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
            V && V->getName() == Name && V->getInit())
          return ReadOnly.designatesObjectIn(V->getInit()->IgnoreImpCasts());
  ADD_FAILURE() << "no local " << Name.str() << " in " << Kernel.str();
  return false;
}

TEST(ReadOnlyParameters, LoadsThroughTheParameterAndWhatIsDerivedFromIt) {
  Parsed P = parse(ReadOnlyCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_TRUE(loadsReadOnly(Ctx, "reads", "direct"));
  EXPECT_TRUE(loadsReadOnly(Ctx, "reads", "viaLocal"));
  EXPECT_TRUE(loadsReadOnly(Ctx, "reads", "ref"));
  EXPECT_TRUE(loadsReadOnly(Ctx, "reads", "viaAddress"));
  // Both arms lead into the parameter's memory.
  EXPECT_TRUE(loadsReadOnly(Ctx, "reads", "viaEither"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "reads", "notRestrict"));
}

TEST(ReadOnlyParameters, AUseThatMayWriteEndsIt) {
  Parsed P = parse(ReadOnlyCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_FALSE(loadsReadOnly(Ctx, "constCast", "afterCast"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "copiedWritable", "afterCopy"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "stored", "afterStore"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "opaqueCall", "afterSink"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "reseated", "afterReseat"));
  // A local that may point elsewhere holds the pointer out of sight.
  EXPECT_FALSE(loadsReadOnly(Ctx, "mixed", "fromXs"));
}

TEST(ReadOnlyParameters, APointerLoadedFromItPointsElsewhere) {
  Parsed P = parse(ReadOnlyCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_TRUE(loadsReadOnly(Ctx, "loadedPointer", "n"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "loadedPointer", "behind"));
}

const char *const MemberCode = R"cu(
    struct Args {
      const int *__restrict__ xs;
      const int *ys;
      int *out;
      int n;
    };
    union Either {
      const int *__restrict__ xs;
      int *w;
    };
    __device__ int firstOf(const int *p) { return p[0]; }
    __device__ int firstOfArgs(Args a) { return a.xs[0]; }

    __global__ void members(Args a) {
      const int fromMember = a.xs[blockIdx.x];
      const int *row = a.xs + 4 * blockIdx.x;
      const int fromRow = row[1];
      const int fromPure = firstOf(a.xs) + a.n + sizeof(a);
      const int fromPlainMember = a.ys[0];
      a.out[0] = fromMember + fromRow + fromPure + fromPlainMember;
    }
    __global__ void writtenThrough(Args a) {
      const_cast<int *>(a.xs)[threadIdx.x] = 1;
      const int afterMemberCast = a.xs[0];
      a.out[0] = afterMemberCast;
    }
    __global__ void copied(Args a) {
      Args b = a;
      const int afterStructCopy = a.xs[0];
      b.out[0] = afterStructCopy;
    }
    __global__ void passed(Args a) {
      const int afterStructPassed = a.xs[0] + firstOfArgs(a);
      a.out[0] = afterStructPassed;
    }
    __global__ void reseated(Args a) {
      a.xs = a.ys;
      const int afterMemberReseat = a.xs[0];
      a.out[0] = afterMemberReseat;
    }
    __global__ void otherFieldChanged(Args a) {
      a.n = 2;
      const int afterFieldChange = a.xs[0];
      a.out[0] = afterFieldChange + a.n;
    }
    __global__ void inUnion(Either e, int *out) {
      const int fromUnion = e.xs[0];
      out[0] = fromUnion;
    })cu";

TEST(ReadOnlyParameters, RestrictMembersOfAByValueParameter) {
  Parsed P = parse(MemberCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_TRUE(loadsReadOnly(Ctx, "members", "fromMember"));
  EXPECT_TRUE(loadsReadOnly(Ctx, "members", "fromRow"));
  // Without restrict, as for a parameter.
  EXPECT_FALSE(loadsReadOnly(Ctx, "members", "fromPlainMember"));
  // A union's member may be written through another.
  EXPECT_FALSE(loadsReadOnly(Ctx, "inUnion", "fromUnion"));
}

TEST(ReadOnlyParameters, AMemberWrittenThroughCopiedOrChangedIsNot) {
  Parsed P = parse(MemberCode);
  clang::ASTContext &Ctx = P.context();
  EXPECT_FALSE(loadsReadOnly(Ctx, "writtenThrough", "afterMemberCast"));
  // The whole struct takes the pointer where the walk does not follow.
  EXPECT_FALSE(loadsReadOnly(Ctx, "copied", "afterStructCopy"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "passed", "afterStructPassed"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "reseated", "afterMemberReseat"));
  EXPECT_FALSE(loadsReadOnly(Ctx, "otherFieldChanged", "afterFieldChange"));
}

} // namespace
