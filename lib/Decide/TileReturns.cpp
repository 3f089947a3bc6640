//===- TileReturns.cpp - may a lane's return end its tile instead ---------===//

#include "Decide/TileReturns.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Uniformity.h"
#include "Analysis/Collectives.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"

using namespace clang;

namespace distwar {

/// The blocks of \p G reachable from \p From (their successors, and theirs),
/// or that reach it when \p Backward; never entering \p Avoid.
static llvm::BitVector reachableFrom(const CFG &G,
                                     llvm::ArrayRef<const CFGBlock *> From,
                                     bool Backward,
                                     const CFGBlock *Avoid = nullptr) {
  llvm::BitVector Seen(G.getNumBlockIDs());
  std::vector<const CFGBlock *> Work(From.begin(), From.end());
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    if (!B || B == Avoid || Seen.test(B->getBlockID()))
      continue;
    Seen.set(B->getBlockID());
    for (const CFGBlock::AdjacentBlock &A : Backward ? B->preds() : B->succs())
      Work.push_back(A.getReachableBlock());
  }
  return Seen;
}

/// The statements of \p B, as the CFG lists them.
static std::vector<const Stmt *> statementsOf(const CFGBlock &B) {
  std::vector<const Stmt *> Out;
  for (const CFGElement &E : B)
    if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
      Out.push_back(S->getStmt());
  return Out;
}

/// Whether \p Call is one of the runtime's reductions (batched output): they
/// take the lanes that are there (__activemask) and never wait for one.
static bool isRuntimeReduction(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "distwar" &&
         (FD->getName().starts_with("reduce") || FD->getName() == "anyActive");
}

/// Whether \p S may wait for other lanes: at a block barrier, or at a warp
/// collective. A lane that left its tile is waiting at the loop's barrier,
/// not exited: a full-mask shuffle or __syncwarp of the lanes still in the
/// tile would wait for it, where the original's exited lane was not waited
/// for.
static bool waitsForLanes(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isRuntimeReduction(Call))
    return llvm::any_of(Call->arguments(),
                        [](const Expr *A) { return waitsForLanes(A); });
  if (isa<CallExpr, CXXConstructExpr, AsmStmt>(S))
    return mayBeCollective(S);
  return llvm::any_of(S->children(),
                      [](const Stmt *C) { return waitsForLanes(C); });
}

/// The blocks whose statements may wait for other lanes.
static llvm::BitVector barrierBlocks(const CFG &G) {
  llvm::BitVector Out(G.getNumBlockIDs());
  for (const CFGBlock *B : G)
    for (const Stmt *S : statementsOf(*B))
      if (waitsForLanes(S))
        Out.set(B->getBlockID());
  return Out;
}

/// The block that ends with \p R, or null.
static const CFGBlock *blockOf(const CFG &G, const ReturnStmt *R) {
  for (const CFGBlock *B : G)
    for (const Stmt *S : statementsOf(*B))
      if (S == R)
        return B;
  return nullptr;
}

/// Whether lanes may part on the way to \p RB, at a branch they have not
/// rejoined from when they reach it (its post-dominator lies on no path from
/// it to \p RB), and from which other lanes can go on to a barrier.
/// Block-uniform branches part no lanes.
static bool partsBeforeBarrier(const CFG &G, CFGPostDomTree &PostDom,
                               const CFGBlock &RB,
                               const llvm::BitVector &Barriers,
                               UniformityAnalysis &Uniform) {
  llvm::BitVector Before = reachableFrom(G, {&RB}, /*Backward=*/true);
  for (const CFGBlock *D : G) {
    if (!Before.test(D->getBlockID()) || D == &RB)
      continue;
    std::vector<const CFGBlock *> Succs;
    for (const CFGBlock::AdjacentBlock &S : D->succs())
      if (S.getReachableBlock())
        Succs.push_back(S.getReachableBlock());
    if (Succs.size() < 2)
      continue;
    const auto *Cond = dyn_cast_or_null<Expr>(D->getTerminatorCondition());
    if (Cond && Uniform.isBlockUniform(Cond))
      continue;
    const auto *Node = PostDom.getBase().getNode(const_cast<CFGBlock *>(D));
    const CFGBlock *Join =
        Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    if (!reachableFrom(G, Succs, /*Backward=*/false, Join)
             .test(RB.getBlockID()))
      continue; // every lane is back together before the return
    if (reachableFrom(G, Succs, /*Backward=*/false).anyCommon(Barriers))
      return true;
  }
  return false;
}

const ReturnStmt *returnBeforeBarrier(ASTContext &Ctx,
                                      const FunctionDecl *Kernel) {
  assert(Kernel->hasBody() && "an instantiation or a plain function");
  std::vector<const ReturnStmt *> Returns = returnsOf(Kernel->getBody());
  if (Returns.empty())
    return nullptr;
  CFG::BuildOptions Options;
  std::unique_ptr<CFG> G =
      CFG::buildCFG(Kernel, Kernel->getBody(), &Ctx, Options);
  if (!G)
    return waitsForLanes(Kernel->getBody()) ? Returns.front() : nullptr;
  llvm::BitVector Barriers = barrierBlocks(*G);
  if (Barriers.none())
    return nullptr;
  UniformityAnalysis Uniform(Ctx, Kernel);
  CFGPostDomTree PostDom(G.get());
  for (const ReturnStmt *R : Returns) {
    const CFGBlock *RB = blockOf(*G, R);
    if (!RB)
      continue; // unreachable: never taken
    if (partsBeforeBarrier(*G, PostDom, *RB, Barriers, Uniform))
      return R;
  }
  return nullptr;
}

} // namespace distwar
