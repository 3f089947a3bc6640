//===- ReducedCode.cpp - code that already reduces across the warp --------===//

#include "distwar/ReducedCode.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace distwar {

namespace {

/// The name a call is written with, for resolved and dependent calls alike.
std::string calledName(const CallExpr *Call) {
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    return ME->getMemberNameInfo().getAsString();
  if (const auto *DME = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return DME->getMember().getAsString();
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    return ULE->getName().getAsString();
  if (const auto *UME = dyn_cast<UnresolvedMemberExpr>(Callee))
    return UME->getMemberName().getAsString();
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD->getDeclName().getAsString();
  return "";
}

bool isCooperativeGroupsReduce(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (FD && FD->getDeclName().getAsString() == "reduce")
    for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
          NS && NS->getName() == "cooperative_groups")
        return true;
  // Unresolved in a template: `cg::reduce(tile, v, cg::plus<float>())`.
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(
          Call->getCallee()->IgnoreParenImpCasts()))
    if (ULE->getName().getAsString() == "reduce")
      for (const NamedDecl *D : ULE->decls())
        for (const DeclContext *DC = D->getDeclContext(); DC;
             DC = DC->getParent())
          if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
              NS && NS->getName() == "cooperative_groups")
            return true;
  return false;
}

bool isWarpCollectiveName(llvm::StringRef Name) {
  return Name.starts_with("__shfl") || Name.starts_with("__match_") ||
         (Name.starts_with("__reduce_") && Name.ends_with("_sync")) ||
         Name == "shfl" || Name == "shfl_down" || Name == "shfl_up" ||
         Name == "shfl_xor" || Name == "match_any" || Name == "match_all";
}

/// True for the distwar runtime's functions (`::distwar::reduceSerial`...):
/// a helper the tool already batched (an edited header) reduces its own
/// atomics, not the caller's, which stay batchable.
bool isDistwarRuntime(const FunctionDecl *FD) {
  for (const DeclContext *DC = FD ? FD->getDeclContext() : nullptr; DC;
       DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getName() == "distwar" &&
        NS->getParent()->getRedeclContext()->isTranslationUnit())
      return true;
  return false;
}

class CollectiveFinder {
public:
  std::string find(const FunctionDecl *FD, unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    if (!FD || Depth > 6 || !FD->hasBody(Def) || !Def ||
        !Visited.insert(Def).second)
      return "";
    return inStmt(Def->getBody(), Depth);
  }

private:
  std::string inStmt(const Stmt *S, unsigned Depth) {
    if (!S)
      return "";
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (isCooperativeGroupsReduce(Call))
        return "cooperative_groups::reduce";
      std::string Name = calledName(Call);
      if (isWarpCollectiveName(Name))
        return Name;
      // Helpers such as warpReduceSum(v) hide the shuffles.
      if (std::string Inner = isDistwarRuntime(Call->getDirectCallee())
                                  ? ""
                                  : find(Call->getDirectCallee(), Depth + 1);
          !Inner.empty())
        return Inner;
    }
    for (const Stmt *Child : S->children())
      if (std::string Found = inStmt(Child, Depth); !Found.empty())
        return Found;
    return "";
  }

  llvm::DenseSet<const FunctionDecl *> Visited;
};

} // namespace

std::string findWarpCollective(const FunctionDecl *FD) {
  return CollectiveFinder().find(FD, 0);
}

void markAlreadyReduced(std::vector<AtomicSite> &Sites) {
  llvm::DenseMap<const FunctionDecl *, bool> Reduces;
  for (AtomicSite &S : Sites) {
    auto [It, New] = Reduces.try_emplace(S.Function, false);
    if (New)
      It->second = !findWarpCollective(S.Function).empty();
    if (It->second &&
        (S.Why == Reason::None || S.Why == Reason::MacroExpansion))
      S.Why = Reason::AlreadyReduced;
  }
}

} // namespace distwar
