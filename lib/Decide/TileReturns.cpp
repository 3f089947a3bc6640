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

/// The first place of \p B that may wait for other lanes (a statement, or
/// the statement that ends a local's life whose destructor may), and
/// whether it may wait for the whole block (else for a warp at most).
static std::pair<const Stmt *, bool>
firstWait(ASTContext &Ctx, const CFGBlock &B, const Stmt *Body) {
  const Stmt *First = nullptr;
  bool Block = false;
  auto Note = [&](const Stmt *At, bool WholeBlock) {
    if (!First)
      First = At;
    Block |= WholeBlock;
  };
  for (const CFGElement &E : B) {
    if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
      if (waitsForLanes(S->getStmt()))
        Note(S->getStmt(), mayReachBlockBarrier(S->getStmt()));
    } else if (std::optional<CFGAutomaticObjDtor> D =
                   E.getAs<CFGAutomaticObjDtor>()) {
      const CXXDestructorDecl *Dtor = D->getDestructorDecl(Ctx);
      const FunctionDecl *Def = nullptr;
      if (!Dtor || Dtor->isTrivial())
        continue;
      const Stmt *At = D->getTriggerStmt() ? D->getTriggerStmt() : Body;
      if (!Dtor->hasBody(Def) || !Def)
        Note(At, true);
      else if (mayBeCollective(Def->getBody()))
        Note(At, mayReachBlockBarrier(Def->getBody()));
    }
  }
  return {First, Block};
}

/// The blocks whose statements may wait for other lanes.
static llvm::BitVector barrierBlocks(ASTContext &Ctx, const CFG &G,
                                     const Stmt *Body) {
  llvm::BitVector Out(G.getNumBlockIDs());
  for (const CFGBlock *B : G)
    if (firstWait(Ctx, *B, Body).first)
      Out.set(B->getBlockID());
  return Out;
}

/// The CFG of \p Kernel's body, locals' destructors included (one may
/// wait at a barrier).
static std::unique_ptr<CFG> cfgOf(ASTContext &Ctx, const FunctionDecl *Kernel) {
  CFG::BuildOptions Options;
  Options.AddImplicitDtors = true;
  return CFG::buildCFG(Kernel, Kernel->getBody(), &Ctx, Options);
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

/// The branches \p Y is control dependent on (it post-dominates a successor
/// of the branch, not the branch itself), and those they are, and so on:
/// every branch whose way decides whether a lane reaches \p Y.
static std::vector<const CFGBlock *>
controllingBranches(const CFG &G, CFGPostDomTree &PostDom, const CFGBlock &Y) {
  llvm::BitVector Seen(G.getNumBlockIDs());
  std::vector<const CFGBlock *> Out, Work{&Y};
  while (!Work.empty()) {
    const CFGBlock *Z = Work.back();
    Work.pop_back();
    for (const CFGBlock *D : G) {
      if (Seen.test(D->getBlockID()) ||
          PostDom.properlyDominates(const_cast<CFGBlock *>(Z),
                                    const_cast<CFGBlock *>(D)))
        continue;
      bool Controls = false;
      for (const CFGBlock::AdjacentBlock &S : D->succs())
        Controls |=
            S.getReachableBlock() &&
            PostDom.dominates(const_cast<CFGBlock *>(Z), S.getReachableBlock());
      if (!Controls || D->succ_size() < 2)
        continue;
      Seen.set(D->getBlockID());
      Out.push_back(D);
      Work.push_back(D);
    }
  }
  return Out;
}

const Stmt *barrierNotEveryLaneReaches(ASTContext &Ctx,
                                       const FunctionDecl *Kernel) {
  assert(Kernel->hasBody() && "an instantiation or a plain function");
  std::unique_ptr<CFG> G = cfgOf(Ctx, Kernel);
  if (!G) {
    const Stmt *Body = Kernel->getBody();
    return waitsForLanes(Body) ? Body : nullptr;
  }
  UniformityAnalysis Uniform(Ctx, Kernel);
  CFGPostDomTree PostDom(G.get());
  const llvm::BitVector Reached =
      reachableFrom(*G, {&G->getEntry()}, /*Backward=*/false);
  for (const CFGBlock *B : *G) {
    auto [Wait, WholeBlock] = firstWait(Ctx, *B, Kernel->getBody());
    if (!Wait || !Reached.test(B->getBlockID()))
      continue;
    for (const CFGBlock *D : controllingBranches(*G, PostDom, *B)) {
      const auto *Cond = dyn_cast_or_null<Expr>(D->getTerminatorCondition());
      if (!Cond || !(WholeBlock ? Uniform.isUniformInBlock(Cond)
                                : Uniform.isUniform(Cond)))
        return Wait;
    }
  }
  return nullptr;
}

const ReturnStmt *returnBeforeBarrier(ASTContext &Ctx,
                                      const FunctionDecl *Kernel) {
  assert(Kernel->hasBody() && "an instantiation or a plain function");
  std::vector<const ReturnStmt *> Returns = returnsOf(Kernel->getBody());
  if (Returns.empty())
    return nullptr;
  std::unique_ptr<CFG> G = cfgOf(Ctx, Kernel);
  if (!G)
    return waitsForLanes(Kernel->getBody()) ? Returns.front() : nullptr;
  llvm::BitVector Barriers = barrierBlocks(Ctx, *G, Kernel->getBody());
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
