//===- AtomicSites.cpp - atomicAdd calls in device code -------------------===//

#include "Find/AtomicSites.h"
#include "Analysis/AstQueries.h"
#include "Analysis/AtomicCalls.h"
#include "Find/AddressDecomposition.h"
#include "Find/UniformBuffers.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

bool isInvocationWrapper(const AtomicSite &S, const Stmt *A) {
  const DoStmt *W = S.Invocation ? S.Invocation->Wrapper : nullptr;
  return W && (A == W || A == W->getBody());
}

std::optional<int64_t> constantTripCount(const ChannelLoop &CL,
                                         ASTContext &Ctx) {
  const Expr *Lower = CL.Lower->IgnoreParenImpCasts();
  const Expr *Upper = CL.Upper->IgnoreParenImpCasts();
  Expr::EvalResult L, U;
  if (Lower->isValueDependent() || Upper->isValueDependent() ||
      !Lower->EvaluateAsInt(L, Ctx) || !Upper->EvaluateAsInt(U, Ctx))
    return std::nullopt;
  return U.Val.getInt().getExtValue() - L.Val.getInt().getExtValue();
}

namespace {

/// The element type of `&a[i]` where only the size of array `a` depends on a
/// template parameter (`__shared__ float acc[N]`): the expression is
/// dependent, its element type is not. Null otherwise.
const Type *knownElementOfDependentArray(const Expr *Addr,
                                         const ASTContext &Ctx) {
  const auto *UO = dyn_cast<UnaryOperator>(Addr->IgnoreParens());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
  if (!ASE)
    return nullptr;
  const ArrayType *AT =
      Ctx.getAsArrayType(ASE->getBase()->IgnoreParenImpCasts()->getType());
  if (!AT || AT->getElementType()->isDependentType())
    return nullptr;
  return AT->getElementType().getTypePtr();
}

/// Element type as the batch can spell it, and whether it may be batched.
std::pair<std::string, bool> elementType(const Expr *Addr,
                                         const ASTContext &Ctx) {
  QualType T = Addr->getType();
  if (T->isDependentType() && !T->isPointerType()) {
    const Type *Known = knownElementOfDependentArray(Addr, Ctx);
    if (!Known)
      return {"", false};
    T = Ctx.getPointerType(QualType(Known, 0));
  }
  if (!T->isPointerType())
    return {"", false};
  QualType Pointee = T->getPointeeType().getUnqualifiedType();
  if (Pointee->isDependentType())
    return {Pointee.getAsString(Ctx.getPrintingPolicy()),
            isa<TemplateTypeParmType>(Pointee.getCanonicalType())};
  QualType Canon = Pointee.getCanonicalType();
  std::string Text = Canon.getAsString(Ctx.getPrintingPolicy());
  const auto *BT = dyn_cast<BuiltinType>(Canon);
  bool Ok = BT && (BT->getKind() == BuiltinType::Float ||
                   BT->getKind() == BuiltinType::Double ||
                   BT->getKind() == BuiltinType::Int ||
                   BT->getKind() == BuiltinType::UInt ||
                   BT->getKind() == BuiltinType::ULongLong);
  return {Text, Ok};
}

/// Whether the atomic's value is discarded, and whether it is a whole
/// statement. \p Ancestors[0] is the call's parent.
Reason resultUse(const CallExpr *Call, llvm::ArrayRef<const Stmt *> Ancestors) {
  const Stmt *Child = Call;
  for (const Stmt *P : Ancestors) {
    if (isa<ExprWithCleanups, ParenExpr>(P)) {
      Child = P;
      continue;
    }
    if (const auto *Cast = dyn_cast<CStyleCastExpr>(P);
        Cast && Cast->getCastKind() == CK_ToVoid) {
      Child = P;
      continue;
    }
    if (isa<CompoundStmt, AttributedStmt, LabelStmt>(P))
      return Reason::None;
    if (const auto *F = dyn_cast<ForStmt>(P))
      return F->getBody() == Child  ? Reason::None
             : F->getInc() == Child ? Reason::NotAStatement
                                    : Reason::UsedResult;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getBody() == Child ? Reason::None : Reason::UsedResult;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return D->getBody() == Child ? Reason::None : Reason::UsedResult;
    if (const auto *R = dyn_cast<CXXForRangeStmt>(P))
      return R->getBody() == Child ? Reason::None : Reason::UsedResult;
    if (const auto *I = dyn_cast<IfStmt>(P))
      return I->getThen() == Child || I->getElse() == Child
                 ? Reason::None
                 : Reason::UsedResult;
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->getOpcode() == BO_Comma && BO->getLHS() == Child)
      return Reason::NotAStatement;
    if (isa<Expr>(P) || isa<ReturnStmt, DeclStmt>(P))
      return Reason::UsedResult;
    return Reason::NotAStatement;
  }
  return Reason::NotAStatement;
}

class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
public:
  SiteFinder(ASTContext &Ctx, std::vector<AtomicSite> &Sites,
             HeaderPolicy Policy, const UnparsedFunctions *Unparsed)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Sites(Sites), Policy(Policy),
        Unparsed(Unparsed) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    SourceLocation Where = SM.getExpansionLoc(FD->getLocation());
    // Device functions of the user's headers are reported, never edited
    // (system headers, the SDK's and Clang's, are not the user's).
    if (!FD->doesThisDeclarationHaveABody() || FD->isTemplateInstantiation() ||
        SM.isInSystemHeader(Where) ||
        (!SM.isWrittenInMainFile(Where) &&
         (!SM.getFileEntryRefForID(SM.getFileID(Where)) ||
          SM.getFileID(Where) == SM.getPreambleFileID() ||
          SM.isWrittenInBuiltinFile(Where) ||
          SM.isWrittenInCommandLineFile(Where))))
      return true;
    InMainFile = SM.isWrittenInMainFile(Where);
    HeaderWhy = InMainFile ? Reason::None
                : Policy   ? Policy(SM.getFileID(Where))
                           : Reason::HeaderNotEditable;
    if (!FD->hasAttr<CUDAGlobalAttr>() && !FD->hasAttr<CUDADeviceAttr>())
      return true;
    Function = FD;
    FunctionWhy = Unparsed ? Unparsed->verdict(FD) : Verdict();
    Stack.clear();
    walk(FD->getBody());
    return true;
  }

private:
  void walk(const Stmt *S) {
    if (!S)
      return;
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      // Reported, never batched: the lambda's body is another function,
      // called from places the analyses of this one do not see.
      bool Outer = InLambda;
      InLambda = true;
      walk(Lambda->getBody());
      InLambda = Outer;
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && Call->getNumArgs() == 2)
      if (CallKind Kind = callKind(Call, SM); Kind != CallKind::None)
        record(Call, Kind);
    Stack.push_back(S);
    for (const Stmt *Child : S->children())
      walk(Child);
    Stack.pop_back();
  }

  void record(const CallExpr *Call, CallKind Kind) {
    AtomicSite Site;
    Site.Call = Call;
    Site.IsDeviceAdd = Kind == CallKind::DeviceAdd;
    Site.Function = Function;
    Site.FunctionName = Function->getQualifiedNameAsString();
    Site.Callee = calleeName(Call).str();
    SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
    Site.Line = SM.getExpansionLineNumber(Loc);
    Site.Column = SM.getExpansionColumnNumber(Loc);
    Site.Ancestors.assign(Stack.rbegin(), Stack.rend());
    auto [Type, TypeOk] = elementType(Call->getArg(0), Ctx);
    Site.TypeText = Type;
    if (!InMainFile)
      Site.File = SM.getFilename(Loc).str();
    if (FunctionWhy != Reason::None) {
      Site.Why = !InMainFile && HeaderWhy != Reason::None ? Verdict(HeaderWhy)
                                                          : FunctionWhy;
      Sites.push_back(std::move(Site));
      return;
    }
    bool TypeFromBuffer = decomposeAddress(Site, Function, Buffers, Ctx);
    TypeOk = TypeOk || TypeFromBuffer;
    if (Kind == CallKind::UserOverload)
      Site.Why = Reason::UserOverload;
    else if (!Site.IsDeviceAdd)
      Site.Why = Reason::UnsupportedAtomic;
    else if (Reason Use = resultUse(Call, Site.Ancestors); Use != Reason::None)
      Site.Why = Use;
    else if (!TypeOk)
      // A type that only an instantiation knows (`V::value_type`, `.x` of a
      // dependent vector) may differ between instantiations.
      Site.Why = Call->getArg(0)->getType()->isDependentType()
                     ? Reason::DependentElementType
                     : Reason::UnsupportedType;
    else if (Site.Why == Reason::None &&
             (Call->getBeginLoc().isMacroID() ||
              Call->getArg(0)->getBeginLoc().isMacroID() ||
              Call->getArg(0)->getEndLoc().isMacroID()))
      Site.Why = Reason::MacroExpansion;
    // Inside a lambda nothing is rewritten: that, not how the address is
    // written, is why the site stays (a lambda's parameters differ per call).
    if (InLambda && (Site.Why == Reason::None ||
                     Site.Why == Reason::AddressNotDecomposed ||
                     Site.Why == Reason::BufferNotUniform))
      Site.Why = Reason::InLambda;
    if (!InMainFile && HeaderWhy != Reason::None)
      Site.Why = HeaderWhy;
    Sites.push_back(std::move(Site));
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  std::vector<AtomicSite> &Sites;
  const FunctionDecl *Function = nullptr;
  std::vector<const Stmt *> Stack;
  bool InMainFile = true;
  bool InLambda = false;
  HeaderPolicy Policy;
  UniformBuffers Buffers{Ctx};
  /// Why the current function's file may not be edited, or None.
  Reason HeaderWhy = Reason::None;
  const UnparsedFunctions *Unparsed;
  /// Why the current function is left as written (Clang could not parse
  /// it), or None.
  Verdict FunctionWhy;
};

} // namespace

std::vector<AtomicSite> findAtomicSites(ASTContext &Ctx, HeaderPolicy Policy,
                                        const UnparsedFunctions *Unparsed) {
  std::vector<AtomicSite> Sites;
  SiteFinder Finder(Ctx, Sites, Policy, Unparsed);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::stable_sort(Sites, [&](const AtomicSite &A, const AtomicSite &B) {
    return SM.isBeforeInTranslationUnit(
        SM.getExpansionLoc(A.Call->getBeginLoc()),
        SM.getExpansionLoc(B.Call->getBeginLoc()));
  });
  return Sites;
}

} // namespace distwar
