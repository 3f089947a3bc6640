//===- AstQueries.cpp - questions about expressions and loops -------------===//

#include "Analysis/AstQueries.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace distwar {

std::optional<ReasonPlace> placeAt(const SourceManager &SM, SourceLocation Loc,
                                   llvm::StringRef Text) {
  SourceLocation File = SM.getFileLoc(Loc);
  if (File.isInvalid())
    return std::nullopt;
  ReasonPlace P;
  P.Text = Text.str();
  P.Line = SM.getSpellingLineNumber(File);
  P.Column = SM.getSpellingColumnNumber(File);
  if (!SM.isWrittenInMainFile(File))
    P.File = SM.getFilename(File).str();
  return P;
}

std::optional<ReasonPlace> presumedPlaceAt(const SourceManager &SM,
                                           SourceLocation Loc,
                                           llvm::StringRef Text) {
  SourceLocation File = SM.getFileLoc(Loc);
  PresumedLoc Presumed = File.isValid() ? SM.getPresumedLoc(File)
                                        : PresumedLoc();
  if (Presumed.isInvalid())
    return placeAt(SM, Loc, Text);
  ReasonPlace P;
  P.Text = Text.str();
  P.Line = Presumed.getLine();
  P.Column = Presumed.getColumn();
  if (!SM.isWrittenInMainFile(File))
    P.File = Presumed.getFilename();
  return P;
}

std::optional<WrittenTemplateArgs> writtenTemplateArgs(const Expr *Name) {
  // DeclRefExpr and OverloadExpr spell their names alike, with no base.
  auto Of = [](const auto *E) {
    WrittenTemplateArgs W;
    W.Angles = E->hasExplicitTemplateArgs();
    W.Count = E->getNumTemplateArgs();
    W.LAngle = E->getLAngleLoc();
    W.NameEnd = E->getNameInfo().getEndLoc();
    return W;
  };
  if (const auto *D = dyn_cast<DeclRefExpr>(Name))
    return Of(D);
  if (const auto *O = dyn_cast<OverloadExpr>(Name))
    return Of(O);
  return std::nullopt;
}

SourceRange parameterListRange(const FunctionDecl *F) {
  if (F->getNumParams() == 0)
    return SourceRange();
  return SourceRange(
      F->getParamDecl(0)->getSourceRange().getBegin(),
      F->getParamDecl(F->getNumParams() - 1)->getSourceRange().getEnd());
}

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // A whole macro argument or a whole invocation maps back to its text in
  // the file; a part of a macro body does not.
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid() || !SM.getFileEntryRefForID(SM.getFileID(R.getBegin())))
    return "";
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

bool hasStorageBeyondCall(const VarDecl *V) {
  return V->isStaticLocal() || V->hasAttr<CUDASharedAttr>() ||
         V->hasExternalStorage();
}

bool isCompileTimeConstant(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (!E->isValueDependent() && !E->isTypeDependent())
    return E->getType()->isIntegralOrEnumerationType() &&
           E->isIntegerConstantExpr(Ctx);
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          UnaryExprOrTypeTraitExpr, SizeOfPackExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<NonTypeTemplateParmDecl, EnumConstantDecl>(D))
      return true;
    if (const auto *VD = dyn_cast<VarDecl>(D))
      return VD->isConstexpr() ||
             (VD->getType().isConstQualified() &&
              VD->getType()->isIntegralOrEnumerationType() && VD->getInit() &&
              isCompileTimeConstant(VD->getInit(), Ctx));
    return false;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           isCompileTimeConstant(BO->getLHS(), Ctx) &&
           isCompileTimeConstant(BO->getRHS(), Ctx);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_AddrOf &&
           UO->getOpcode() != UO_Deref &&
           isCompileTimeConstant(UO->getSubExpr(), Ctx);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isCompileTimeConstant(CO->getCond(), Ctx) &&
           isCompileTimeConstant(CO->getTrueExpr(), Ctx) &&
           isCompileTimeConstant(CO->getFalseExpr(), Ctx);
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
    return isCompileTimeConstant(CE->getSubExpr(), Ctx);
  if (const auto *CE = dyn_cast<CXXUnresolvedConstructExpr>(E))
    return CE->getNumArgs() == 1 && isCompileTimeConstant(CE->getArg(0), Ctx);
  return false;
}

const Expr *
subscriptChain(const Expr *E,
               llvm::SmallVectorImpl<const CXXOperatorCallExpr *> &Ops) {
  Ops.clear();
  E = E->IgnoreImplicit()->IgnoreParens();
  while (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
      return nullptr;
    Ops.push_back(Op);
    E = Op->getArg(0)->IgnoreImplicit()->IgnoreParens();
  }
  return Ops.empty() ? nullptr : E;
}

const VarDecl *loopVariable(const ForStmt *F) {
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
    if (DS->isSingleDecl())
      return dyn_cast<VarDecl>(DS->getSingleDecl());
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(F->getInit()))
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

const Expr *loopStart(const ForStmt *F) {
  const VarDecl *Var = loopVariable(F);
  assert(Var && "a loop without a counter has no start");
  return isa<DeclStmt>(F->getInit())
             ? Var->getInit()
             : cast<BinaryOperator>(F->getInit())->getRHS();
}

const Stmt *loopBody(const Stmt *S) {
  if (const auto *For = dyn_cast<ForStmt>(S))
    return For->getBody();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    return Range->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return Do->getBody();
  return nullptr;
}

bool sameExpression(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IdA, IdB;
  A->Profile(IdA, Ctx, /*Canonical=*/true);
  B->Profile(IdB, Ctx, /*Canonical=*/true);
  return IdA == IdB;
}

bool refersTo(const Expr *E, const VarDecl *V) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && DRE->getDecl() == V;
}

llvm::StringRef calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD->getIdentifier() ? FD->getName() : "";
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    return ULE->getName().getAsIdentifierInfo()
               ? ULE->getName().getAsIdentifierInfo()->getName()
               : "";
  return "";
}

std::optional<CountingLoop> matchCountingLoop(const ForStmt *F) {
  CountingLoop L;
  L.Var = loopVariable(F);
  const auto *Inc = dyn_cast_or_null<Expr>(F->getInc());
  if (!L.Var || !Inc)
    return std::nullopt;
  L.Start = loopStart(F);
  Inc = Inc->IgnoreParenImpCasts();
  bool StepOne = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
    StepOne = UO->isIncrementOp() && refersTo(UO->getSubExpr(), L.Var);
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
    if (const auto *One =
            dyn_cast<IntegerLiteral>(CA->getRHS()->IgnoreParenImpCasts()))
      StepOne = CA->getOpcode() == BO_AddAssign &&
                refersTo(CA->getLHS(), L.Var) && One->getValue() == 1;
  if (!L.Start || !StepOne)
    return std::nullopt;
  return L;
}

/// The returns of \p Body, outside the lambdas in it.
std::vector<const ReturnStmt *> returnsOf(const Stmt *Body) {
  class Collector : public RecursiveASTVisitor<Collector> {
  public:
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitReturnStmt(ReturnStmt *R) {
      Returns.push_back(R);
      return true;
    }
    std::vector<const ReturnStmt *> Returns;
  } C;
  C.TraverseStmt(const_cast<Stmt *>(Body));
  return C.Returns;
}

} // namespace distwar
