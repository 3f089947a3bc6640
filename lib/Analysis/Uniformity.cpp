//===- Uniformity.cpp - values that are equal in every lane of a warp -----===//

#include "Analysis/Uniformity.h"
#include "Analysis/AstQueries.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

namespace {

} // namespace

/// CUDA's built-in index variables (the real SDK and the hermetic shim both
/// declare them as global variables of these names).
const VarDecl *builtinVar(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    E = POE->getSyntacticForm()->IgnoreParenImpCasts();
  const Expr *Base = nullptr;
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E))
    Base = MP->getBaseExpr();
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    Base = ME->getBase();
  if (!Base)
    return nullptr;
  Base = Base->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base);
      OVE && OVE->getSourceExpr())
    Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasGlobalStorage() || !V->getIdentifier())
    return nullptr;
  llvm::StringRef N = V->getName();
  if (N == "threadIdx" || N == "blockIdx" || N == "blockDim" || N == "gridDim")
    return V;
  return nullptr;
}

namespace {

bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() && NS->getName() == "cooperative_groups")
        return true;
  return false;
}

/// Cooperative-groups queries that read the launch configuration only.
bool isGroupAccessor(llvm::StringRef N) {
  return N == "group_index" || N == "group_dim" || N == "dim_threads" ||
         N == "dim_blocks" || N == "num_threads" || N == "num_blocks" ||
         N == "size" || N == "block_index" || N == "block_dim" ||
         N == "this_thread_block" || N == "this_grid";
}

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

struct Write {
  const Stmt *At;
  const Expr *Value; ///< null: unknown value (escape, partial write)
  bool SelfStep;     ///< ++/--: a uniform step of the old value
};

void collectWrites(const Stmt *S, const VarDecl *V,
                   llvm::SmallVectorImpl<Write> &Out) {
  if (!S)
    return;
  auto Designates = [&](const Expr *E, bool &Whole) {
    const Expr *X = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X)) {
      Whole = true;
      return DRE->getDecl() == V;
    }
    Whole = false;
    return rootVariable(X) == V;
  };
  bool Whole = false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && Designates(BO->getLHS(), Whole)) {
    Out.push_back({S, Whole ? BO->getRHS() : nullptr, false});
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() && Designates(UO->getSubExpr(), Whole))
      Out.push_back({S, nullptr, Whole});
    else if (UO->getOpcode() == UO_AddrOf &&
             Designates(UO->getSubExpr(), Whole))
      Out.push_back({S, nullptr, false});
  } else if (isa<CallExpr, CXXConstructExpr, DeclStmt>(S)) {
    if (const Stmt *W = findWrite(S, V, /*Through=*/true);
        W && !isa<BinaryOperator, UnaryOperator>(W))
      if (W == S)
        Out.push_back({S, nullptr, false});
  }
  for (const Stmt *Child : S->children())
    collectWrites(Child, V, Out);
}

} // namespace

UniformityAnalysis::UniformityAnalysis(ASTContext &Ctx, const FunctionDecl *F)
    : Ctx(Ctx), F(F) {
  assert(F && "uniformity is a property within one function");
  if (Stmt *Body = F->getBody()) {
    Parents = std::make_unique<ParentMap>(Body);
    HasGoto = containsGoto(Body);
  }
}

UniformityAnalysis::~UniformityAnalysis() = default;

void UniformityAnalysis::assumeRemoved(const Expr *Conjunct) {
  Removed.insert(Conjunct);
  VarCache.clear();
}

const Stmt *UniformityAnalysis::parentOf(const Stmt *S) {
  return Parents ? Parents->getParent(S) : nullptr;
}

bool UniformityAnalysis::unchangedKernelParameter(const ParmVarDecl *P) {
  if (!F->hasAttr<CUDAGlobalAttr>() || P->getDeclContext() != F)
    return false;
  // A pointer must keep its value; a by-value struct its own storage (stores
  // through its pointer members leave it unchanged).
  if (P->getType()->isPointerType())
    return !findWrite(F->getBody(), P, /*Through=*/false);
  return !findStorageWrite(F->getBody(), P);
}

bool UniformityAnalysis::isGridUniform(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (!E->isValueDependent() && !E->isTypeDependent() &&
      isCompileTimeConstant(E, Ctx))
    return true;
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, CharacterLiteral>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(D))
      return true;
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      return unchangedKernelParameter(P);
    if (const auto *V = dyn_cast<VarDecl>(D))
      return V->hasGlobalStorage() && !V->isLocalVarDecl() &&
             (V->hasAttr<CUDAConstantAttr>() ||
              V->getType().isConstQualified());
    return false;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isGridUniform(ME->getBase());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           UO->getOpcode() != UO_AddrOf && isGridUniform(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && isGridUniform(BO->getLHS()) &&
           isGridUniform(BO->getRHS());
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isGridUniform(CO->getCond()) && isGridUniform(CO->getTrueExpr()) &&
           isGridUniform(CO->getFalseExpr());
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
    return isGridUniform(CE->getSubExpr());
  // An array member of a uniform struct (`p.cam.flags[1]`).
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase());
    return Decay && Decay->getCastKind() == CK_ArrayToPointerDecay &&
           isGridUniform(Decay->getSubExpr()) && isGridUniform(ASE->getIdx());
  }
  // A pure function (a const method of a uniform object) of uniform values.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !readsOnlyArguments(FD))
      return false;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (!isGridUniform(MC->getImplicitObjectArgument()))
        return false;
    return llvm::all_of(Call->arguments(),
                        [&](const Expr *A) { return isGridUniform(A); });
  }
  return false;
}

bool UniformityAnalysis::controlIsUniform(const Stmt *S,
                                          const Stmt *ContinuesAllowedIn) {
  // A goto taken by some lanes can skip or repeat any statement: the
  // enclosing statements alone no longer say which lanes run \p S.
  if (HasGoto)
    return false;
  const Stmt *Child = S;
  for (const Stmt *P = parentOf(S); P; Child = P, P = parentOf(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if ((Child == If->getThen() || Child == If->getElse()) &&
          (If->getInit() || If->getConditionVariable() ||
           !isUniform(If->getCond())))
        return false;
      continue;
    }
    const Expr *Cond = nullptr;
    const Stmt *Body = nullptr, *Inc = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(P)) {
      Cond = For->getCond();
      Body = For->getBody();
      Inc = For->getInc();
      if (For->getConditionVariable())
        return false;
    } else if (const auto *While = dyn_cast<WhileStmt>(P)) {
      Cond = While->getCond();
      Body = While->getBody();
      if (While->getConditionVariable())
        return false;
    } else if (const auto *Do = dyn_cast<DoStmt>(P)) {
      Cond = Do->getCond();
      Body = Do->getBody();
    } else if (isa<CXXForRangeStmt, LambdaExpr>(P)) {
      return false;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Child != CO->getCond() && !isUniform(CO->getCond()))
        return false;
      continue;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS() &&
          !isUniform(BO->getLHS()))
        return false;
      continue;
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (Child == Sw->getBody() && !isUniform(Sw->getCond()))
        return false;
      continue;
    } else {
      continue;
    }
    if (Child != Body && Child != Inc && Child != Cond)
      continue; // the init runs once, before the loop
    if (Cond) {
      llvm::SmallVector<const Expr *, 4> Terms;
      flattenAnd(Cond, Terms);
      for (const Expr *T : Terms)
        if (!Removed.contains(T) && !isUniform(T))
          return false;
    }
    bool Break = false, Continue = false, Goto = false;
    forEachLoopExit(Body, [&](const LoopExit &E) {
      // A return only removes lanes: the others' values stay equal.
      Goto |= E.Kind == ExitKind::Goto;
      Break |= E.Kind == ExitKind::Break;
      Continue |= E.Kind == ExitKind::Continue;
      return true;
    });
    if (Break || Goto)
      return false;
    if (Continue && Child == Body && P != ContinuesAllowedIn)
      return false;
  }
  return true;
}

bool UniformityAnalysis::uniformVar(const VarDecl *V, bool TrustLoads) {
  if (V->getIdentifier()) {
    llvm::StringRef N = V->getName();
    if (V->hasGlobalStorage() && (N == "blockIdx" || N == "blockDim" ||
                                  N == "gridDim" || N == "warpSize"))
      return true;
    if (V->hasGlobalStorage() && N == "threadIdx")
      return false;
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return unchangedKernelParameter(P);
  if (!V->isLocalVarDecl())
    return V->hasGlobalStorage() && !V->hasAttr<CUDASharedAttr>() &&
           (V->hasAttr<CUDAConstantAttr>() || V->getType().isConstQualified() ||
            TrustLoads);
  if (V->hasAttr<CUDASharedAttr>() || V->isStaticLocal() ||
      V->getType()->isReferenceType())
    return false;
  auto Key = std::make_pair(V, unsigned(TrustLoads));
  if (auto It = VarCache.find(Key); It != VarCache.end())
    return It->second;
  if (InProgress.contains(Key))
    return true; // optimistic for induction variables; proven below
  InProgress.insert(Key);
  bool Ok = true;
  llvm::SmallVector<Write, 4> Writes;
  collectWrites(F->getBody(), V, Writes);
  if (const Expr *Init = V->getInit())
    Ok = isUniform(Init, TrustLoads);
  else if (Writes.empty())
    Ok = false;
  for (const Write &W : Writes) {
    if (!Ok)
      break;
    if (!W.Value && !W.SelfStep)
      Ok = false;
    else if (W.Value && !isUniform(W.Value, TrustLoads))
      Ok = false;
    else if (!controlIsUniform(W.At))
      Ok = false;
  }
  InProgress.erase(Key);
  VarCache[Key] = Ok;
  return Ok;
}

bool UniformityAnalysis::sharedReadIsStable(const VarDecl *Shared,
                                            const Expr *Read) {
  llvm::SmallVector<Write, 4> Writes;
  collectWrites(F->getBody(), Shared, Writes);
  auto Contains = [&](const Stmt *Root, const Stmt *S) {
    for (const Stmt *P = S; P; P = parentOf(P))
      if (P == Root)
        return true;
    return false;
  };
  const Stmt *Child = Read;
  for (const Stmt *P = parentOf(Read); P; Child = P, P = parentOf(P)) {
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    llvm::SmallVector<const Stmt *, 16> Body(CS->body_begin(), CS->body_end());
    int R = -1;
    llvm::SmallVector<bool, 16> Writer(Body.size()), Barrier(Body.size());
    bool Any = false;
    for (size_t I = 0; I < Body.size(); ++I) {
      if (Body[I] == Child)
        R = I;
      Barrier[I] = isBlockBarrier(Body[I]);
      for (const Write &W : Writes)
        if (Contains(Body[I], W.At))
          Writer[I] = Any = true;
    }
    if (R < 0)
      return false;
    if (Writer[R])
      return false;
    if (!Any)
      continue;
    // Cyclic order: the region may be a loop body or sit in one.
    const int N = Body.size();
    for (int Dir : {1, -1}) {
      for (int Step = 1; Step < N; ++Step) {
        int I = ((R + Dir * Step) % N + N) % N;
        if (Barrier[I])
          break;
        if (Writer[I])
          return false;
      }
    }
    return true;
  }
  return Writes.empty();
}

bool UniformityAnalysis::uniformLoad(const Expr *Base, const Expr *Index,
                                     const Expr *Whole, bool TrustLoads) {
  if (!isUniform(Base, TrustLoads) || (Index && !isUniform(Index, TrustLoads)))
    return false;
  const Expr *B = Base->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(B))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->hasAttr<CUDASharedAttr>())
      return sharedReadIsStable(V, Whole) || TrustLoads;
  QualType T = Base->IgnoreParenImpCasts()->getType();
  if (T->isPointerType() && T->getPointeeType().isConstQualified())
    if (const VarDecl *Root = rootVariable(B))
      if (isa<ParmVarDecl>(Root) && Root->getType().isRestrictQualified())
        return true;
  return TrustLoads;
}

bool UniformityAnalysis::isUniform(const Expr *E, bool TrustLoads) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    return isUniform(ICE->getSubExpr(), TrustLoads);
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, CharacterLiteral, StringLiteral,
          UnaryExprOrTypeTraitExpr, SizeOfPackExpr>(E))
    return true;
  if (!E->isValueDependent() && !E->isTypeDependent() &&
      E->getType()->isIntegralOrEnumerationType() &&
      isCompileTimeConstant(E, Ctx))
    return true;
  if (const VarDecl *BV = builtinVar(E))
    return BV->getName() != "threadIdx";
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return isUniform(POE->getSyntacticForm(), TrustLoads);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl, FunctionDecl>(D))
      return true;
    if (const auto *V = dyn_cast<VarDecl>(D))
      return uniformVar(V, TrustLoads);
    return false;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      return uniformLoad(ME->getBase(), nullptr, E, TrustLoads);
    return isUniform(ME->getBase(), TrustLoads);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = ASE->getBase()->IgnoreParens();
    if (const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
        Decay && Decay->getCastKind() == CK_ArrayToPointerDecay) {
      const Expr *Array = Decay->getSubExpr()->IgnoreParens();
      const auto *DRE = dyn_cast<DeclRefExpr>(Array);
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (V && V->hasAttr<CUDASharedAttr>())
        return isUniform(ASE->getIdx(), TrustLoads) &&
               (sharedReadIsStable(V, E) || TrustLoads);
      // An array inside a uniform value (a by-value parameter's member).
      return isUniform(Array, TrustLoads) &&
             isUniform(ASE->getIdx(), TrustLoads);
    }
    return uniformLoad(ASE->getBase(), ASE->getIdx(), E, TrustLoads);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return uniformLoad(UO->getSubExpr(), nullptr, E, TrustLoads);
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      return false;
    return isUniform(UO->getSubExpr(), TrustLoads);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && isUniform(BO->getLHS(), TrustLoads) &&
           isUniform(BO->getRHS(), TrustLoads);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isUniform(CO->getCond(), TrustLoads) &&
           isUniform(CO->getTrueExpr(), TrustLoads) &&
           isUniform(CO->getFalseExpr(), TrustLoads);
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return isUniform(CE->getSubExpr(), TrustLoads);
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return isUniform(EWC->getSubExpr(), TrustLoads);
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return isUniform(MTE->getSubExpr(), TrustLoads);
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    return isUniform(BTE->getSubExpr(), TrustLoads);
  if (const auto *CE = dyn_cast<ConstantExpr>(E))
    return isUniform(CE->getSubExpr(), TrustLoads);
  if (const auto *ILE = dyn_cast<InitListExpr>(E))
    return llvm::all_of(
        ILE->inits(), [&](const Expr *I) { return isUniform(I, TrustLoads); });
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && inCooperativeGroups(M) && M->getIdentifier())
      return isGroupAccessor(M->getName());
  }
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E)) {
    if (!CCE->getConstructor()->isTrivial() &&
        !readsOnlyArguments(CCE->getConstructor()))
      return false;
    return llvm::all_of(CCE->arguments(), [&](const Expr *A) {
      return isUniform(A, TrustLoads);
    });
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && inCooperativeGroups(FD) && FD->getIdentifier())
      return isGroupAccessor(FD->getName());
    if (!FD || !readsOnlyArguments(FD))
      return false;
    // A method reads its object too.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (!isUniform(MC->getImplicitObjectArgument(), TrustLoads))
        return false;
    return llvm::all_of(Call->arguments(), [&](const Expr *A) {
      return isUniform(A, TrustLoads);
    });
  }
  return false;
}

bool UniformityAnalysis::distinctPerLane(const Expr *E, unsigned Depth) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenCasts();
  if (const VarDecl *BV = builtinVar(E)) {
    const Expr *X = E;
    if (const auto *POE = dyn_cast<PseudoObjectExpr>(X))
      X = POE->getSyntacticForm()->IgnoreParenImpCasts();
    if (const auto *MP = dyn_cast<MSPropertyRefExpr>(X))
      return BV->getName() == "threadIdx" &&
             MP->getPropertyDecl()->getName() == "x";
    if (const auto *ME = dyn_cast<MemberExpr>(X))
      return BV->getName() == "threadIdx" &&
             ME->getMemberDecl()->getName() == "x";
    return false;
  }
  // thread_rank() of a thread block or tile: a method, static for a block.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *M = Call->getDirectCallee();
    return M && inCooperativeGroups(M) && M->getIdentifier() &&
           M->getName() == "thread_rank";
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->isLocalVarDecl() || !V->getInit() ||
        findWrite(F->getBody(), V, /*Through=*/true))
      return false;
    return distinctPerLane(V->getInit(), Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add:
      return (distinctPerLane(BO->getLHS(), Depth + 1) &&
              isUniform(BO->getRHS())) ||
             (distinctPerLane(BO->getRHS(), Depth + 1) &&
              isUniform(BO->getLHS()));
    case BO_Sub:
      return distinctPerLane(BO->getLHS(), Depth + 1) &&
             isUniform(BO->getRHS());
    case BO_Mul: {
      auto NonZero = [&](const Expr *X) {
        Expr::EvalResult R;
        return !X->isValueDependent() && X->EvaluateAsInt(R, Ctx) &&
               R.Val.getInt() != 0;
      };
      return (distinctPerLane(BO->getLHS(), Depth + 1) &&
              NonZero(BO->getRHS())) ||
             (distinctPerLane(BO->getRHS(), Depth + 1) &&
              NonZero(BO->getLHS()));
    }
    default:
      return false;
    }
  }
  return false;
}

/// The indices of `&acc[a][b]...` (overloaded subscripts), or an empty list.
static llvm::SmallVector<const Expr *, 4> accessorIndices(const Expr *Key) {
  llvm::SmallVector<const Expr *, 4> Indices;
  llvm::SmallVector<const CXXOperatorCallExpr *, 4> Ops;
  const auto *AddrOf = dyn_cast<UnaryOperator>(Key->IgnoreParenImpCasts());
  if (AddrOf && AddrOf->getOpcode() == UO_AddrOf &&
      subscriptChain(AddrOf->getSubExpr(), Ops))
    for (const CXXOperatorCallExpr *Op : Ops)
      Indices.push_back(Op->getArg(1));
  return Indices;
}

KeyUniformity UniformityAnalysis::classifyKey(const Expr *Key) {
  // An accessor's element (the accessor is the same in every lane): as
  // uniform as its indices together, distinct where one index is.
  if (auto Indices = accessorIndices(Key); !Indices.empty()) {
    unsigned Uniform = 0, Likely = 0, Distinct = 0;
    for (const Expr *I : Indices) {
      KeyUniformity K = classifyKey(I);
      Uniform += K == KeyUniformity::Uniform;
      Likely += K == KeyUniformity::Uniform || K == KeyUniformity::LikelyUniform;
      Distinct += K == KeyUniformity::Distinct;
    }
    if (Uniform == Indices.size())
      return KeyUniformity::Uniform;
    if (Likely == Indices.size())
      return KeyUniformity::LikelyUniform;
    if (Distinct)
      return KeyUniformity::Distinct;
    return KeyUniformity::Varying;
  }
  if (isUniform(Key))
    return KeyUniformity::Uniform;
  if (isUniform(Key, /*TrustLoads=*/true))
    return KeyUniformity::LikelyUniform;
  if (distinctPerLane(Key, 0))
    return KeyUniformity::Distinct;
  return KeyUniformity::Varying;
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
  if (!S)
    return false;
  if (isa<AsmStmt>(S))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && isBuiltinOperatorCall(Op)) {
    for (const Expr *Arg : Op->arguments())
      if (mayBeCollective(Arg, Depth))
        return true;
    return false;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return true;
    llvm::StringRef N = FD->getIdentifier() ? FD->getName() : "";
    if (isCollectiveName(N))
      return true;
    if (inCooperativeGroups(FD)) {
      if (!isGroupAccessor(N) && !isLaneAccessor(N))
        return true;
    } else if (N.starts_with("atomic") || N.starts_with("__nv_") ||
               N.starts_with("__builtin_") || N.starts_with("__nvvm_") ||
               isPureCallee(FD)) {
      // computes or adds atomically: no warp-level synchronisation
    } else {
      const FunctionDecl *Def = nullptr;
      if (Depth > 8 || !FD->hasBody(Def) || !Def ||
          mayBeCollective(Def->getBody(), Depth + 1)) {
        return true;
      }
    }
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *C = Construct->getConstructor();
    const FunctionDecl *Def = nullptr;
    if (!C->isTrivial() && !inCooperativeGroups(C) &&
        (Depth > 8 || !C->hasBody(Def) || !Def ||
         mayBeCollective(Def->getBody(), Depth + 1)))
      return true;
  }
  for (const Stmt *Child : S->children())
    if (mayBeCollective(Child, Depth))
      return true;
  return false;
}

void flattenAnd(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  const Expr *S = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->getOpcode() == BO_LAnd) {
    flattenAnd(BO->getLHS(), Out);
    flattenAnd(BO->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

} // namespace distwar
