//===- TileCosts.cpp - what a tile costs, computed before its launch ------===//

#include "Decide/TileCosts.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace distwar {

namespace {

/// What an expression of a cost reads.
struct Reads {
  bool Loads = false; ///< memory, through a pointer parameter
  bool Tile = false;  ///< the block's place in the grid
};

/// Checks that expressions can run in the cost kernel (see the file
/// comment of TileCosts.h) and collects the declarations they need.
class CostSlice {
public:
  CostSlice(ASTContext &Ctx, const TileKernelPlan &Plan,
            const llvm::DenseMap<const VarDecl *, const DeclStmt *> &Locals)
      : Ctx(Ctx), Plan(Plan), Body(Plan.Kernel->getBody()), Locals(Locals) {}

  /// What \p E reads, or none when it cannot run in the cost kernel.
  std::optional<Reads> check(const Expr *E);
  /// What \p Parts read together; those from \p LoadFreeFrom on must not
  /// load.
  std::optional<Reads> checkAll(llvm::ArrayRef<const Expr *> Parts,
                                size_t LoadFreeFrom);

  /// The declarations needed so far, in source order.
  std::vector<const DeclStmt *> decls() const {
    std::vector<const DeclStmt *> Out(Needed.begin(), Needed.end());
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::sort(Out, [&](const DeclStmt *A, const DeclStmt *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
    return Out;
  }

private:
  std::optional<Reads> checkName(const DeclRefExpr *Ref);
  std::optional<Reads> checkLocal(const VarDecl *V);
  std::optional<Reads> checkSubscript(const ArraySubscriptExpr *A);
  std::optional<Reads> checkCall(const CallExpr *Call);
  bool isBlockIndexUse(const Expr *E, bool &Tile) const;
  bool isUnchangedParameter(const Expr *E) const;

  ASTContext &Ctx;
  const TileKernelPlan &Plan;
  const Stmt *Body;
  const llvm::DenseMap<const VarDecl *, const DeclStmt *> &Locals;
  /// Each local checked so far, and what its initialiser reads.
  llvm::DenseMap<const VarDecl *, std::optional<Reads>> Checked;
  llvm::SetVector<const DeclStmt *> Needed;
};

} // namespace

/// Combines what \p Parts read; those from \p LoadFreeFrom on must not load
/// (they run conditionally: a load there could read where the original
/// did not).
std::optional<Reads> CostSlice::checkAll(llvm::ArrayRef<const Expr *> Parts,
                                         size_t LoadFreeFrom) {
  Reads All;
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (!Parts[I])
      return std::nullopt;
    std::optional<Reads> R = check(Parts[I]);
    if (!R || (I >= LoadFreeFrom && R->Loads))
      return std::nullopt;
    All.Loads |= R->Loads;
    All.Tile |= R->Tile;
  }
  return All;
}

/// Whether \p E is one of the kernel's reads of its place (`blockIdx.x`,
/// `gridDim.y`, `block.group_index()`), which the tile edits replace;
/// \p Tile says whether it reads the block's index.
bool CostSlice::isBlockIndexUse(const Expr *E, bool &Tile) const {
  const Expr *Name = E;
  if (const auto *P = dyn_cast<PseudoObjectExpr>(E))
    if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(P->getSyntacticForm())) {
      Name = Prop->getBaseExpr()->IgnoreParenImpCasts();
      if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(Name))
        Name = Opaque->getSourceExpr()->IgnoreParenImpCasts();
    }
  for (const BlockIndexUse &U : Plan.Uses) {
    if (U.E != Name || U.InLambda)
      continue;
    Tile = U.What != BlockIndexUse::GridDim;
    return true;
  }
  return false;
}

/// Whether \p Body never changes \p V: neither its value nor, for a
/// struct, any member of it.
static bool neverChanged(const Stmt *Body, const VarDecl *V) {
  return !findWrite(Body, V, /*Through=*/false) && !findStorageWrite(Body, V);
}

/// Whether \p E names a parameter of the kernel that its body never
/// changes.
bool CostSlice::isUnchangedParameter(const Expr *E) const {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != Plan.Kernel)
    return false;
  return neverChanged(Body, P);
}

std::optional<Reads> CostSlice::checkLocal(const VarDecl *V) {
  auto Known = Checked.find(V);
  if (Known != Checked.end())
    return Known->second;
  const DeclStmt *Stmt = Locals.lookup(V);
  assert(Stmt && "checked locals are declared at the body's top level");
  // Each variable assumed unfit while the declaration is checked: an
  // initialiser that reads a variable of its own declaration is not taken.
  for (const Decl *D : Stmt->decls())
    if (const auto *W = dyn_cast<VarDecl>(D))
      Checked[W] = std::nullopt;
  // The whole declaration is copied: each variable it declares must fit,
  // and its end of life must do nothing (a destructor would run in the cost
  // kernel too).
  llvm::DenseMap<const VarDecl *, Reads> Found;
  for (const Decl *D : Stmt->decls()) {
    const auto *W = dyn_cast<VarDecl>(D);
    if (!W || W->isStaticLocal() || W->hasAttr<CUDASharedAttr>() ||
        W->getType()->isReferenceType() || W->getType().isDestructedType() ||
        !W->getInit() || !neverChanged(Body, W))
      return std::nullopt;
    std::optional<Reads> Init = check(W->getInit());
    if (!Init)
      return std::nullopt;
    Found[W] = *Init;
  }
  for (const auto &[W, R] : Found)
    Checked[W] = R;
  Needed.insert(Stmt);
  return Checked[V];
}

std::optional<Reads> CostSlice::checkName(const DeclRefExpr *Ref) {
  const ValueDecl *D = Ref->getDecl();
  if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(D))
    return Reads();
  const auto *V = dyn_cast<VarDecl>(D);
  if (!V)
    return std::nullopt;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return isUnchangedParameter(Ref) && !P->getType()->isReferenceType()
               ? std::optional<Reads>(Reads())
               : std::nullopt;
  if (Locals.count(V))
    return checkLocal(V);
  // A constant of namespace scope reads nothing at run time.
  if (!V->isLocalVarDeclOrParm() &&
      (V->isConstexpr() ||
       (V->getType().isConstQualified() &&
        V->getType()->isIntegralOrEnumerationType() && V->getInit() &&
        !V->hasAttr<CUDADeviceAttr>() && !V->hasAttr<CUDAConstantAttr>())))
    return Reads();
  return std::nullopt;
}

/// `p[i]` and `s.p[i]` with `p` a pointer parameter (`s` a struct one) that
/// the body never changes, and `i` computed without loads: the address the
/// original loads, whatever the memory holds.
std::optional<Reads> CostSlice::checkSubscript(const ArraySubscriptExpr *A) {
  const Expr *Base = A->getBase()->IgnoreParenImpCasts();
  if (!Base->getType()->isPointerType())
    return std::nullopt;
  const Expr *Root = Base;
  if (const auto *M = dyn_cast<MemberExpr>(Base)) {
    if (M->isArrow())
      return std::nullopt;
    Root = M->getBase();
  }
  if (!isUnchangedParameter(Root))
    return std::nullopt;
  std::optional<Reads> Index = check(A->getIdx());
  if (!Index || Index->Loads)
    return std::nullopt;
  Index->Loads = true;
  return Index;
}

/// min and max of the CUDA headers: what a cost may call (group_index(),
/// a read of the block's place, check() took before).
std::optional<Reads> CostSlice::checkCall(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!F || !SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())) ||
      !F->getDeclName().isIdentifier())
    return std::nullopt;
  bool Pure = llvm::StringSwitch<bool>(F->getName())
                  .Cases({"min", "max", "umin", "umax"}, true)
                  .Cases({"llmin", "llmax", "ullmin", "ullmax"}, true)
                  .Default(false);
  if (!Pure)
    return std::nullopt;
  llvm::SmallVector<const Expr *, 2> Args(Call->arguments());
  return checkAll(Args, Args.size());
}

std::optional<Reads> CostSlice::check(const Expr *E) {
  // What a template's instance makes of it (a conversion, an operator) is
  // not in the pattern.
  if (E->isTypeDependent())
    return std::nullopt;
  bool Tile = false;
  if (isBlockIndexUse(E, Tile)) {
    Reads R;
    R.Tile = Tile;
    return R;
  }
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral,
          CXXBoolLiteralExpr>(E))
    return Reads();
  if (const auto *T = dyn_cast<UnaryExprOrTypeTraitExpr>(E))
    return T->isArgumentType() ? std::optional<Reads>(Reads()) : std::nullopt;
  if (isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr, CXXStaticCastExpr,
          CXXFunctionalCastExpr, ExprWithCleanups, MaterializeTemporaryExpr,
          ConstantExpr>(E)) {
    llvm::SmallVector<const Expr *, 1> Parts;
    for (const Stmt *Child : E->children())
      Parts.push_back(dyn_cast_or_null<Expr>(Child));
    return checkAll(Parts, Parts.size() + 1);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    UnaryOperatorKind Op = U->getOpcode();
    if (Op != UO_Plus && Op != UO_Minus && Op != UO_Not && Op != UO_LNot)
      return std::nullopt;
    return check(U->getSubExpr());
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp() || B->isCommaOp())
      return std::nullopt;
    // The right side of && and || runs only for some values of the left.
    return checkAll({B->getLHS(), B->getRHS()}, B->isLogicalOp() ? 1 : 2);
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return checkAll({C->getCond(), C->getTrueExpr(), C->getFalseExpr()}, 1);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return checkName(Ref);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() || !isa<FieldDecl>(M->getMemberDecl())
               ? std::nullopt
               : check(M->getBase());
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return checkSubscript(A);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (!Construct->getConstructor()->isTrivial())
      return std::nullopt;
    llvm::SmallVector<const Expr *, 1> Args(Construct->arguments());
    return checkAll(Args, Args.size());
  }
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    llvm::SmallVector<const Expr *, 4> Inits(List->inits());
    return checkAll(Inits, Inits.size());
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return checkCall(Call);
  return std::nullopt;
}

/// Whether \p S may leave the body or stop the thread: after it, the
/// statements of the body's top level are not certain to run.
static bool mayLeave(const Stmt *S) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitReturnStmt(ReturnStmt *) { return found(); }
    bool VisitGotoStmt(GotoStmt *) { return found(); }
    bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return found(); }
    bool VisitCXXThrowExpr(CXXThrowExpr *) { return found(); }
    bool VisitAsmStmt(AsmStmt *) { return found(); }
    bool VisitCallExpr(CallExpr *Call) {
      bool Stops = llvm::StringSwitch<bool>(calleeName(Call))
                       .Cases({"__trap", "__brkpt", "__assertfail",
                               "__assert_fail", "abort", "exit"},
                              true)
                       .Default(false);
      return Stops ? found() : true;
    }
    /// Ends the walk.
    bool found() {
      Found = true;
      return false;
    }
    bool Found = false;
  };
  Finder F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// The bound \p Counter is compared with in \p Conjunct (`v < Bound`,
/// `Bound > v`, ...), or null.
static const Expr *boundIn(const Expr *Conjunct, const VarDecl *Counter) {
  const auto *B = dyn_cast<BinaryOperator>(Conjunct->IgnoreParenImpCasts());
  if (!B)
    return nullptr;
  BinaryOperatorKind Op = B->getOpcode();
  if ((Op == BO_LT || Op == BO_LE || Op == BO_NE) &&
      refersTo(B->getLHS(), Counter))
    return B->getRHS();
  if ((Op == BO_GT || Op == BO_GE) && refersTo(B->getRHS(), Counter))
    return B->getLHS();
  return nullptr;
}

/// `for (v = Start; ... v < Bound ...; ...)`: the first comparison of the
/// counter with a bound among the condition's conjuncts; \p First says
/// whether it is the first conjunct, the one the loop always evaluates.
static const Expr *boundOf(const Expr *Cond, const VarDecl *Counter,
                           bool &First) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Cond))
    Cond = Cleanups->getSubExpr();
  llvm::SmallVector<const Expr *, 4> Conjuncts;
  flattenAnd(Cond, Conjuncts);
  for (size_t I = 0; I < Conjuncts.size(); ++I)
    if (const Expr *Bound = boundIn(Conjuncts[I], Counter)) {
      First = I == 0;
      return Bound;
    }
  return nullptr;
}

/// The cost of loop \p F, when its start and bound fit the cost kernel and
/// one of them depends on the tile.
static std::optional<TileCost>
loopCost(ASTContext &Ctx, const TileKernelPlan &Plan, const ForStmt *F,
         const llvm::DenseMap<const VarDecl *, const DeclStmt *> &Locals) {
  const VarDecl *Counter = loopVariable(F);
  if (!Counter || !F->getCond() || !F->getInit())
    return std::nullopt;
  const Expr *Start = loopStart(F);
  bool FirstConjunct = false;
  const Expr *Bound = boundOf(F->getCond(), Counter, FirstConjunct);
  if (!Start || !Bound || !Start->getType()->isIntegralOrEnumerationType() ||
      !Bound->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  CostSlice Slice(Ctx, Plan, Locals);
  // A bound behind another conjunct is evaluated only when that one holds:
  // it must not load.
  std::optional<Reads> R =
      Slice.checkAll({Start, Bound}, FirstConjunct ? 2 : 1);
  if (!R || !R->Tile)
    return std::nullopt;
  TileCost Cost;
  Cost.Loop = F;
  Cost.Start = Start;
  Cost.Bound = Bound;
  Cost.Decls = Slice.decls();
  return Cost;
}

bool holdsDestroyedTemporary(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CXXBindTemporaryExpr>(S))
    return true;
  return llvm::any_of(S->children(), holdsDestroyedTemporary);
}

bool isMovableText(const SourceManager &SM, SourceRange Range) {
  CharSourceRange R = SM.getExpansionRange(Range);
  FileID File = SM.getFileID(R.getBegin());
  if (File != SM.getFileID(R.getEnd()))
    return false;
  R = Lexer::makeFileCharRange(R, SM, LangOptions());
  if (R.isInvalid())
    return false;
  // The edits copy the expansion's text: an expression that is only part
  // of a macro's expansion (`b` of `BELOW(a, b)`) would take the rest along.
  CharSourceRange Own = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Range), SM, LangOptions());
  if (Own.isInvalid() || Own.getAsRange() != R.getAsRange())
    return false;
  bool Invalid = false;
  llvm::StringRef Text = Lexer::getSourceText(R, SM, LangOptions(), &Invalid);
  if (Invalid || Text.contains("//") || Text.contains("/*"))
    return false;
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  Text.split(Lines, '\n');
  return llvm::none_of(Lines, [](llvm::StringRef Line) {
    return Line.ltrim().starts_with("#");
  });
}

/// Whether each read of the block's place inside \p Expanded is spelled
/// there too: the edits replace it in the copied text, and one in a macro's
/// body would read the cost kernel's own place.
[[maybe_unused]] static bool placeSpelledInside(const SourceManager &SM,
                                                const TileKernelPlan &Plan,
                                                CharSourceRange Expanded) {
  return llvm::all_of(Plan.Uses, [&](const BlockIndexUse &U) {
    SourceLocation At = SM.getExpansionLoc(U.E->getBeginLoc());
    if (SM.isBeforeInTranslationUnit(At, Expanded.getBegin()) ||
        SM.isBeforeInTranslationUnit(Expanded.getEnd(), At))
      return true;
    SourceLocation Spelled = SM.getSpellingLoc(U.E->getBeginLoc());
    return !SM.isBeforeInTranslationUnit(Spelled, Expanded.getBegin()) &&
           !SM.isBeforeInTranslationUnit(Expanded.getEnd(), Spelled);
  });
}

/// Whether \p Cost's text can be copied into the cost kernel: each
/// declaration's and the loop's start and bound.
static bool isCopyable(const SourceManager &SM, const TileKernelPlan &Plan,
                       const TileCost &Cost) {
  llvm::SmallVector<SourceRange, 8> Ranges;
  // The cost kernel repeats the kernel's parameters and template header.
  const FunctionDecl *F = Plan.Kernel;
  if (F->getNumParams())
    Ranges.push_back(parameterListRange(F));
  if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate())
    Ranges.push_back(T->getTemplateParameters()->getSourceRange());
  for (const DeclStmt *D : Cost.Decls)
    Ranges.push_back(D->getSourceRange());
  Ranges.push_back(Cost.Start->getSourceRange());
  Ranges.push_back(Cost.Bound->getSourceRange());
  return llvm::all_of(Ranges, [&](SourceRange R) {
    assert(placeSpelledInside(SM, Plan, SM.getExpansionRange(R)) &&
           "a read of the place in a macro's body is refused (DW0064)");
    return isMovableText(SM, R);
  });
}

/// Whether \p D is declared inside \p Kernel (a local type, enumerator,
/// using-declaration or alias), other than its parameters, its template's
/// parameters and the locals \p Copied: the cost kernel, after the kernel,
/// would not see it, or would find another declaration by its name.
static bool declaredInside(const Decl *D, const FunctionDecl *Kernel,
                           const llvm::DenseSet<const Decl *> &Copied) {
  if (!D ||
      isa<ParmVarDecl, TemplateTypeParmDecl, NonTypeTemplateParmDecl,
          TemplateTemplateParmDecl>(D) ||
      Copied.contains(D))
    return false;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (DC == Kernel)
      return true;
  return false;
}

/// Whether the copied text \p Parts names something declared in \p
/// Plan's kernel's body other than the copied locals of \p Decls (its
/// reads of the block's place, which the edits replace, aside).
static bool namesKernelScope(const TileKernelPlan &Plan,
                             llvm::ArrayRef<const DeclStmt *> Decls,
                             llvm::ArrayRef<const Stmt *> Parts) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    Finder(const TileKernelPlan &Plan, const llvm::DenseSet<const Decl *> &C)
        : Kernel(Plan.Kernel), Copied(C) {
      for (const BlockIndexUse &U : Plan.Uses)
        Replaced.insert(U.E);
    }
    bool dataTraverseStmtPre(Stmt *S) { return !Replaced.contains(S); }
    bool TraverseStmt(Stmt *S, DataRecursionQueue *Queue = nullptr) {
      return Replaced.contains(S) ||
             RecursiveASTVisitor::TraverseStmt(S, Queue);
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Found |= declaredInside(E->getDecl(), Kernel, Copied) ||
               declaredInside(E->getFoundDecl(), Kernel, Copied);
      return true;
    }
    bool VisitTypeLoc(TypeLoc TL) {
      if (const TagDecl *T = TL.getType()->getAsTagDecl())
        Found |= declaredInside(T, Kernel, Copied);
      if (const auto *TT = TL.getType()->getAs<TypedefType>())
        Found |= declaredInside(TT->getDecl(), Kernel, Copied);
      return true;
    }
    bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) {
      if (NNS && NNS.getNestedNameSpecifier().getKind() ==
                     NestedNameSpecifier::Kind::Namespace)
        Found |= declaredInside(
            NNS.getNestedNameSpecifier().getAsNamespaceAndPrefix().Namespace,
            Kernel, Copied);
      return RecursiveASTVisitor::TraverseNestedNameSpecifierLoc(NNS);
    }
    bool Found = false;

  private:
    const FunctionDecl *Kernel;
    const llvm::DenseSet<const Decl *> &Copied;
    llvm::DenseSet<const Stmt *> Replaced;
  };
  llvm::DenseSet<const Decl *> Copied;
  for (const DeclStmt *D : Decls)
    Copied.insert(D->decl_begin(), D->decl_end());
  Finder F(Plan, Copied);
  for (const DeclStmt *D : Decls)
    F.TraverseStmt(const_cast<DeclStmt *>(D));
  for (const Stmt *S : Parts)
    F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// Whether \p Body's text defines or undefines a macro: a macro the copied
/// text expands could then mean something else after the kernel, where the
/// cost kernel is.
static bool definesMacros(const SourceManager &SM, const Stmt *Body) {
  CharSourceRange R = Lexer::makeFileCharRange(
      SM.getExpansionRange(Body->getSourceRange()), SM, LangOptions());
  bool Invalid = false;
  llvm::StringRef Text = Lexer::getSourceText(R, SM, LangOptions(), &Invalid);
  if (Invalid)
    return true;
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Text.split(Lines, '\n');
  return llvm::any_of(Lines, [](llvm::StringRef Line) {
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      return false;
    Line = Line.ltrim();
    return Line.starts_with("define") || Line.starts_with("undef") ||
           Line.starts_with("include");
  });
}

std::optional<TileCost> findTileCost(ASTContext &Ctx,
                                     const TileKernelPlan &Plan) {
  assert(Plan.balanced() && "costs are those of a balanced kernel's tiles");
  const FunctionDecl *Kernel = Plan.Kernel;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  // A member kernel's cost kernel would have to be a member too.
  if (!Body || isa<CXXMethodDecl>(Kernel))
    return std::nullopt;
  llvm::DenseMap<const VarDecl *, const DeclStmt *> Locals;
  for (const Stmt *S : Body->body()) {
    if (const auto *F = dyn_cast<ForStmt>(S))
      if (std::optional<TileCost> Cost = loopCost(Ctx, Plan, F, Locals))
        return isCopyable(Ctx.getSourceManager(), Plan, *Cost) &&
                       !namesKernelScope(Plan, Cost->Decls,
                                         {Cost->Start, Cost->Bound}) &&
                       !definesMacros(Ctx.getSourceManager(), Body)
                   ? Cost
                   : std::nullopt;
    if (mayLeave(S))
      return std::nullopt;
    if (const auto *Decl = dyn_cast<DeclStmt>(S))
      for (const clang::Decl *D : Decl->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Locals[V] = Decl;
  }
  return std::nullopt;
}

} // namespace distwar
