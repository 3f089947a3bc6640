//===- Collectives.cpp - Barriers and warp-collective calls ---------------===//

#include "Analysis/Collectives.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Purity.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distwar {

bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() && NS->getName() == "cooperative_groups")
        return true;
  return false;
}

bool isGroupAccessor(llvm::StringRef N) {
  return N == "group_index" || N == "group_dim" || N == "dim_threads" ||
         N == "dim_blocks" || N == "num_threads" || N == "num_blocks" ||
         N == "size" || N == "block_index" || N == "block_dim" ||
         N == "this_thread_block" || N == "this_grid";
}

namespace {

bool isLaneAccessor(llvm::StringRef N) {
  return N == "thread_rank" || N == "thread_index" || N == "block_rank";
}

bool isCollectiveName(llvm::StringRef N) {
  return N.starts_with("__syncthreads") || N.starts_with("__syncwarp") ||
         N.starts_with("__shfl") || N.starts_with("__ballot") || N == "__any" ||
         N == "__all" || N.starts_with("__any_sync") ||
         N.starts_with("__all_sync") || N.starts_with("__uni_sync") ||
         N.starts_with("__match") || N.starts_with("__reduce_") ||
         N == "__activemask" || N.starts_with("__barrier") ||
         N.starts_with("__nvvm_bar") || N.starts_with("__nvvm_shfl") ||
         N.starts_with("__nvvm_vote") || N.starts_with("__nvvm_match");
}

bool isBarrierName(llvm::StringRef N) {
  return N.starts_with("__syncthreads") || N.starts_with("__barrier") ||
         N.starts_with("__nvvm_bar") || N.starts_with("__nvvm_barrier");
}

/// Whether a call to \p FD needs no look inside: it computes, or adds
/// atomically, and never waits for another thread.
bool isLeafCallee(const FunctionDecl *FD, llvm::StringRef N) {
  return N.starts_with("atomic") || N.starts_with("__nv_") ||
         N.starts_with("__builtin_") || N.starts_with("__nvvm_") ||
         isPureCallee(FD);
}

/// Whether \p S, or a function it calls (to depth 8; an unknown body
/// counts), may synchronise threads: at a block barrier, and with
/// \p WarpToo at a warp collective as well.
template <bool WarpToo> bool maySync(const Stmt *S, unsigned Depth) {
  if (!S)
    return false;
  if (isa<AsmStmt>(S))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && isBuiltinOperatorCall(Op)) {
    for (const Expr *Arg : Op->arguments())
      if (maySync<WarpToo>(Arg, Depth))
        return true;
    return false;
  }
  auto CalleeMay = [&](const FunctionDecl *FD) {
    const FunctionDecl *Def = nullptr;
    return Depth > 8 || !FD->hasBody(Def) || !Def ||
           maySync<WarpToo>(Def->getBody(), Depth + 1);
  };
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return true;
    // A virtual call may reach any override.
    if (const auto *M = dyn_cast<CXXMethodDecl>(FD);
        M && M->isVirtual() && isa<CXXMemberCallExpr>(Call) &&
        !M->hasAttr<FinalAttr>() && !M->getParent()->hasAttr<FinalAttr>())
      return true;
    llvm::StringRef N = FD->getIdentifier() ? FD->getName() : "";
    if (isBarrierName(N) || (WarpToo && isCollectiveName(N)))
      return true;
    if (inCooperativeGroups(FD)) {
      if (!isGroupAccessor(N) && !isLaneAccessor(N))
        return true;
    } else if (!isCollectiveName(N) && !isLeafCallee(FD, N) && CalleeMay(FD)) {
      return true;
    }
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *C = Construct->getConstructor();
    if (!C->isTrivial() && !inCooperativeGroups(C) && CalleeMay(C))
      return true;
  }
  for (const Stmt *Child : S->children())
    if (maySync<WarpToo>(Child, Depth))
      return true;
  return false;
}

} // namespace

bool mayReachBlockBarrier(const Stmt *S, unsigned Depth) {
  return maySync</*WarpToo=*/false>(S, Depth);
}

bool isBlockBarrier(const Stmt *S) {
  if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call)
    return false;
  llvm::StringRef N = calleeName(Call);
  if (N == "__syncthreads")
    return true;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !inCooperativeGroups(FD) || N != "sync")
    return false;
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = MC->getImplicitObjectArgument();
  else if (const auto *ME =
               dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
    Object = ME->getBase(); // a static member function: block.sync()
  else if (Call->getNumArgs() == 1)
    Object = Call->getArg(0);
  if (!Object)
    return false;
  std::string Type = Object->getType().getCanonicalType().getAsString();
  return llvm::StringRef(Type).contains("thread_block") &&
         !llvm::StringRef(Type).contains("tile");
}

bool mayBeCollective(const Stmt *S, unsigned Depth) {
  return maySync</*WarpToo=*/true>(S, Depth);
}

} // namespace distwar
