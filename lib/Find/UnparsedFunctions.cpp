//===- UnparsedFunctions.cpp - functions Clang could not parse ------------===//

#include "Find/UnparsedFunctions.h"
#include "Analysis/AstQueries.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <deque>

using namespace clang;

namespace distwar {

const FunctionDecl *UnparsedFunctions::keyOf(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  return FD->getCanonicalDecl();
}

/// What a call can reach: one instantiation of a template on its own (an
/// error in `f<double>` leaves `f<float>` sound), any other function as
/// keyOf does.
static const FunctionDecl *entityOf(const FunctionDecl *FD) {
  return FD->isTemplateInstantiation() ? FD->getCanonicalDecl()
                                       : UnparsedFunctions::keyOf(FD);
}

namespace {

/// A place in a function and what lies there.
struct Mark {
  SourceLocation Loc;
  std::string Text;
};

/// One function's reference to another (a call, a construction, its name).
struct Reference {
  const FunctionDecl *From = nullptr; ///< entityOf the referring function
  const FunctionDecl *To = nullptr;   ///< the declaration referred to
  SourceLocation At;
};

/// Every function definition of the AST, instantiations included: the
/// written ones, what each refers to, and what Clang marked in each. A
/// lambda's body counts as the function that holds it.
class FunctionIndex : public RecursiveASTVisitor<FunctionIndex> {
  using Base = RecursiveASTVisitor<FunctionIndex>;

public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    if (!FD->isTemplateInstantiation())
      Written.push_back(FD);
    Stack.push_back(FD);
    if (FD->isInvalidDecl())
      markCurrent(FD->getLocation(), "Clang marked this function invalid");
    bool Continue = Base::TraverseDecl(D);
    Stack.pop_back();
    return Continue;
  }

  bool VisitDecl(Decl *D) {
    if (!Stack.empty() && D != Stack.back() && D->isInvalidDecl())
      markCurrent(D->getLocation(), "Clang marked this declaration invalid");
    return true;
  }

  bool VisitExpr(Expr *E) {
    if (Stack.empty())
      return true;
    if (E->containsErrors())
      markCurrent(E->getBeginLoc(), "Clang could not build this expression");
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      refer(DRE->getDecl(), DRE->getLocation());
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      refer(ME->getMemberDecl(), ME->getMemberLoc());
    else if (const auto *OE = dyn_cast<OverloadExpr>(E))
      // A call in a template: every declaration the name may pick.
      for (const NamedDecl *D : OE->decls())
        refer(D, OE->getNameLoc());
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      refer(CE->getConstructor(), CE->getLocation());
    else if (const auto *NE = dyn_cast<CXXNewExpr>(E))
      refer(NE->getOperatorNew(), NE->getBeginLoc());
    return true;
  }

  std::vector<const FunctionDecl *> Written;
  std::vector<Reference> References;
  /// The first mark in each function (by entityOf), in the order found.
  std::vector<std::pair<const FunctionDecl *, Mark>> Marks;

private:
  void markCurrent(SourceLocation Loc, llvm::StringRef Text) {
    const FunctionDecl *Entity = entityOf(Stack.back());
    if (Marked.insert(Entity).second)
      Marks.push_back({Entity, {Loc, Text.str()}});
  }

  void refer(const NamedDecl *D, SourceLocation At) {
    if (!D)
      return;
    D = D->getUnderlyingDecl();
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
      FD = FTD->getTemplatedDecl();
    if (FD)
      References.push_back({entityOf(Stack.back()), FD, At});
    else if (D->isInvalidDecl())
      markCurrent(At, "this names a declaration Clang could not parse");
  }

  std::vector<FunctionDecl *> Stack;
  llvm::DenseSet<const FunctionDecl *> Marked;
};

/// The written function definitions whose body holds \p Loc. An error in a
/// declaration (a parameter's type, a redeclaration Clang takes for an
/// overload) changes what every call of it means: it is nobody's.
llvm::SmallVector<const FunctionDecl *, 2>
enclosing(const SourceManager &SM, llvm::ArrayRef<const FunctionDecl *> Written,
          SourceLocation Loc) {
  llvm::SmallVector<const FunctionDecl *, 2> Out;
  Loc = SM.getExpansionLoc(Loc);
  for (const FunctionDecl *FD : Written) {
    const Stmt *Body = FD->getBody();
    if (!Body)
      continue;
    CharSourceRange R = SM.getExpansionRange(Body->getSourceRange());
    if (SM.isPointWithin(Loc, R.getBegin(), R.getEnd()))
      Out.push_back(FD);
  }
  return Out;
}

} // namespace

std::optional<UnparsedFunctions>
UnparsedFunctions::find(ASTContext &Ctx, llvm::ArrayRef<ClangError> Errors,
                        bool PresumedLines) {
  // Errors without a place to blame leave nothing to rewrite safely.
  if (Errors.empty())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  FunctionIndex Index;
  Index.TraverseDecl(Ctx.getTranslationUnitDecl());
  UnparsedFunctions Out;
  auto Place = [&](SourceLocation Loc, const std::string &Text) {
    std::optional<ReasonPlace> P = PresumedLines
                                       ? presumedPlaceAt(SM, Loc, Text)
                                       : placeAt(SM, Loc, Text);
    return P.value_or(ReasonPlace{"", 0, 0, Text});
  };
  // The text of a function is left as written when any of it is broken.
  auto LeaveText = [&](const FunctionDecl *FD, SourceLocation Loc,
                       const std::string &Text) {
    Out.Why.try_emplace(keyOf(FD), Place(Loc, Text));
  };
  // Broken: what a call of it reaches is not known.
  llvm::DenseSet<const FunctionDecl *> Broken;
  std::deque<const FunctionDecl *> Work;
  auto Break = [&](const FunctionDecl *Entity, SourceLocation Loc,
                   const std::string &Text) {
    if (!Broken.insert(Entity).second)
      return;
    LeaveText(Entity, Loc, Text);
    Work.push_back(Entity);
  };
  std::vector<const FunctionDecl *> InstantiationErrors;
  for (const ClangError &E : Errors) {
    if (E.Fatal || E.Syntax || E.Loc.isInvalid())
      return std::nullopt;
    auto Holders = enclosing(SM, Index.Written, E.Loc);
    if (Holders.empty())
      return std::nullopt;
    std::string Text = "Clang reports: " + E.Message;
    for (const FunctionDecl *FD : Holders) {
      if (E.RequestedAt.empty()) {
        Break(keyOf(FD), E.Loc, Text);
        continue;
      }
      // Only the instantiation is broken (Clang marks it, below); the
      // template's text, shared with the sound ones, stays as written.
      LeaveText(FD, E.Loc, Text);
      InstantiationErrors.push_back(keyOf(FD));
    }
    for (SourceLocation Requested : E.RequestedAt)
      for (const FunctionDecl *FD : enclosing(SM, Index.Written, Requested))
        Break(keyOf(FD), Requested,
              "an instantiation asked for here holds an error: " + E.Message);
  }
  for (const auto &[Entity, M] : Index.Marks)
    Break(Entity, M.Loc, M.Text);
  // What is broken so far holds an error itself; what follows only reaches
  // one.
  for (const auto &Entry : Out.Why)
    Out.Holders.insert(Entry.first);
  // Where Clang marked no instantiation, every one counts as broken.
  for (const FunctionDecl *Pattern : InstantiationErrors)
    if (llvm::none_of(Broken, [&](const FunctionDecl *Entity) {
          return keyOf(Entity) == Pattern;
        }))
      Break(Pattern, SourceLocation(), "");
  // Whatever refers to a broken function, transitively: a broken template
  // breaks every instantiation, an instantiation only itself.
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const Reference *, 2>>
      Referrers;
  for (const Reference &R : Index.References) {
    Referrers[entityOf(R.To)].push_back(&R);
    if (keyOf(R.To) != entityOf(R.To))
      Referrers[keyOf(R.To)].push_back(&R);
  }
  while (!Work.empty()) {
    const FunctionDecl *Target = Work.front();
    Work.pop_front();
    auto It = Referrers.find(Target);
    if (It == Referrers.end())
      continue;
    for (const Reference *R : It->second)
      if (R->From != Target)
        Break(R->From, R->At,
              "this reaches '" + Target->getQualifiedNameAsString() +
                  "', which Clang could not parse");
  }
  llvm::DenseSet<const FunctionDecl *> Counted;
  for (const FunctionDecl *FD : Index.Written)
    if (Out.Why.count(keyOf(FD)) &&
        !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())) &&
        Counted.insert(keyOf(FD)).second)
      ++Out.UserFunctions;
  return Out;
}

Verdict UnparsedFunctions::verdict(const FunctionDecl *FD) const {
  auto It = Why.find(keyOf(FD));
  if (It == Why.end())
    return Reason::None;
  return Verdict(Reason::ParseErrorInFunction, It->second);
}

} // namespace distwar
