//===- BlockScope.cpp - may a group accumulate per thread block? ----------===//

#include "Decide/BlockScope.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Collectives.h"
#include "Decide/RegionChecker.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace distwar {
namespace {

/// The innermost statement of \p S that may reach a block barrier (the
/// call or asm statement), or null.
const Stmt *barrierIn(const Stmt *S) {
  if (!S || !mayReachBlockBarrier(S))
    return nullptr;
  for (const Stmt *Child : S->children())
    if (const Stmt *Found = barrierIn(Child))
      return Found;
  return S;
}

/// The first declaration of a body that a lambda around the body would
/// change: a __shared__ or static variable (its storage is the kernel's,
/// not the lambda's, in nvcc's model and ours), a type or a
/// using-declaration (names the rebuilt addresses read at the kernel's
/// start would mean something else).
class MovedDeclFinder : public RecursiveASTVisitor<MovedDeclFinder> {
public:
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitDecl(Decl *D) {
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (hasStorageBeyondCall(V))
        Found = D;
    } else if (!isa<LabelDecl, ParmVarDecl>(D)) {
      Found = D;
    }
    return !Found;
  }

  const Decl *Found = nullptr;
};

/// A `__shared__` variable declared in a function \p S calls (to depth 8),
/// or null: its shared memory adds to the tables'.
const VarDecl *sharedInCallees(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 8)
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Def = nullptr;
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->hasBody(Def) && Def) {
      MovedDeclFinder Finder;
      Finder.TraverseStmt(Def->getBody());
      if (const auto *V = dyn_cast_or_null<VarDecl>(Finder.Found);
          V && V->hasAttr<CUDASharedAttr>())
        return V;
      if (const VarDecl *V = sharedInCallees(Def->getBody(), Depth + 1))
        return V;
    }
  }
  for (const Stmt *Child : S->children())
    if (const VarDecl *V = sharedInCallees(Child, Depth))
      return V;
  return nullptr;
}

bool isSharedAtomicType(QualType T) {
  const auto *B = T.getCanonicalType()->getAs<BuiltinType>();
  if (!B)
    return false;
  switch (B->getKind()) {
  case BuiltinType::Float:
  case BuiltinType::Double:
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::ULongLong:
    return true;
  default:
    return false;
  }
}

} // namespace

Verdict blockScopeReason(const FunctionDecl *Kernel) {
  if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>() ||
      !isa_and_nonnull<CompoundStmt>(Kernel->getBody()))
    return Reason::BlockNotKernel;
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  if (const Stmt *Barrier = barrierIn(Kernel->getBody()))
    return {Reason::BlockBarrier,
            placeAt(SM, Barrier->getBeginLoc(),
                    isa<AsmStmt>(Barrier)
                        ? "inline asm may wait at a barrier"
                        : "this call may wait at a barrier of the block")};
  MovedDeclFinder Finder;
  Finder.TraverseStmt(Kernel->getBody());
  if (Finder.Found)
    return {Reason::BlockDeclarations,
            placeAt(SM, Finder.Found->getBeginLoc(),
                    "this declaration would move into a lambda")};
  if (const VarDecl *Shared = sharedInCallees(Kernel->getBody()))
    return {Reason::BlockDeclarations,
            placeAt(SM, Shared->getBeginLoc(),
                    "a called function's shared memory adds to the tables'")};
  return Reason::None;
}

Verdict deferralReason(const std::vector<AtomicSite> &Sites, const SiteGroup &G,
                       llvm::ArrayRef<const Stmt *> Region) {
  llvm::DenseSet<const VarDecl *> Buffers;
  for (size_t I : G.Sites)
    Buffers.insert(Sites[I].Buffer);
  RegionChecker Checker(Sites, std::move(Buffers), G.Function);
  for (size_t I : G.Sites)
    if (Sites[I].BufferField)
      Checker.addField(Sites[I].BufferField);
  for (const Stmt *S : Region)
    if (Verdict Why = Checker.check(S); Why != Reason::None)
      return Why;
  return Reason::None;
}

Verdict blockDeferralReason(const std::vector<AtomicSite> &Sites,
                            const SiteGroup &G) {
  return deferralReason(Sites, G, {G.Function->getBody()});
}

Reason blockGroupReason(const std::vector<AtomicSite> &Sites,
                        const SiteGroup &G, llvm::StringRef SizeText) {
  const AtomicSite &First = Sites[G.Sites.front()];
  if (!G.Function || !G.Function->hasAttr<CUDAGlobalAttr>())
    return Reason::BlockNotKernel;
  if (First.KeyIsBuffer || !First.Key || First.Key->isTypeDependent() ||
      !First.Key->getType()->isIntegerType() ||
      First.Key->getType()->isEnumeralType() ||
      First.Key->getType()->isBooleanType())
    return Reason::BlockAddress;
  if (!isSharedAtomicType(First.Call->getArg(1)->getType()) ||
      First.Call->getArg(1)->isTypeDependent())
    return Reason::BlockAddress;
  unsigned Size = 0;
  if (SizeText.getAsInteger(10, Size) || Size == 0)
    return Reason::BlockAddress;
  return Reason::None;
}

} // namespace distwar
