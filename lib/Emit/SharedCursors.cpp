//===- SharedCursors.cpp - pointers that walk __shared__ arrays -----------===//

#include "Emit/SharedCursors.h"
#include "Analysis/LoopCounter.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace distwar {
namespace {

/// The counter reference \p E is, written as a bare name (no parentheses or
/// casts in the source: the token itself is edited), or null.
const DeclRefExpr *bareCounter(const Expr *E, const VarDecl *Counter) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreImpCasts());
  return DRE && DRE->getDecl() == Counter ? DRE : nullptr;
}

bool inFile(SourceLocation L) { return L.isValid() && L.isFileID(); }

class UseFinder : public RecursiveASTVisitor<UseFinder> {
public:
  UseFinder(const ASTContext &Ctx, const FunctionDecl *Function,
            const ForStmt *Loop, const BoundedCounter &Counter,
            CursorPlan &Plan)
      : Ctx(Ctx), Function(Function), Loop(Loop), Counter(Counter), Plan(Plan) {
  }

  /// A lambda's capture list may not name the cursor: its body is left as
  /// it is.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    const auto *Base = dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreImpCasts());
    const auto *Array = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (!Array || !eligibleArray(Array))
      return true;
    CursorUse Use{Base, bareCounter(ASE->getIdx(), Counter.Var), nullptr};
    if (!Use.Counter) {
      const auto *Sum =
          dyn_cast<BinaryOperator>(ASE->getIdx()->IgnoreImpCasts());
      // Reassociating `e + j` into `(A + j)[e]` is only exact without
      // wrap-around: signed arithmetic (overflow is undefined there anyway).
      if (!Sum || Sum->getOpcode() != BO_Add ||
          !Sum->getType()->isSignedIntegerType() ||
          !Sum->getLHS()->getType()->isSignedIntegerType() ||
          !Sum->getRHS()->getType()->isSignedIntegerType())
        return true;
      const DeclRefExpr *L = bareCounter(Sum->getLHS(), Counter.Var);
      const DeclRefExpr *R = bareCounter(Sum->getRHS(), Counter.Var);
      if (!L == !R ||
          refersToAny(L ? Sum->getRHS() : Sum->getLHS(), {Counter.Var}))
        return true;
      Use.Counter = L ? L : R;
      Use.Sum = Sum;
      if (!inFile(Sum->getOperatorLoc()))
        return true;
    }
    if (!inFile(Base->getLocation()) || !inFile(Use.Counter->getLocation()))
      return true;
    auto It = llvm::find_if(
        Plan.Cursors, [&](const SharedCursor &C) { return C.Array == Array; });
    if (It == Plan.Cursors.end()) {
      Plan.Cursors.push_back({Array, {}});
      It = std::prev(Plan.Cursors.end());
    }
    It->Uses.push_back(Use);
    return true;
  }

private:
  /// A `__shared__` array declared before the loop, whose extent keeps
  /// A + j within [A, A + extent] from the first iteration to the exit.
  bool eligibleArray(const VarDecl *Array) const {
    const SourceManager &SM = Ctx.getSourceManager();
    if (!Array->hasAttr<CUDASharedAttr>() ||
        !SM.isBeforeInTranslationUnit(Array->getLocation(),
                                      Loop->getBeginLoc()))
      return false;
    std::optional<llvm::APSInt> Size = Array->getType()->isDependentType()
                                           ? smallestInstantiatedExtent(Array)
                                           : BoundedCounter::extent(Array, Ctx);
    return Size && llvm::APSInt::compareValues(Counter.Max, *Size) < 0 &&
           llvm::APSInt::compareValues(Counter.Start, *Size) <= 0;
  }

  /// An array whose extent depends on template parameters
  /// (`collected_colors[C * BLOCK_SIZE]`): the smallest extent it has in the
  /// instantiations of the function template this translation unit makes,
  /// or none when it makes none or one of them is not a constant.
  std::optional<llvm::APSInt>
  smallestInstantiatedExtent(const VarDecl *Array) const {
    const FunctionTemplateDecl *Template =
        Function ? Function->getDescribedFunctionTemplate() : nullptr;
    if (!Template)
      return std::nullopt;
    std::optional<llvm::APSInt> Smallest;
    for (const FunctionDecl *Spec : Template->specializations()) {
      if (!Spec->hasBody())
        continue; // never instantiated: no code to keep in bounds
      const VarDecl *Copy = localAt(Spec->getBody(), Array->getLocation());
      std::optional<llvm::APSInt> Size =
          Copy ? BoundedCounter::extent(Copy, Ctx) : std::nullopt;
      if (!Size)
        return std::nullopt;
      if (!Smallest || llvm::APSInt::compareValues(*Size, *Smallest) < 0)
        Smallest = Size;
    }
    return Smallest;
  }

  /// The local variable declared at \p Where in \p S (an instantiation's
  /// copy of a pattern's variable has the pattern's location).
  static const VarDecl *localAt(const Stmt *S, SourceLocation Where) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V->getLocation() == Where)
          return V;
    for (const Stmt *Child : S->children())
      if (Child)
        if (const VarDecl *V = localAt(Child, Where))
          return V;
    return nullptr;
  }

  const ASTContext &Ctx;
  const FunctionDecl *Function;
  const ForStmt *Loop;
  const BoundedCounter &Counter;
  CursorPlan &Plan;
};

} // namespace

std::optional<CursorPlan> planSharedCursors(ASTContext &Ctx,
                                            const FunctionDecl *Function,
                                            const ForStmt *Loop) {
  std::optional<BoundedCounter> Counter = boundedCounter(Ctx, Loop);
  if (!Counter || !Loop->getBody() || !Loop->getInc() ||
      !inFile(Loop->getBeginLoc()) || !inFile(Loop->getInc()->getEndLoc()))
    return std::nullopt;
  // The cursors are declared just before the loop, at block level: a loop
  // under a label, a loop-hint pragma or an unbraced if has no such place.
  DynTypedNodeList Parents = Ctx.getParents(*Loop);
  if (Parents.size() != 1 || !Parents[0].get<CompoundStmt>())
    return std::nullopt;
  CursorPlan Plan;
  Plan.Start = Counter->Start;
  UseFinder(Ctx, Function, Loop, *Counter, Plan)
      .TraverseStmt(const_cast<Stmt *>(Loop->getBody()));
  if (Plan.Cursors.empty())
    return std::nullopt;
  return Plan;
}

} // namespace distwar
