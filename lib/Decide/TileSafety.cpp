//===- TileSafety.cpp - may a kernel's blocks become dynamic tiles --------===//

#include "Decide/TileSafety.h"
#include "Analysis/AstQueries.h"
#include "Analysis/BlockIndexUses.h"
#include "Analysis/VarWrites.h"
#include "Decide/TileReturns.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace distwar {

namespace {

/// What one function body does that concerns its blocks' independence,
/// the first of each kind (not following calls; the calls are listed).
struct BodyFacts {
  const Stmt *GridGroup = nullptr;
  const Stmt *BlockOrder = nullptr;
  const char *BlockOrderWhat = "";
  const Stmt *Hidden = nullptr; ///< asm reading the grid, an unknown callee
  std::vector<std::pair<const FunctionDecl *, const Stmt *>> Callees;
};

bool isAtomicName(llvm::StringRef N) {
  return N.starts_with("atomic") || N.starts_with("__nv_atomic") ||
         N.starts_with("__atomic") || N.starts_with("__nvvm_atom") ||
         N.starts_with("__iAtomic") || N.starts_with("__fAtomic") ||
         N.starts_with("__uAtomic") || N.starts_with("__ullAtomic") ||
         N.starts_with("__illAtomic") || N.starts_with("__dAtomic");
}

/// A load or store that bypasses the SM's cache, so that other blocks'
/// writes are seen or its own reach them (`__ldcg`, `__stcg`, ...): how
/// blocks signal without atomics.
bool isCoherentAccessName(llvm::StringRef N) {
  return N == "__ldcg" || N == "__ldcv" || N == "__ldlu" || N == "__stcg" ||
         N == "__stwt" || N == "__stcs" || N == "__stwb";
}

bool isGridFenceName(llvm::StringRef N) {
  return N == "__threadfence" || N == "__threadfence_system" ||
         N.starts_with("__nvvm_membar_gl") ||
         N.starts_with("__nvvm_membar_sys") || N.starts_with("__nvvm_fence") ||
         N == "atomic_thread_fence" || N == "__atomic_thread_fence";
}

/// Whether the value of \p Call is used (not a statement of its own, the
/// left of a comma, or cast to void).
bool resultUsed(ASTContext &Ctx, const Expr *Call) {
  const Expr *E = Call;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*E);
    if (Parents.empty())
      return true;
    const auto *P = Parents[0].get<Stmt>();
    if (!P)
      return true;
    if (isa<ExprWithCleanups, ParenExpr>(P) ||
        (isa<CastExpr>(P) && cast<CastExpr>(P)->getType()->isVoidType())) {
      E = cast<Expr>(P);
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(P))
      return !(B->getOpcode() == BO_Comma && B->getLHS() == E);
    return isa<Expr>(P) || isa<ReturnStmt>(P) || isa<DeclStmt>(P) ||
           (isa<IfStmt>(P) && cast<IfStmt>(P)->getCond() == E) ||
           (isa<WhileStmt>(P) && cast<WhileStmt>(P)->getCond() == E) ||
           (isa<DoStmt>(P) && cast<DoStmt>(P)->getCond() == E) ||
           (isa<ForStmt>(P) && cast<ForStmt>(P)->getCond() == E) ||
           (isa<SwitchStmt>(P) && cast<SwitchStmt>(P)->getCond() == E);
  }
}

/// Whether \p Address (an atomic's first argument) points into a
/// `__shared__` variable: the block's own memory, which no other block sees.
bool pointsIntoShared(const Expr *Address) {
  Address = Address->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Address);
      U && U->getOpcode() == UO_AddrOf)
    Address = U->getSubExpr();
  const VarDecl *V = rootVariable(Address);
  return V && V->hasAttr<CUDASharedAttr>() && !V->getType()->isPointerType();
}

class FactFinder : public RecursiveASTVisitor<FactFinder> {
public:
  FactFinder(ASTContext &Ctx, BodyFacts &F) : Ctx(Ctx), F(F) {}

  bool TraverseLambdaExpr(LambdaExpr *L) {
    GenericLambdas += L->isGenericLambda();
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
    GenericLambdas -= L->isGenericLambda();
    return Result;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (isGridGroupCall(Call))
      set(F.GridGroup, Call);
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD) {
      // A generic lambda's calls resolve in its instantiations, which are
      // judged as callees of the calls that instantiate them.
      bool Resolved = GenericLambdas && Call->isTypeDependent();
      if (!Resolved &&
          !isa<CXXPseudoDestructorExpr>(Call->getCallee()->IgnoreParens()))
        set(F.Hidden, Call);
      return true;
    }
    if (const auto *M = dyn_cast<CXXMethodDecl>(FD);
        M && M->isVirtual() && !M->hasAttr<FinalAttr>() &&
        !M->getParent()->hasAttr<FinalAttr>() && isa<CXXMemberCallExpr>(Call)) {
      // An override the call may reach is out of sight.
      set(F.Hidden, Call);
      return true;
    }
    llvm::StringRef N = FD->getIdentifier() ? FD->getName() : "";
    if (isGridFenceName(N))
      order(Call, "a fence for the whole device");
    if (isCoherentAccessName(N))
      order(Call, "a load or store that sees other blocks' writes");
    if (isAtomicName(N)) {
      if (resultUsed(Ctx, Call) &&
          !(Call->getNumArgs() && pointsIntoShared(Call->getArg(0))))
        order(Call, "an atomic whose result is used");
      return true; // its own body issues the atomic: nothing else to see
    }
    if (!isGroupIndexCall(Call) && !FD->hasAttr<CUDAGlobalAttr>())
      F.Callees.push_back({FD, Call});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    F.Callees.push_back({C->getConstructor(), C});
    return true;
  }
  bool VisitAsmStmt(AsmStmt *Asm) {
    if (asmReadsGridPlace(Asm))
      set(F.Hidden, Asm);
    if (asmMayOrderBlocks(Asm))
      order(Asm, "inline assembly that may order memory or end the thread");
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_LValueToRValue &&
        Cast->getSubExpr()->getType().isVolatileQualified())
      volatileAccess(Cast->getSubExpr());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && B->getLHS()->getType().isVolatileQualified())
      volatileAccess(B->getLHS());
    return true;
  }

private:
  void set(const Stmt *&Slot, const Stmt *S) {
    if (!Slot)
      Slot = S;
  }
  void order(const Stmt *S, const char *What) {
    if (!F.BlockOrder) {
      F.BlockOrder = S;
      F.BlockOrderWhat = What;
    }
  }
  void volatileAccess(const Expr *E) {
    const VarDecl *V = rootVariable(E);
    if (!V || !V->hasAttr<CUDASharedAttr>())
      order(E, "a volatile access that another block may see");
  }

  ASTContext &Ctx;
  BodyFacts &F;
  unsigned GenericLambdas = 0;
};

BodyFacts factsOf(ASTContext &Ctx, const Stmt *Body) {
  BodyFacts F;
  FactFinder(Ctx, F).TraverseStmt(const_cast<Stmt *>(Body));
  return F;
}

/// Whether \p FD is the call operator of a lambda written in \p Kernel:
/// its body is part of the kernel's, rewritten with it.
bool lambdaOfKernel(const FunctionDecl *FD, const FunctionDecl *Kernel) {
  const auto *M = dyn_cast<CXXMethodDecl>(FD);
  if (!M || !M->getParent()->isLambda())
    return false;
  for (const DeclContext *DC = M->getParent()->getDeclContext(); DC;
       DC = DC->getParent())
    if (DC == Kernel)
      return true;
  return false;
}

std::optional<ReasonPlace> placeOf(ASTContext &Ctx, const Stmt *S,
                                   llvm::StringRef Text) {
  return presumedPlaceAt(Ctx.getSourceManager(), S->getBeginLoc(), Text);
}

/// Each use of the block index in the kernel's own body must be one the
/// rewrite can replace: spelled in the file (a macro's argument at most),
/// in a lambda that captures it.
const Stmt *unreplaceableUse(ASTContext &Ctx, const FunctionDecl *Kernel) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const BlockIndexUse &U : findBlockIndexUses(Kernel->getBody())) {
    SourceLocation Begin = U.E->getBeginLoc(), End = U.E->getEndLoc();
    if (U.What != BlockIndexUse::GroupIndex) {
      if (Begin.isMacroID() && !SM.isMacroArgExpansion(Begin))
        return U.E;
    } else if (Begin.isMacroID() || End.isMacroID()) {
      return U.E;
    }
    if (!U.SeesLocals)
      return U.E;
  }
  return nullptr;
}

/// The first statement of \p Kernel's body that changes its parameter \p P
/// (a pointer's value, a by-value object's own storage), or null. A
/// block's thread starts each tile of the loop with the parameters as the
/// previous tile left them, where each original block started afresh.
const Stmt *parameterWrite(const FunctionDecl *Kernel, const ParmVarDecl *P) {
  if (P->getType()->isReferenceType())
    return nullptr; // __global__ parameters are never references
  return P->getType()->isPointerType()
             ? findWrite(Kernel->getBody(), P, /*Through=*/false)
             : findStorageWrite(Kernel->getBody(), P);
}

} // namespace

Verdict tileSafety(ASTContext &Ctx, const FunctionDecl *Kernel) {
  assert(Kernel->getBody() && "decided on a body");
  if (const Attr *A = Kernel->getAttr<CUDAClusterDimsAttr>())
    return Verdict(Reason::TileGridGroup,
                   presumedPlaceAt(Ctx.getSourceManager(), A->getLocation(),
                                   "the kernel runs in clusters of blocks"));
  // Every function the body reaches, each with the call in the kernel's
  // own body that leads to it (where the report points).
  std::vector<std::pair<const FunctionDecl *, const Stmt *>> Work;
  llvm::DenseSet<const FunctionDecl *> Seen;
  BodyFacts Own = factsOf(Ctx, Kernel->getBody());
  std::optional<Verdict> Hidden;
  auto Judge = [&](const BodyFacts &F,
                   const Stmt *Via) -> std::optional<Verdict> {
    if (F.GridGroup)
      return Verdict(Reason::TileGridGroup,
                     placeOf(Ctx, Via ? Via : F.GridGroup,
                             Via ? "this call reaches a grid-wide group"
                                 : "this call treats the grid as one group"));
    if (F.BlockOrder)
      return Verdict(Reason::TileBlockOrder,
                     placeOf(Ctx, Via ? Via : F.BlockOrder,
                             Via ? "this call reaches code that may order "
                                   "blocks"
                                 : F.BlockOrderWhat));
    if (F.Hidden && !Hidden)
      Hidden = Verdict(Reason::TileHiddenBlockIndex,
                       placeOf(Ctx, Via ? Via : F.Hidden,
                               "the block index may be read here, out of "
                               "the rewrite's reach"));
    return std::nullopt;
  };
  if (std::optional<Verdict> V = Judge(Own, nullptr))
    return *V;
  for (const auto &[FD, Call] : Own.Callees)
    Work.push_back({FD, Call});
  while (!Work.empty()) {
    auto [FD, Via] = Work.back();
    Work.pop_back();
    if (!Seen.insert(FD->getCanonicalDecl()).second)
      continue;
    // A lambda of the kernel is the kernel's text, rewritten with it (its
    // block index reads included); only an instantiation of a generic one
    // (a loop's versions) has calls that its pattern left unresolved.
    const bool OwnLambda = lambdaOfKernel(FD, Kernel);
    if (OwnLambda && !FD->isTemplateInstantiation())
      continue;
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def) {
      // Builtins and the CUDA headers' declarations (libdevice, the
      // compiler's intrinsics) read no block index; a program's own
      // function defined elsewhere may.
      if (!FD->getBuiltinID() &&
          !Ctx.getSourceManager().isInSystemHeader(FD->getLocation()) &&
          !Hidden)
        Hidden = Verdict(Reason::TileHiddenBlockIndex,
                         placeOf(Ctx, Via, "this call's body cannot be seen"));
      continue;
    }
    BodyFacts F = factsOf(Ctx, Def->getBody());
    if (std::optional<Verdict> V = Judge(F, Via))
      return *V;
    if (!Hidden && !OwnLambda && !findBlockIndexUses(Def->getBody()).empty())
      Hidden =
          Verdict(Reason::TileHiddenBlockIndex,
                  placeOf(Ctx, Via, "this call reads blockIdx or gridDim"));
    for (const auto &[Callee, Call] : F.Callees)
      Work.push_back({Callee, Via});
  }
  if (Hidden)
    return *Hidden;
  if (const Stmt *Use = unreplaceableUse(Ctx, Kernel))
    return Verdict(Reason::TileHiddenBlockIndex,
                   placeOf(Ctx, Use,
                           "this read cannot be replaced (a macro, a "
                           "lambda without a default capture, or a default "
                           "argument)"));
  for (const ParmVarDecl *P : Kernel->parameters())
    if (const Stmt *W = parameterWrite(Kernel, P))
      return Verdict(Reason::TileBlockOrder,
                     placeOf(Ctx, W,
                             "the body changes a parameter here: the block's "
                             "next tile would start from the changed value"));
  if (const ReturnStmt *R = returnBeforeBarrier(Ctx, Kernel))
    return Verdict(Reason::TileReturnBeforeBarrier,
                   placeOf(Ctx, R,
                           "lanes may return here while others go on to a "
                           "block barrier"));
  if (const Stmt *S = barrierNotEveryLaneReaches(Ctx, Kernel))
    return Verdict(Reason::TileReturnBeforeBarrier,
                   placeOf(Ctx, S,
                           "some lanes may skip this barrier or warp "
                           "collective and end their tile while others wait "
                           "here"));
  return Verdict();
}

} // namespace distwar
