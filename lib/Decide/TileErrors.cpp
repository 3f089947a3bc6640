//===- TileErrors.cpp - kernels Clang's errors keep as written ------------===//
//-------------===//

#include "Decide/TileErrors.h"
#include "Analysis/AstQueries.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace distwar {

namespace {

/// The function definitions written in user files (not instantiations).
class WrittenFunctions : public RecursiveASTVisitor<WrittenFunctions> {
public:
  explicit WrittenFunctions(const SourceManager &SM) : SM(SM) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isTemplateInstantiation() &&
        !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      Found.push_back(FD);
    return true;
  }

  std::vector<const FunctionDecl *> Found;

private:
  const SourceManager &SM;
};

} // namespace

TileErrors::TileErrors(ASTContext &Ctx, const syntax::TokenBuffer &Tokens,
                       llvm::ArrayRef<ClangError> Errors)
    : Ctx(Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  Unparsed = UnparsedFunctions::find(Ctx, Errors, /*PresumedLines=*/true);
  if (!Unparsed) {
    if (!Errors.empty())
      FirstError = presumedPlaceAt(SM, Errors.front().Loc,
                                   "Clang reports: " + Errors.front().Message +
                                       " (outside every function: nothing "
                                       "in the file is proven)");
    return;
  }
  WrittenFunctions Written(SM);
  Written.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *FD : Written.Found) {
    if (!Unparsed->holdsError(FD))
      continue;
    std::string Name = FD->getQualifiedNameAsString();
    for (const syntax::Token &T :
         Tokens.expandedTokens(FD->getBody()->getSourceRange())) {
      if (T.kind() != tok::identifier)
        continue;
      std::optional<ReasonPlace> P = presumedPlaceAt(SM, T.location(), "");
      if (P)
        SpelledInUnparsed.try_emplace(T.text(SM), std::move(*P), Name);
    }
  }
}

Verdict TileErrors::holderVerdict(const Expr *Ref) const {
  DynTypedNodeList Parents = Ctx.getParents(*Ref);
  while (!Parents.empty()) {
    DynTypedNode Node = Parents[0];
    if (const auto *FD = Node.get<FunctionDecl>();
        FD && Unparsed->holdsError(FD))
      return Verdict(Reason::TileParseError,
                     presumedPlaceAt(Ctx.getSourceManager(), Ref->getBeginLoc(),
                                     "the kernel is named here, in '" +
                                         FD->getQualifiedNameAsString() +
                                         "', which Clang could not parse"));
    Parents = Ctx.getParents(Node);
  }
  return Verdict();
}

Verdict TileErrors::verdict(const FunctionDecl *Kernel,
                            llvm::ArrayRef<const Expr *> Refs) const {
  if (!Unparsed)
    return Verdict(Reason::TileParseError, FirstError);
  if (Verdict V = Unparsed->verdict(Kernel); V != Reason::None)
    return Verdict(Reason::TileParseError, V.Place);
  for (const Expr *Ref : Refs)
    if (Verdict V = holderVerdict(Ref); V != Reason::None)
      return V;
  auto It = SpelledInUnparsed.find(Kernel->getName());
  if (It == SpelledInUnparsed.end())
    return Verdict();
  ReasonPlace P = It->second.first;
  P.Text = "'" + It->second.second +
           "', which Clang could not parse, spells the kernel's name here: a "
           "launch there would keep the old parameters";
  return Verdict(Reason::TileParseError, std::move(P));
}

} // namespace distwar
