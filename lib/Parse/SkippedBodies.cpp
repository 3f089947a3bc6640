//===- SkippedBodies.cpp - function bodies the rewrite never reads --------===//

#include "Parse/SkippedBodies.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/MultiplexConsumer.h"

using namespace clang;

namespace distwar {

bool isSkippableBody(const Decl *D, const SourceManager &SM) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
  if (!FD || FD->isTemplated() || FD->isConstexpr() ||
      FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>())
    return false;
  // A member of a local class belongs to its enclosing function's body.
  if (FD->getParentFunctionOrMethod())
    return false;
  SourceLocation Loc = FD->getLocation();
  return Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc));
}

std::unique_ptr<ASTConsumer> withBodySkipper(std::unique_ptr<ASTConsumer> Writer,
                                             const SourceManager &SM) {
  if (!Writer)
    return nullptr;
  std::vector<std::unique_ptr<ASTConsumer>> Both;
  Both.push_back(std::move(Writer));
  Both.push_back(std::make_unique<BodySkipper>(SM));
  return std::make_unique<MultiplexConsumer>(std::move(Both));
}

} // namespace distwar
