//===- LocalPointers.cpp - an address kept in a local pointer -------------===//

#include "Find/LocalPointers.h"
#include "Analysis/Effects.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

/// `buf + terms` or `&buf[index]`, split; false for anything else.
static bool splitInitialiser(const Expr *Init, AddressParts &Out) {
  const Expr *E = Init->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf) {
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
    if (!ASE)
      return false;
    Out.Base = ASE->getBase();
    flattenSum(ASE->getIdx(), Out.IndexTerms);
  } else if (sumOperands(E)) {
    splitPointerSum(E, Out);
  }
  return Out.Base && !Out.IndexTerms.empty();
}

/// Whether \p V keeps its value from its declaration on, and its name
/// means it wherever it is read (the key is written again at the atomic).
static bool stableName(const VarDecl *V, const Stmt *Body) {
  if (findWrite(Body, V, /*Through=*/false))
    return false;
  return forEachStmt(Body, [&](const Stmt *S) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    return !DS || llvm::none_of(DS->decls(), [&](const Decl *D) {
      const auto *Other = dyn_cast<VarDecl>(D);
      return Other && Other != V && Other->getDeclName() == V->getDeclName();
    });
  });
}

bool forwardLocalPointer(AddressParts &Parts, const FunctionDecl *Function,
                         UniformBuffers &Buffers) {
  const auto *Ref =
      Parts.Base ? dyn_cast<DeclRefExpr>(Parts.Base->IgnoreParenImpCasts())
                 : nullptr;
  const auto *P = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!P || !Body || !P->isLocalVarDecl() || P->hasGlobalStorage() ||
      !P->getType()->isPointerType() || !P->getInit())
    return false;
  AddressParts Init;
  if (!splitInitialiser(P->getInit(), Init))
    return false;
  const VarDecl *Buffer = referencedVar(Init.Base);
  if (!Buffer || !Buffers.isUniform(Buffer, nullptr, false, Function))
    return false;
  llvm::SmallVector<const VarDecl *, 4> Vars{P};
  collectVars(P->getInit(), Vars);
  if (!llvm::all_of(Vars, [&](const VarDecl *V) {
        return V->isLocalVarDeclOrParm() ? stableName(V, Body)
                                         : V->getType().isConstQualified() ||
                                               V->isConstexpr();
      }))
    return false;
  Parts.Base = Init.Base;
  Parts.IndexTerms.insert(Parts.IndexTerms.begin(), Init.IndexTerms.begin(),
                          Init.IndexTerms.end());
  return true;
}

} // namespace distwar
