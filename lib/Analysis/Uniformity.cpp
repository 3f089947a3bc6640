//===- Uniformity.cpp - values that are equal in every lane of a warp -----===//

#include "Analysis/Uniformity.h"
#include "Analysis/AstQueries.h"
#include "Analysis/BlockIndexUses.h"
#include "Analysis/Collectives.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/ReadOnlyParameters.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

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

/// Whether the CUDA built-in \p V (threadIdx, blockIdx, blockDim, gridDim,
/// warpSize) holds one value in every thread of a block (\p OfBlock) or of
/// the grid.
static bool builtinSameInThreads(const VarDecl *V, bool OfBlock) {
  llvm::StringRef N = V->getName();
  return N != "threadIdx" && (OfBlock || N != "blockIdx");
}

/// A CUDA built-in named whole (`dim3 b = blockIdx;`).
static bool isBuiltinVariable(const VarDecl *V) {
  return V->hasGlobalStorage() && V->getIdentifier() &&
         llvm::is_contained(
             {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"},
             V->getName());
}

bool UniformityAnalysis::sameInThreads(const Expr *E, bool OfBlock) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (!E->isValueDependent() && !E->isTypeDependent() &&
      isCompileTimeConstant(E, Ctx))
    return true;
  if (const VarDecl *BV = builtinVar(E))
    return builtinSameInThreads(BV, OfBlock);
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, CharacterLiteral>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(D))
      return true;
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      return unchangedKernelParameter(P);
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (isBuiltinVariable(V))
        return builtinSameInThreads(V, OfBlock);
      return V->hasGlobalStorage() && !V->isLocalVarDecl()
                 ? V->hasAttr<CUDAConstantAttr>() ||
                       V->getType().isConstQualified()
                 : uniformLocal(V, OfBlock);
    }
    return false;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && sameInThreads(ME->getBase(), OfBlock);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           UO->getOpcode() != UO_AddrOf &&
           sameInThreads(UO->getSubExpr(), OfBlock);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && sameInThreads(BO->getLHS(), OfBlock) &&
           sameInThreads(BO->getRHS(), OfBlock);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return sameInThreads(CO->getCond(), OfBlock) &&
           sameInThreads(CO->getTrueExpr(), OfBlock) &&
           sameInThreads(CO->getFalseExpr(), OfBlock);
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
    return sameInThreads(CE->getSubExpr(), OfBlock);
  // An array member of a uniform struct (`p.cam.flags[1]`).
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase());
    return Decay && Decay->getCastKind() == CK_ArrayToPointerDecay &&
           sameInThreads(Decay->getSubExpr(), OfBlock) &&
           sameInThreads(ASE->getIdx(), OfBlock);
  }
  // A pure function (a const method of a uniform object) of uniform values.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (OfBlock && isBlockShapeQuery(Call))
      return true;
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !readsOnlyArguments(FD))
      return false;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (!sameInThreads(MC->getImplicitObjectArgument(), OfBlock))
        return false;
    return llvm::all_of(Call->arguments(), [&](const Expr *A) {
      return sameInThreads(A, OfBlock);
    });
  }
  return false;
}

/// A local of this function that nothing writes after its initialiser
/// (`const int c_num = min(CNum, C);`), initialised from values the same in
/// every thread (of the grid, or of a block): every thread computes the
/// same value.
bool UniformityAnalysis::uniformLocal(const VarDecl *V, bool OfBlock) {
  if (!V->isLocalVarDecl() || V->hasGlobalStorage() ||
      V->getType()->isReferenceType() || !V->getInit() ||
      V->getParentFunctionOrMethod() != F || !F->getBody() ||
      !GridInProgress.insert(V).second)
    return false;
  bool Ok = !findWrite(F->getBody(), V, /*Through=*/true) &&
            sameInThreads(V->getInit(), OfBlock);
  GridInProgress.erase(V);
  return Ok;
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
  if (V->hasAttr<CUDASharedAttr>() || V->isStaticLocal())
    return false;
  // A const reference into read-only memory reads, at every use, what its
  // initialiser loads.
  if (V->getType()->isReferenceType())
    return readOnly().bindsInto(V) && isUniform(V->getInit(), TrustLoads);
  auto Key = std::make_pair(V, unsigned(TrustLoads) | (BlockLevel ? 2u : 0u));
  if (auto It = VarCache.find(Key); It != VarCache.end())
    return It->second;
  if (InProgress.contains(Key))
    return true; // optimistic for induction variables; proven below
  InProgress.insert(Key);
  bool Ok = true;
  llvm::SmallVector<VarWrite, 4> Writes;
  collectWrites(F->getBody(), V, Writes);
  if (const Expr *Init = V->getInit())
    Ok = isUniform(Init, TrustLoads);
  else if (Writes.empty())
    Ok = false;
  for (const VarWrite &W : Writes) {
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
  llvm::SmallVector<VarWrite, 4> Writes;
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
      for (const VarWrite &W : Writes)
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
  // Memory the kernel only reads holds one value at each address for the
  // whole launch, whenever a lane loads it.
  return readOnly().pointsInto(Base) || TrustLoads;
}

const ReadOnlyParameters &UniformityAnalysis::readOnly() {
  if (!ReadOnly)
    ReadOnly = std::make_unique<ReadOnlyParameters>(F, Parents.get());
  return *ReadOnly;
}

/// The expression a cast, cleanup or temporary wraps, or null.
static const Expr *wrappedExpr(const Expr *E) {
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return CE->getSubExpr();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return EWC->getSubExpr();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return MTE->getSubExpr();
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    return BTE->getSubExpr();
  if (const auto *CE = dyn_cast<ConstantExpr>(E))
    return CE->getSubExpr();
  return nullptr;
}

bool UniformityAnalysis::isUniformInBlock(const Expr *E) {
  const bool Was = BlockLevel;
  BlockLevel = true;
  const bool Ok = isUniform(E);
  BlockLevel = Was;
  return Ok;
}

bool UniformityAnalysis::isUniform(const Expr *E, bool TrustLoads) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    // An array's address: one object for the block (__shared__) or the
    // program (static), never the thread's own.
    const auto *DRE = dyn_cast<DeclRefExpr>(ICE->getSubExpr()->IgnoreParens());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (ICE->getCastKind() == CK_ArrayToPointerDecay && V &&
        V->hasGlobalStorage())
      return true;
    return isUniform(ICE->getSubExpr(), TrustLoads);
  }
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
    const auto *V = dyn_cast<VarDecl>(D);
    return V && uniformVar(V, TrustLoads);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() != UO_Deref)
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_AddrOf &&
           isUniform(UO->getSubExpr(), TrustLoads);
  if (isa<MemberExpr, ArraySubscriptExpr, UnaryOperator>(E))
    return uniformAccess(E, TrustLoads);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && isUniform(BO->getLHS(), TrustLoads) &&
           isUniform(BO->getRHS(), TrustLoads);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isUniform(CO->getCond(), TrustLoads) &&
           isUniform(CO->getTrueExpr(), TrustLoads) &&
           isUniform(CO->getFalseExpr(), TrustLoads);
  if (const Expr *Sub = wrappedExpr(E))
    return isUniform(Sub, TrustLoads);
  if (const auto *ILE = dyn_cast<InitListExpr>(E))
    return llvm::all_of(
        ILE->inits(), [&](const Expr *I) { return isUniform(I, TrustLoads); });
  return uniformCall(E, TrustLoads);
}

/// `s.m`, `p->m`, `a[i]` and `*p`: a uniform value's member or element, or
/// a load at a uniform address (uniformLoad).
bool UniformityAnalysis::uniformAccess(const Expr *E, bool TrustLoads) {
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      return uniformLoad(ME->getBase(), nullptr, E, TrustLoads);
    return isUniform(ME->getBase(), TrustLoads);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    assert(UO->getOpcode() == UO_Deref && "isUniform handles the others");
    return uniformLoad(UO->getSubExpr(), nullptr, E, TrustLoads);
  }
  const auto *ASE = cast<ArraySubscriptExpr>(E);
  const Expr *Base = ASE->getBase()->IgnoreParens();
  const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
  if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
    return uniformLoad(ASE->getBase(), ASE->getIdx(), E, TrustLoads);
  const Expr *Array = Decay->getSubExpr()->IgnoreParens();
  const auto *DRE = dyn_cast<DeclRefExpr>(Array);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (V && V->hasAttr<CUDASharedAttr>())
    return isUniform(ASE->getIdx(), TrustLoads) &&
           (sharedReadIsStable(V, E) || TrustLoads);
  // An array inside a uniform value (a by-value parameter's member).
  return isUniform(Array, TrustLoads) && isUniform(ASE->getIdx(), TrustLoads);
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

bool UniformityAnalysis::isFunctionOfKey(const Expr *Cond, const Expr *Key) {
  Cond = Cond->IgnoreParenImpCasts();
  Key = Key->IgnoreParenImpCasts();
  if (sameExpression(Cond, Key, Ctx) || isGridUniform(Cond))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond))
    return !BO->isAssignmentOp() && !BO->isCommaOp() &&
           isFunctionOfKey(BO->getLHS(), Key) &&
           isFunctionOfKey(BO->getRHS(), Key);
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           UO->getOpcode() != UO_AddrOf &&
           isFunctionOfKey(UO->getSubExpr(), Key);
  if (const auto *CO = dyn_cast<ConditionalOperator>(Cond))
    return isFunctionOfKey(CO->getCond(), Key) &&
           isFunctionOfKey(CO->getTrueExpr(), Key) &&
           isFunctionOfKey(CO->getFalseExpr(), Key);
  return false;
}

} // namespace distwar
