//===- LambdaWrap.cpp - may a loop run inside a generic lambda? -----------===//

#include "Decide/LambdaWrap.h"
#include "Analysis/AstQueries.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace distwar {

namespace {

class LambdaWrapCheck : public RecursiveASTVisitor<LambdaWrapCheck> {
public:
  explicit LambdaWrapCheck(const Stmt *Loop) : Loop(Loop) {}

  bool VisitVarDecl(VarDecl *V) {
    Fits = Fits && !hasStorageBeyondCall(V);
    return Fits;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *B = dyn_cast<BindingDecl>(E->getDecl()))
      Fits = Fits && Loop->getSourceRange().fullyContains(B->getSourceRange());
    return Fits;
  }
  bool VisitLabelStmt(LabelStmt *) {
    Fits = false;
    return false;
  }

  bool fits(ASTContext &Ctx) {
    if (!Ctx.getLangOpts().CPlusPlus14)
      return false;
    for (const DynTypedNode &P : Ctx.getParents(*Loop))
      if (P.get<AttributedStmt>() || P.get<LabelStmt>())
        return false;
    TraverseStmt(const_cast<Stmt *>(Loop));
    return Fits;
  }

private:
  const Stmt *Loop;
  bool Fits = true;
};

} // namespace

bool runsInGenericLambda(ASTContext &Ctx, const Stmt *Loop) {
  return LambdaWrapCheck(Loop).fits(Ctx);
}

bool wrappableInFile(const Stmt *Loop, const SourceManager &SM) {
  SourceLocation Begin = Loop->getBeginLoc(), End = Loop->getEndLoc();
  return Begin.isFileID() && End.isFileID() &&
         SM.getFileID(Begin) == SM.getFileID(End);
}

} // namespace distwar
