//===- RunTimeTripTest.cpp - loops of run-time trip count, versioned ------===//

#include "Analysis/RunTimeTrip.h"
#include "TestAST.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

const clang::Stmt *parentOf(clang::ASTContext &Ctx, const clang::Stmt *S) {
  auto Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<clang::Stmt>();
}

bool versionable(clang::ASTContext &Ctx, const clang::ForStmt *F) {
  return isVersionableLoop(F, parentOf(Ctx, F), Ctx);
}

/// The first argument of each atomicAdd and each array element read, in
/// source order.
struct Exprs : clang::RecursiveASTVisitor<Exprs> {
  std::vector<const clang::Expr *> Addresses, Elements;
  bool VisitCallExpr(clang::CallExpr *C) {
    if (const clang::FunctionDecl *F = C->getDirectCallee();
        F && F->getName() == "atomicAdd")
      Addresses.push_back(C->getArg(0));
    return true;
  }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    Elements.push_back(E);
    return true;
  }
};

TEST(RunTimeTrip, VersionableLoops) {
  Parsed P = parse(R"cu(
    struct Tex { float *grad; int channels; };
    __global__ void k(Tex p, float *g, const int *np, int n) {
      for (int c = 0; c < p.channels; ++c) {}      // versionable
      for (int c = 0; c < n; c++) {}               // versionable
      for (int c = 0; c < 4; ++c) {}               // a constant trip
      for (int c = 1; c < n; ++c) {}               // not from 0
      for (int c = 0; c < *np; ++c) {}             // a load
      for (int c = 0; c < n; ++c) { n -= 1; }      // bound changed
      for (int c = 0; c < n; ++c) { if (g[c] < 0) break; }
      for (int c = 0; c < n; ++c) { __syncthreads(); }
      if (n > 2)
        for (int c = 0; c < n; ++c) {}             // not in a block
    })cu");
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 9u);
  EXPECT_TRUE(versionable(Ctx, Loops[0]));
  EXPECT_TRUE(versionable(Ctx, Loops[1]));
  for (size_t I = 2; I < Loops.size(); ++I)
    EXPECT_FALSE(versionable(Ctx, Loops[I])) << "loop " << I;
}

TEST(RunTimeTrip, ChannelAddressesAndReads) {
  Parsed P = parse(R"cu(
    __global__ void k(float *g, const float *x, const int *ids, int n) {
      int tc[2] = {ids[0], ids[1]};
      const int t = ids[threadIdx.x];
      for (int c = 0; c < n; ++c) {
        float v = x[t + c] + x[2 * c] + x[ids[c]] + x[tc[1] + c] + x[tc[n] + c];
        atomicAdd(g + t + c, v);            // channel address
        atomicAdd(&g[tc[0] + c + 1], v);    // channel address
        atomicAdd(g + ids[t] + c, v);       // a load in the key
        atomicAdd(g + t + c + c, v);        // the variable twice
      }
    })cu");
  clang::ASTContext &Ctx = P.context();
  const clang::ForStmt *Loop = forLoops(Ctx).front();
  Exprs E;
  E.TraverseStmt(const_cast<clang::ForStmt *>(Loop));
  ASSERT_EQ(E.Addresses.size(), 4u);
  EXPECT_TRUE(isChannelAddress(E.Addresses[0], Loop));
  EXPECT_TRUE(isChannelAddress(E.Addresses[1], Loop));
  EXPECT_FALSE(isChannelAddress(E.Addresses[2], Loop));
  EXPECT_FALSE(isChannelAddress(E.Addresses[3], Loop));

  std::vector<bool> Read;
  for (const clang::Expr *X : E.Elements)
    if (X->getType()->isFloatingType())
      Read.push_back(isChannelRead(X, Loop));
  // x[t + c], x[2 * c], x[ids[c]], x[tc[1] + c], x[tc[n] + c]
  ASSERT_GE(Read.size(), 5u);
  EXPECT_TRUE(Read[0]);
  EXPECT_FALSE(Read[1]); // a stride
  EXPECT_FALSE(Read[2]); // an index loaded per channel
  EXPECT_TRUE(Read[3]);  // a constant element of a local array
  EXPECT_FALSE(Read[4]); // an element at a run-time index
}

} // namespace
