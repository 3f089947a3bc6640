//===- BlockIndexUses.cpp - reads of the block's place in the grid --------===//

#include "Analysis/BlockIndexUses.h"
#include "Analysis/Collectives.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace distwar {

/// The built-in variable \p D names, when it is blockIdx or gridDim.
static std::optional<BlockIndexUse::Kind> builtinKind(const ValueDecl *D) {
  const auto *V = dyn_cast<VarDecl>(D);
  if (!V || !V->hasGlobalStorage() || !V->getIdentifier())
    return std::nullopt;
  return llvm::StringSwitch<std::optional<BlockIndexUse::Kind>>(V->getName())
      .Case("blockIdx", BlockIndexUse::BlockIdx)
      .Case("gridDim", BlockIndexUse::GridDim)
      .Default(std::nullopt);
}

/// The class a cooperative-groups member function belongs to, or "".
static llvm::StringRef groupClassOf(const FunctionDecl *FD) {
  const auto *M = dyn_cast<CXXMethodDecl>(FD);
  if (!M || !inCooperativeGroups(M) || !M->getParent()->getIdentifier())
    return "";
  return M->getParent()->getName();
}

bool isGroupIndexCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && FD->getIdentifier() && FD->getName() == "group_index" &&
         groupClassOf(FD) == "thread_block";
}

bool isBlockShapeQuery(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && FD->getIdentifier() && isGroupAccessor(FD->getName()) &&
         groupClassOf(FD) == "thread_block";
}

bool isGridGroupCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !inCooperativeGroups(FD))
    return false;
  llvm::StringRef Class = groupClassOf(FD);
  if (Class.contains("grid") || Class.contains("cluster"))
    return true;
  llvm::StringRef N = FD->getIdentifier() ? FD->getName() : "";
  return N == "this_grid" || N == "this_multi_grid" || N == "this_cluster";
}

/// The text of \p Asm's template; empty for other forms of inline assembly.
static std::string asmText(const AsmStmt *Asm) {
  if (const auto *G = dyn_cast<GCCAsmStmt>(Asm))
    return G->getAsmString();
  return "";
}

static bool containsAny(llvm::StringRef Text,
                        std::initializer_list<llvm::StringRef> Words) {
  return llvm::any_of(Words,
                      [&](llvm::StringRef W) { return Text.contains(W); });
}

bool asmReadsGridPlace(const AsmStmt *Asm) {
  std::string Text = asmText(Asm);
  return !isa<GCCAsmStmt>(Asm) ||
         containsAny(Text, {"ctaid", "nctaid", "cluster", "gridid"});
}

/// Whether \p Text loads or stores memory that other blocks see (`ld`,
/// `st` of global or generic addresses, other than a non-coherent load).
static bool asmSharesMemory(llvm::StringRef Text) {
  for (size_t At = 0; At + 3 <= Text.size(); ++At) {
    llvm::StringRef Rest = Text.drop_front(At);
    if (!Rest.starts_with("ld") && !Rest.starts_with("st"))
      continue;
    if (At && (isalnum(Text[At - 1]) || Text[At - 1] == '_' ||
               Text[At - 1] == '.' || Text[At - 1] == '%'))
      continue;
    llvm::StringRef Op = Rest.take_until([](char C) { return isspace(C); });
    if (Op != "ld" && Op != "st" && !Op.starts_with("ld.") &&
        !Op.starts_with("st."))
      continue;
    if (Op.contains(".shared") || Op.contains(".local") ||
        Op.contains(".const") || Op.contains(".param") ||
        (Op.starts_with("ld") && Op.contains(".nc")))
      continue;
    return true;
  }
  return false;
}

bool asmMayOrderBlocks(const AsmStmt *Asm) {
  std::string Text = asmText(Asm);
  return !isa<GCCAsmStmt>(Asm) ||
         containsAny(Text,
                     {"atom", "red.", "fence", "membar", "volatile", "acquire",
                      "release", "relaxed", "exit", "bar.", "barrier"}) ||
         asmSharesMemory(Text);
}

namespace {

/// Collects the uses, remembering the innermost lambda around each.
class BlockIndexUseFinder : public RecursiveASTVisitor<BlockIndexUseFinder> {
public:
  bool TraverseLambdaExpr(LambdaExpr *L) {
    Lambdas.push_back(L);
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Lambdas.pop_back();
    return Result;
  }
  bool TraverseParmVarDecl(ParmVarDecl *P) {
    ++InParameter;
    bool Result = RecursiveASTVisitor::TraverseParmVarDecl(P);
    --InParameter;
    return Result;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (std::optional<BlockIndexUse::Kind> K = builtinKind(E->getDecl()))
      add(*K, E);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isGroupIndexCall(Call))
      add(BlockIndexUse::GroupIndex, Call);
    return true;
  }

  std::vector<BlockIndexUse> Uses;

private:
  void add(BlockIndexUse::Kind K, const Expr *E) {
    bool Sees = !InParameter && llvm::all_of(Lambdas, [](const LambdaExpr *L) {
      return L->getCaptureDefault() != LCD_None;
    });
    Uses.push_back({K, E, Lambdas.empty() ? nullptr : Lambdas.back(), Sees});
  }
  std::vector<const LambdaExpr *> Lambdas;
  unsigned InParameter = 0; ///< in a lambda's parameter (a default argument)
};

} // namespace

std::vector<BlockIndexUse> findBlockIndexUses(const Stmt *Body) {
  BlockIndexUseFinder F;
  if (Body)
    F.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(F.Uses);
}

} // namespace distwar
