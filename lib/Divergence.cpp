//===- Divergence.cpp - lane divergence turned into an active flag --------===//

#include "distwar/Divergence.h"
#include "distwar/GroupSafety.h"
#include "distwar/Speculation.h"
#include "distwar/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

namespace {

void collectVars(const Stmt *S, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      Out.push_back(V);
  for (const Stmt *Child : S->children())
    collectVars(Child, Out);
}

/// True when evaluating \p E reads no memory through a pointer and calls
/// nothing that is not a pure function: safe for lanes that never did.
bool readsNoMemory(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
    const Expr *Base = ASE->getBase()->IgnoreParens();
    const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      return false;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref)
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (!readsOnlyArguments(Call->getDirectCallee()))
      return false;
  for (const Stmt *Child : S->children())
    if (!readsNoMemory(Child))
      return false;
  return true;
}

/// Assignments and increments (calls are judged by readsNoMemory).
bool writesSomething(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp())
    return true;
  for (const Stmt *Child : S->children())
    if (writesSomething(Child))
      return true;
  return false;
}

/// Calls that are not pure functions (a call may write memory or
/// synchronise lanes), assignments through template operators, and
/// expressions that run statements or allocate.
bool callsImpure(const Stmt *S) {
  if (!S)
    return false;
  if (isa<StmtExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, AsmStmt>(S))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && isBuiltinOperatorCall(Op)) {
    if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
        Op->getOperator() == OO_MinusMinus)
      return true;
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (!isPureCallee(Call->getDirectCallee()))
      return true;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (!Construct->getConstructor()->isTrivial() &&
        !isPureCallee(Construct->getConstructor()))
      return true;
  for (const Stmt *Child : S->children())
    if (callsImpure(Child))
      return true;
  return false;
}

bool hasSideEffects(const Expr *E) {
  return writesSomething(E) || callsImpure(E);
}

/// The statement of the loop body \p Body that holds the group's block
/// \p Scope: between them only blocks and branches of ifs (nested ifs, else
/// branches, else-if chains) may lie. The conditions stay where they are and
/// are evaluated once, as before; only the group's atomics move, to just
/// after the holder.
Reason holderOfScope(const CompoundStmt *Scope, const CompoundStmt *Body,
                     UniformityAnalysis &U, const Stmt *&Holder) {
  const Stmt *Child = Scope;
  for (const Stmt *P = U.parentOf(Scope); P; Child = P, P = U.parentOf(P)) {
    if (P == Body) {
      Holder = Child;
      return Reason::None;
    }
    if (isa<CompoundStmt>(P))
      continue;
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || (Child != If->getThen() && Child != If->getElse()))
      return Reason::NotInLoop;
    if (If->getInit() || If->getConditionVariable() || If->isConstexpr() ||
        If->isConsteval())
      return Reason::IfForm;
    if (hasSideEffects(If->getCond()))
      return Reason::ConditionSideEffects;
  }
  return Reason::NotInLoop;
}

/// The statements a lane that completes the group runs after it and before
/// the end of its holder: the rest of each enclosing block up to the loop
/// body (never the other branches of an if).
void statementsAfterGroup(const SiteGroup &G, const CompoundStmt *Body,
                          UniformityAnalysis &U,
                          llvm::SmallVectorImpl<const Stmt *> &After) {
  const Stmt *Child = G.Last;
  for (const Stmt *P = G.Scope; P && P != Body; Child = P, P = U.parentOf(P)) {
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block)
      continue;
    bool Seen = false;
    for (const Stmt *S : Block->body()) {
      if (Seen)
        After.push_back(S);
      Seen = Seen || S == Child;
    }
  }
}

struct ExitScan {
  Reason Why = Reason::None;
  std::vector<const ContinueStmt *> Continues;
};

/// Exits of the iteration inside \p S: returns and gotos refuse; breaks of
/// this loop refuse; continues of this loop are collected.
void scanExits(const Stmt *S, bool InLoop, bool InSwitch, ExitScan &Out) {
  if (!S || Out.Why != Reason::None)
    return;
  if (isa<ReturnStmt>(S)) {
    Out.Why = Reason::ReturnInLoop;
    return;
  }
  if (isa<GotoStmt, IndirectGotoStmt>(S) ||
      (isa<BreakStmt>(S) && !InLoop && !InSwitch)) {
    Out.Why = Reason::BreakOrGoto;
    return;
  }
  if (isa<ContinueStmt>(S) && !InLoop) {
    if (InSwitch)
      Out.Why = Reason::UnconvertibleContinue;
    else
      Out.Continues.push_back(cast<ContinueStmt>(S));
    return;
  }
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    scanExits(Child, InLoop || Loop, InSwitch || isa<SwitchStmt>(S), Out);
}

/// A continue that can become `live = false;`: between it and the body
/// statement \p Top lie only if-branches and blocks in which it (or the
/// statement holding it) comes last.
bool convertible(const ContinueStmt *C, const Stmt *Top,
                 UniformityAnalysis &U) {
  const Stmt *Child = C;
  for (const Stmt *P = U.parentOf(C); P; Child = P, P = U.parentOf(P)) {
    if (Child == Top)
      return true;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child != If->getThen() && Child != If->getElse())
        return false;
      continue;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      if (CS->body_empty() || CS->body_back() != Child)
        return false;
      continue;
    }
    return false;
  }
  return false;
}

bool hoistable(const VarDecl *V) {
  QualType T = V->getType();
  if (V->isStaticLocal() || V->hasAttr<CUDASharedAttr>() ||
      T->isReferenceType() || T->isArrayType() || T->isDependentType() ||
      T->getContainedAutoType())
    return false;
  if (V->getInit() && V->getInitStyle() != VarDecl::CInit)
    return false;
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
    return RD->hasTrivialDefaultConstructor() && RD->hasTrivialCopyAssignment();
  return T->isScalarType();
}

/// True when \p S names a declaration other than \p V that has V's name.
bool namesOtherWithNameOf(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (DRE->getDecl() != V &&
        DRE->getDecl()->getDeclName() == V->getDeclName())
      return true;
  for (const Stmt *Child : S->children())
    if (namesOtherWithNameOf(Child, V))
      return true;
  return false;
}

/// A hoisted declaration is visible from the body's start: no statement
/// before its original place may name another variable of the same name
/// (it would name the hoisted one instead).
Reason checkHoistedNames(llvm::ArrayRef<Stmt *> Stmts,
                         llvm::ArrayRef<const DeclStmt *> Hoisted) {
  for (const DeclStmt *DS : Hoisted) {
    size_t At = llvm::find(Stmts, DS) - Stmts.begin();
    assert(At < Stmts.size() && "a hoisted declaration is a body statement");
    for (const Decl *D : DS->decls())
      for (size_t I = 0; I < At; ++I)
        if (namesOtherWithNameOf(Stmts[I], cast<VarDecl>(D)))
          return Reason::NameShadowed;
  }
  return Reason::None;
}

/// True when \p S lies inside \p Outer.
bool isInside(const Stmt *S, const Stmt *Outer, UniformityAnalysis &U) {
  for (; S; S = U.parentOf(S))
    if (S == Outer)
      return true;
  return false;
}

void collectReturns(const Stmt *S,
                    llvm::SmallVectorImpl<const ReturnStmt *> &Out) {
  if (!S)
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    Out.push_back(R);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

/// `if (c) return;` at the top of the function before \p Loop (a pixel
/// outside the image): lanes that returned now run the loop with the flag
/// down. Provable only when what they now run in addition neither writes
/// nor reads memory (statements between the return and the loop, the
/// loop's init, condition and increment), no barrier lies in the loop
/// (they never executed one), nothing follows the loop, and every lane runs
/// the same iterations.
Reason planEarlyReturn(ASTContext &Ctx, const SiteGroup &G,
                       UniformityAnalysis &U, const Stmt *Loop,
                       FlagPlan &Plan) {
  const auto *FnBody = dyn_cast_or_null<CompoundStmt>(G.Function->getBody());
  if (!FnBody)
    return Reason::None;
  llvm::SmallVector<const ReturnStmt *, 4> Returns, Before;
  collectReturns(FnBody, Returns);
  for (const ReturnStmt *R : Returns)
    if (!isInside(R, Loop, U) &&
        Ctx.getSourceManager().isBeforeInTranslationUnit(R->getBeginLoc(),
                                                         Loop->getBeginLoc()))
      Before.push_back(R);
  if (Before.empty())
    return Reason::None;
  if (Before.size() != 1 || Before.front()->getRetValue() ||
      U.parentOf(Loop) != FnBody)
    return Reason::EarlyReturn;
  const Stmt *P = U.parentOf(Before.front());
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P); CS && CS->size() == 1)
    P = U.parentOf(CS);
  const auto *If = dyn_cast_or_null<IfStmt>(P);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      U.parentOf(If) != FnBody || !isInside(Before.front(), If->getThen(), U))
    return Reason::EarlyReturn;
  llvm::ArrayRef<Stmt *> Top(FnBody->body_begin(), FnBody->body_end());
  size_t IfAt = llvm::find(Top, If) - Top.begin();
  size_t LoopAt = llvm::find(Top, Loop) - Top.begin();
  if (IfAt >= LoopAt || LoopAt + 1 != Top.size())
    return Reason::EarlyReturn; // code after the loop would run too
  for (size_t I = IfAt + 1; I < LoopAt; ++I)
    if (writesSomething(Top[I]) || !readsNoMemory(Top[I]) ||
        mayBeCollective(Top[I]))
      return Reason::EarlyReturn;
  if (mayBeCollective(Loop) || !Plan.UniformTrips)
    return Reason::EarlyReturn;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    if (!readsNoMemory(For->getInit()) || !readsNoMemory(For->getInc()))
      return Reason::EarlyReturn;
    if (For->getInit() && !isa<DeclStmt>(For->getInit()))
      return Reason::EarlyReturn;
  } else if (!isa<WhileStmt>(Loop)) {
    return Reason::EarlyReturn;
  }
  for (const Expr *T : Plan.KeptTerms)
    if (!readsNoMemory(T) || writesSomething(T))
      return Reason::EarlyReturn;
  Plan.EarlyReturn = If;
  return Reason::None;
}

/// The batch's size is spelled with its channel loops' trip counts where
/// the batch is declared, at \p BatchAt: they may use no local declared
/// there or later (an invalid \p BatchAt: no local at all).
Reason tripCountsVisibleAt(ASTContext &Ctx,
                           const std::vector<AtomicSite> &Sites,
                           const SiteGroup &G, SourceLocation BatchAt) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I : G.Sites) {
    if (!Sites[I].Channel)
      continue;
    llvm::SmallVector<const VarDecl *, 4> BoundVars;
    collectVars(Sites[I].Channel->Upper, BoundVars);
    collectVars(Sites[I].Channel->Lower, BoundVars);
    for (const VarDecl *V : BoundVars)
      if (V->isLocalVarDecl() &&
          (BatchAt.isInvalid() ||
           !SM.isBeforeInTranslationUnit(V->getLocation(), BatchAt)))
        return Reason::NotVisibleAtBatch;
  }
  return Reason::None;
}

/// Where statements between guard points may run unguarded (Speculation.h;
/// FlagPlan::AnyFromStart...Unguarded). A guard point's stretch is the
/// statements after it up to and including the next converted continue's
/// statement; the stretch that reaches the holder never qualifies. Per-lane
/// guards closed before the warp-uniform branch must not hold declarations
/// used after them.
void planSpeculation(ASTContext &Ctx, const Stmt *Loop,
                     llvm::ArrayRef<Stmt *> Stmts,
                     llvm::ArrayRef<size_t> ContinueHolders, size_t H,
                     size_t GuardBegin, FlagPlan &Plan) {
  SpeculationCheck Check(Ctx, Loop);
  auto Speculatable = [&](size_t Begin, size_t End) { // [Begin, End]
    for (size_t I = Begin; I <= End; ++I)
      if (!Check.statement(Stmts[I]))
        return false;
    return true;
  };
  llvm::SmallVector<size_t, 4> Points(ContinueHolders.begin(),
                                      ContinueHolders.end());
  llvm::erase_if(Points, [&](size_t K) { return K >= H; });
  auto StretchEnd = [&](size_t I) -> std::optional<size_t> { // point index
    if (I + 1 < Points.size())
      return Points[I + 1];
    return std::nullopt; // reaches the holder
  };
  unsigned Open = 0;
  bool InAny = false;
  if (Plan.GuardFromStart) {
    if (!Points.empty() && Speculatable(0, Points.front())) {
      Plan.AnyFromStart = true;
      InAny = true;
    } else {
      Open = 1;
    }
  }
  for (size_t I = 0; I < Points.size(); ++I) {
    std::optional<size_t> End = StretchEnd(I);
    bool Spec = End && Speculatable(Points[I] + 1, *End);
    if (Spec && !InAny && Open) {
      // Closing the per-lane guards ends their declarations' scope.
      llvm::DenseSet<const VarDecl *> Declared;
      for (size_t J = GuardBegin; J <= Points[I]; ++J)
        if (const auto *DS = dyn_cast<DeclStmt>(Stmts[J]))
          for (const Decl *D : DS->decls())
            if (const auto *V = dyn_cast<VarDecl>(D))
              Declared.insert(V);
      for (size_t J = Points[I] + 1; J < Stmts.size() && Spec; ++J)
        Spec = !refersToAny(Stmts[J], Declared);
    }
    if (!Spec) {
      ++Open;
      continue;
    }
    if (InAny) {
      Plan.Unguarded.push_back(Stmts[Points[I]]);
    } else {
      Plan.AnyAfter = Stmts[Points[I]];
      Plan.CloseBeforeAny = Open;
      Open = 0;
      InAny = true;
    }
  }
  if (InAny)
    Plan.GuardsOpen = Open + 1;
}

} // namespace

Reason planActiveFlag(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                      const SiteGroup &G, UniformityAnalysis &U, FlagPlan &Plan,
                      llvm::ArrayRef<const SiteGroup *> Segments,
                      llvm::ArrayRef<const SiteGroup *> Others) {
  const AtomicSite &First = Sites[G.Sites.front()];
  const Stmt *Loop = iterationOf(First);
  const Stmt *BodyStmt = nullptr;
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop)) {
    if (For->getConditionVariable())
      return Reason::NotInLoop;
    BodyStmt = For->getBody();
    Plan.Cond = For->getCond();
  } else if (const auto *While = dyn_cast_or_null<WhileStmt>(Loop)) {
    if (While->getConditionVariable())
      return Reason::NotInLoop;
    BodyStmt = While->getBody();
    Plan.Cond = While->getCond();
  } else if (const auto *Do = dyn_cast_or_null<DoStmt>(Loop)) {
    BodyStmt = Do->getBody();
  } else if (Loop && G.Function && Loop == G.Function->getBody() &&
             G.Scope == Loop) {
    // Straight-line code of the function body: every lane that runs the
    // function reaches the reduction (lanes that returned are absent, which
    // the runtime tolerates). No flag.
    Plan.Body = G.Scope;
    Plan.Holder = G.Last;
    Plan.UniformTrips = true;
    QualType KT = First.Key->getType();
    Plan.KeyType = KT->isDependentType()
                       ? "long long"
                       : KT.getCanonicalType().getUnqualifiedType().getAsString(
                             Ctx.getPrintingPolicy());
    return tripCountsVisibleAt(Ctx, Sites, G, SourceLocation());
  }
  const auto *Body = dyn_cast_or_null<CompoundStmt>(BodyStmt);
  if (!Body)
    return Reason::NotInLoop;
  Plan.Loop = Loop;
  Plan.Body = Body;

  // Where each group of the iteration sits in the body: directly, or in the
  // block of an if that is a body statement.
  llvm::ArrayRef<Stmt *> Stmts(Body->body_begin(), Body->body_end());
  auto IndexOf = [&](const Stmt *S) {
    return size_t(llvm::find(Stmts, S) - Stmts.begin());
  };
  std::vector<const SiteGroup *> Segs(Segments.begin(), Segments.end());
  if (Segs.empty())
    Segs.push_back(&G);
  std::vector<size_t> Holders;
  for (const SiteGroup *SG : Segs) {
    const Stmt *Holder = SG->Last;
    bool UnderIf = false;
    if (SG->Scope != Body) {
      if (Reason R = holderOfScope(SG->Scope, Body, U, Holder);
          R != Reason::None)
        return R;
      UnderIf = true;
    }
    size_t Index = IndexOf(Holder);
    size_t FirstIndex = UnderIf ? Index : IndexOf(SG->First);
    if (Index == Stmts.size())
      return Reason::NotInLoop;
    if (!Holders.empty() && FirstIndex <= Holders.back())
      return Reason::SeveralGroupsInIteration; // regions interleave
    if (SG == &G) {
      Plan.Segment = Holders.size();
      Plan.Holder = Holder;
      Plan.GroupUnderIf = UnderIf;
      if (!Holders.empty())
        Plan.PrevHolder = Stmts[Holders.back()];
    }
    Holders.push_back(Index);
  }
  if (!Plan.Holder)
    return Reason::NotInLoop;
  Plan.Segments = Holders.size();
  size_t H = Holders[Plan.Segment];
  size_t HLast = Holders.back();

  // Exits of the iteration.
  ExitScan Exits;
  for (const Stmt *S : Stmts)
    scanExits(S, false, false, Exits);
  if (Exits.Why != Reason::None)
    return Exits.Why;
  std::vector<size_t> ContinueHolders;
  for (const ContinueStmt *C : Exits.Continues) {
    size_t K = 0;
    for (; K < Stmts.size(); ++K) {
      const Stmt *P = C;
      while (P && P != Stmts[K])
        P = U.parentOf(P);
      if (P)
        break;
    }
    if (K > HLast)
      continue; // after the reductions: stays a continue under the guard
    if (llvm::is_contained(Holders, K) || !convertible(C, Stmts[K], U))
      return Reason::UnconvertibleContinue;
    Plan.Continues.push_back(C);
    if (ContinueHolders.empty() || ContinueHolders.back() != K)
      ContinueHolders.push_back(K);
  }

  // The other batched groups of the iteration keep their batch and serial
  // reduction in one block: no guard may open or close inside their region.
  for (const SiteGroup *O : Others) {
    auto BodyIndex = [&](const Stmt *S) {
      while (S && U.parentOf(S) != Body)
        S = U.parentOf(S);
      return S ? IndexOf(S) : Stmts.size();
    };
    size_t A = BodyIndex(O->First), B = BodyIndex(O->Last);
    if (A == Stmts.size() || B == Stmts.size())
      return Reason::SeveralGroupsInIteration;
    for (size_t P : ContinueHolders)
      if (A <= P && P < B)
        return Reason::SeveralGroupsInIteration;
    // Nor at its end: the guards closed after a holder that is the other
    // group's last statement would close before that group's reduction
    // (a group nested inside the holder reduces inside it).
    for (size_t P : Holders)
      if (A <= P && (P < B || (P == B && Stmts[P] == O->Last)))
        return Reason::SeveralGroupsInIteration;
  }

  // Lane-dependent loop-condition terms that never change in the loop.
  if (Plan.Cond) {
    llvm::SmallVector<const Expr *, 4> Terms;
    flattenAnd(Plan.Cond, Terms);
    bool AfterRemoved = false;
    for (const Expr *T : Terms) {
      if (AfterRemoved && (!readsNoMemory(T) || writesSomething(T)))
        return Reason::LoopTermNotConvertible;
      if (U.isUniform(T)) {
        Plan.KeptTerms.push_back(T);
        continue;
      }
      llvm::SmallVector<const VarDecl *, 4> Vars;
      collectVars(T, Vars);
      bool Invariant = !writesSomething(T) && readsNoMemory(T);
      for (const VarDecl *V : Vars)
        if (findWrite(Loop, V, /*Through=*/true))
          Invariant = false;
      if (!Invariant) {
        // Stays in the condition: lanes may run different iterations.
        Plan.KeptTerms.push_back(T);
        continue;
      }
      Plan.RemovedTerms.push_back(T);
      AfterRemoved = true;
    }
    if (!Plan.RemovedTerms.empty()) {
      if (Plan.KeptTerms.empty())
        return Reason::LoopTermNotConvertible;
      // Lanes whose term is false now run the loop's increment too.
      if (const auto *For = dyn_cast<ForStmt>(Loop)) {
        llvm::SmallVector<const VarDecl *, 4> IncVars;
        collectVars(For->getInc(), IncVars);
        const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
        for (const VarDecl *V : IncVars) {
          bool Scoped = Init && llvm::is_contained(Init->decls(), V);
          if (!Scoped && findWrite(For->getInc(), V, /*Through=*/true))
            return Reason::LoopTermNotConvertible;
        }
        if (!readsNoMemory(For->getInc()))
          return Reason::LoopTermNotConvertible;
      }
      for (const Expr *T : Plan.RemovedTerms)
        U.assumeRemoved(T);
    }
  }

  // Every lane of the warp runs the same iterations of this loop.
  Plan.UniformTrips = U.controlIsUniform(Loop);
  for (const Expr *T : Plan.KeptTerms)
    Plan.UniformTrips = Plan.UniformTrips && U.isUniform(T);
  if (!Plan.UniformTrips)
    Plan.TripReason = Reason::TripCountVaries;

  // An early return before the loop becomes the flag's first term where
  // provable. Where not, lanes that returned are simply absent at the call:
  // the runtime reduces only warps whose 32 lanes are all present and sends
  // the others as plain atomics, so the butterfly stays correct and only
  // edge warps lose the reduction (reported as a note).
  Plan.EarlyReturnNote = planEarlyReturn(Ctx, G, U, Loop, Plan);

  // The live flag and the guards.
  std::string Init;
  if (Plan.EarlyReturn)
    Init = "(!distwar_returned)";
  for (const Expr *T : Plan.RemovedTerms) {
    std::string Text = sourceText(T, Ctx);
    if (Text.empty())
      return Reason::MacroExpansion;
    Init += (Init.empty() ? "(" : " && (") + Text + ")";
  }
  Plan.GuardFromStart = !Plan.RemovedTerms.empty() || Plan.EarlyReturn;
  for (size_t K : ContinueHolders)
    Plan.GuardAfter.push_back(Stmts[K]);
  if (Init.empty() && !Plan.Continues.empty())
    Init = "true";
  Plan.LiveInit = Init;
  size_t GuardBegin = Stmts.size();
  if (Plan.GuardFromStart)
    GuardBegin = 0;
  else if (!ContinueHolders.empty())
    GuardBegin = ContinueHolders.front() + 1;
  if (!Init.empty() && Holders.size() > 1)
    GuardBegin = std::min(GuardBegin, Holders.front() + 1);
  Plan.GuardTrailing = !Init.empty() && HLast + 1 < Stmts.size();
  // Guards open at this group's holder: from the body's start (or from the
  // previous group's reduction) and after each converted continue since.
  size_t From = 0;
  if (Plan.Segment == 0) {
    Plan.GuardsOpen = Plan.GuardFromStart;
  } else {
    From = Holders[Plan.Segment - 1] + 1;
    Plan.GuardsOpen = !Init.empty();
  }
  for (size_t K : ContinueHolders)
    Plan.GuardsOpen += K >= From && K < H;
  if (Plan.Segments == 1 && !Plan.GroupUnderIf && !Init.empty())
    planSpeculation(Ctx, Loop, Stmts, ContinueHolders, H, GuardBegin, Plan);

  // Nothing in the guarded statements may synchronise lanes.
  for (size_t I = GuardBegin; I < Stmts.size(); ++I) {
    if (I > HLast && !Plan.GuardTrailing)
      break;
    if (mayBeCollective(Stmts[I]))
      return Reason::CollectiveInRegion;
  }

  // The batch (and its trip counts) is declared at the body's start.
  if (Reason R = tripCountsVisibleAt(Ctx, Sites, G, Body->getLBracLoc());
      R != Reason::None)
    return R;

  // A group under ifs: the statements after it up to the end of its holder
  // run before the reduction now.
  if (Plan.GroupUnderIf) {
    llvm::SmallVector<const Stmt *, 8> After;
    statementsAfterGroup(G, Body, U, After);
    if (Reason R = checkStatementsBetween(Sites, G, After); R != Reason::None)
      return R;
  }

  // Declarations that statements after their guard's reduction use.
  if (!Init.empty()) {
    llvm::DenseSet<const VarDecl *> Used;
    for (size_t I = GuardBegin; I <= HLast; ++I) {
      const auto *DS = dyn_cast<DeclStmt>(Stmts[I]);
      if (!DS)
        continue;
      size_t Closing = *llvm::lower_bound(Holders, I);
      llvm::DenseSet<const VarDecl *> Declared;
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Declared.insert(V);
      bool Needed = false;
      for (size_t J = Closing + 1; J < Stmts.size() && !Needed; ++J)
        Needed = refersToAny(Stmts[J], Declared);
      if (!Needed)
        continue;
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || !hoistable(V))
          return Reason::HoistImpossible;
      }
      if (DS->getBeginLoc().isMacroID())
        return Reason::MacroExpansion;
      Plan.Hoisted.push_back(DS);
    }
  }
  if (Reason R = checkHoistedNames(Stmts, Plan.Hoisted); R != Reason::None)
    return R;

  // The reduction sits after the holder, at the body's top level: the
  // body's declarations up to there are visible to it.
  llvm::SmallVector<const VarDecl *, 16> Visible;
  declaredIn(
      llvm::SmallVector<const Stmt *, 32>(Stmts.begin(), Stmts.begin() + H + 1),
      Visible);
  if (Reason R = checkNamesKept(Sites, G, Visible); R != Reason::None)
    return R;

  QualType KT = First.Key->getType();
  Plan.KeyType = KT->isDependentType()
                     ? "long long"
                     : KT.getCanonicalType().getUnqualifiedType().getAsString(
                           Ctx.getPrintingPolicy());
  return Reason::None;
}

namespace {

/// Exits of the iteration inside \p S: whether a continue and whether
/// anything else (break, return, goto) leaves it.
void iterationExits(const Stmt *S, bool Nested, bool &Continue, bool &Other) {
  if (!S)
    return;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(S) ||
      (isa<BreakStmt>(S) && !Nested)) {
    Other = true;
    return;
  }
  if (isa<ContinueStmt>(S) && !Nested) {
    Continue = true;
    return;
  }
  bool ChildNested =
      Nested || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    iterationExits(Child, ChildNested, Continue, Other);
}

} // namespace

void splitAtContinues(const std::vector<AtomicSite> &Sites,
                      std::vector<SiteGroup> &Groups) {
  std::vector<SiteGroup> Out;
  unsigned Splits = 0;
  for (SiteGroup &G : Groups) {
    if (G.Why != Reason::None || !G.Scope || !G.First || !G.Last ||
        G.Sites.size() < 2) {
      Out.push_back(std::move(G));
      continue;
    }
    llvm::ArrayRef<Stmt *> Body(G.Scope->body_begin(), G.Scope->body_end());
    size_t Begin = llvm::find(Body, G.First) - Body.begin();
    size_t End = llvm::find(Body, G.Last) - Body.begin();
    llvm::DenseSet<const Stmt *> Holding;
    for (size_t I : G.Sites)
      Holding.insert(childOfScope(Sites[I], G.Scope));
    std::vector<size_t> Cuts;
    bool Other = false;
    for (size_t I = Begin; I <= End && I < Body.size(); ++I) {
      bool Continue = false;
      iterationExits(Body[I], false, Continue, Other);
      if (Continue && Holding.count(Body[I]))
        Other = true; // a continue among a statement's sites: no cut
      if (Continue)
        Cuts.push_back(I);
    }
    if (Other || Cuts.empty()) {
      Out.push_back(std::move(G));
      continue;
    }
    SiteGroup Part = G;
    Part.Sites.clear();
    Part.SplitId = ++Splits;
    auto Flush = [&] {
      if (Part.Sites.empty())
        return;
      Part.First = childOfScope(Sites[Part.Sites.front()], G.Scope);
      Part.Last = childOfScope(Sites[Part.Sites.back()], G.Scope);
      Out.push_back(Part);
      Part.Sites.clear();
    };
    size_t Cut = 0;
    for (size_t I : G.Sites) {
      size_t At =
          llvm::find(Body, childOfScope(Sites[I], G.Scope)) - Body.begin();
      for (; Cut < Cuts.size() && Cuts[Cut] < At; ++Cut)
        Flush();
      Part.Sites.push_back(I);
    }
    Flush();
  }
  Groups = std::move(Out);
}

} // namespace distwar
