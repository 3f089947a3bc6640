//===- TileKernels.cpp - which kernels --balance=tiles rewrites -----------===//

#include "Decide/TileKernels.h"
#include "Analysis/AstQueries.h"
#include "Decide/TileSafety.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace distwar {

bool isTileRewriteName(llvm::StringRef Name) {
  return Name == "distwar_queue" || Name == "distwar_tiles" ||
         Name == "distwar_grid" || Name == "distwar_tile" ||
         Name == "distwar_blockIdx" || Name == "distwar_tile_cursor" ||
         Name == "distwar_tile_end" || Name.starts_with("distwar_launch");
}

namespace {

/// The kernel a reference names: a template's pattern for its
/// specialisations, the canonical declaration otherwise.
const FunctionDecl *kernelNamed(const NamedDecl *D) {
  D = D->getUnderlyingDecl();
  if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
    D = T->getTemplatedDecl();
  const auto *F = dyn_cast<FunctionDecl>(D);
  if (!F)
    return nullptr;
  if (const FunctionTemplateDecl *T = F->getPrimaryTemplate())
    F = T->getTemplatedDecl();
  return F->getCanonicalDecl();
}

/// The kernels defined in the main file, and every expression of the
/// translation unit that names one (outside template instantiations, whose
/// text is their pattern's).
class KernelIndex : public RecursiveASTVisitor<KernelIndex> {
public:
  explicit KernelIndex(const SourceManager &SM) : SM(SM) {}

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->hasAttr<CUDAGlobalAttr>())
      return true;
    const FunctionDecl *Canon = kernelNamed(F);
    if (F->doesThisDeclarationHaveABody() &&
        SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation())) &&
        !F->isTemplateInstantiation())
      Kernels.push_back(F);
    else if (!F->isTemplateInstantiation() && !F->isImplicit())
      ++OtherDeclarations[Canon];
    return true;
  }
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *T) {
    if (!T->isThisDeclarationADefinition() &&
        T->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>())
      ++OtherDeclarations[kernelNamed(T)];
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const FunctionDecl *K = kernelNamed(E->getDecl()))
      Refs[K].push_back(E);
    return true;
  }
  bool VisitOverloadExpr(OverloadExpr *E) {
    for (const NamedDecl *D : E->decls())
      if (const FunctionDecl *K = kernelNamed(D))
        Refs[K].push_back(E);
    return true;
  }

  std::vector<const FunctionDecl *> Kernels;
  llvm::DenseMap<const FunctionDecl *, std::vector<const Expr *>> Refs;
  llvm::DenseMap<const FunctionDecl *, unsigned> OtherDeclarations;

private:
  const SourceManager &SM;
};

/// The host function that holds \p S, or null.
const FunctionDecl *enclosingFunction(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    if (const auto *F = Parents[0].get<FunctionDecl>())
      return F;
    if (Parents[0].get<LambdaExpr>())
      return nullptr; // a launch in a lambda: not followed
    Parents = Ctx.getParents(Parents[0]);
  }
  return nullptr;
}

/// Whether \p Launch is a statement of its own that a block may replace: in
/// a host function, spelled in the main file outside macros, followed by
/// its `;`.
bool wrappableLaunch(ASTContext &Ctx, const CUDAKernelCallExpr *Launch) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = Launch->getBeginLoc(), End = Launch->getEndLoc();
  if (Begin.isMacroID() || End.isMacroID() || !SM.isWrittenInMainFile(Begin))
    return false;
  const Stmt *Self = Launch;
  DynTypedNodeList Parents = Ctx.getParents(*Launch);
  if (!Parents.empty())
    if (const auto *EWC = Parents[0].get<ExprWithCleanups>()) {
      Self = EWC;
      Parents = Ctx.getParents(*EWC);
    }
  if (Parents.empty())
    return false;
  const Stmt *P = Parents[0].get<Stmt>();
  bool Statement =
      P && (isa<CompoundStmt>(P) ||
            (isa<IfStmt>(P) && cast<IfStmt>(P)->getCond() != Self) ||
            (isa<ForStmt, WhileStmt, DoStmt>(P) && loopBody(P) == Self));
  if (!Statement)
    return false;
  const FunctionDecl *F = enclosingFunction(Ctx, Launch);
  if (!F || F->hasAttr<CUDAGlobalAttr>() ||
      (F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>()))
    return false;
  std::optional<Token> Semi = Lexer::findNextToken(End, SM, Ctx.getLangOpts());
  return Semi && Semi->is(tok::semi) && !Semi->getLocation().isMacroID();
}

/// The instances whose bodies run: a template's instantiations (its
/// pattern when it has none), or the kernel itself.
std::vector<const FunctionDecl *> instancesOf(const FunctionDecl *Kernel) {
  const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate();
  if (!T)
    return {Kernel};
  std::vector<const FunctionDecl *> Out;
  for (const FunctionDecl *S : T->specializations())
    if (S->getBody())
      Out.push_back(S);
  if (Out.empty())
    Out.push_back(Kernel);
  return Out;
}

/// A parameter or local of \p Kernel whose name the rewrite would declare.
const NamedDecl *clashingName(const FunctionDecl *Kernel) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool VisitNamedDecl(NamedDecl *D) {
      if (!Found && D->getIdentifier() && isTileRewriteName(D->getName()))
        Found = D;
      return true;
    }
    const NamedDecl *Found = nullptr;
  } F;
  for (const ParmVarDecl *P : Kernel->parameters())
    F.VisitNamedDecl(const_cast<ParmVarDecl *>(P));
  F.TraverseStmt(Kernel->getBody());
  return F.Found;
}

bool takesTileQueue(const FunctionDecl *Kernel) {
  return llvm::any_of(Kernel->parameters(), [](const ParmVarDecl *P) {
    return llvm::StringRef(P->getType().getAsString()).contains("TileQueue");
  });
}

} // namespace

/// The plan of one kernel: its reason, or its uses and launches.
static TileKernelPlan planKernel(ASTContext &Ctx, const FunctionDecl *Kernel,
                                 llvm::ArrayRef<const Expr *> Refs,
                                 unsigned OtherDeclarations) {
  const SourceManager &SM = Ctx.getSourceManager();
  TileKernelPlan Plan;
  Plan.Kernel = Kernel;
  auto Refuse = [&](Reason R, SourceLocation Loc, llvm::StringRef Text) {
    Plan.Why = Verdict(R, placeAt(SM, Loc, Text));
    return Plan;
  };
  if (takesTileQueue(Kernel))
    return Refuse(Reason::TileAlreadyBalanced, Kernel->getLocation(),
                  "the kernel takes a tile queue");
  if (const NamedDecl *D = clashingName(Kernel))
    return Refuse(Reason::NameShadowed, D->getLocation(),
                  "this name is one the rewrite declares");
  for (const BlockIndexUse &U : findBlockIndexUses(Kernel->getBody()))
    if (llvm::none_of(Plan.Uses,
                      [&](const BlockIndexUse &Seen) { return Seen.E == U.E; }))
      Plan.Uses.push_back(U);
  for (const FunctionDecl *Instance : instancesOf(Kernel)) {
    if (Verdict V = tileSafety(Ctx, Instance); V.Code != Reason::None) {
      Plan.Why = V;
      return Plan;
    }
    // A use that only an instantiation resolves (a dependent call) has no
    // counterpart in the pattern's text, which is what the edits change.
    for (const BlockIndexUse &U : findBlockIndexUses(Instance->getBody()))
      if (llvm::none_of(Plan.Uses, [&](const BlockIndexUse &P) {
            return P.E->getBeginLoc() == U.E->getBeginLoc();
          }))
        return Refuse(Reason::TileHiddenBlockIndex, U.E->getBeginLoc(),
                      "this read depends on a template argument");
  }
  if (Plan.Uses.empty()) {
    Plan.Why = Reason::TileNoBlockIndex;
    return Plan;
  }
  Plan.Returns = returnsOf(Kernel->getBody());
  for (const ReturnStmt *R : Plan.Returns)
    if (R->getBeginLoc().isMacroID() || R->getEndLoc().isMacroID())
      return Refuse(Reason::TileReturnBeforeBarrier, R->getBeginLoc(),
                    "this return is written in a macro");
  if (OtherDeclarations)
    return Refuse(Reason::TileLaunch, Kernel->getLocation(),
                  "the kernel is declared elsewhere too");
  for (const Expr *Ref : Refs) {
    const CUDAKernelCallExpr *Launch = nullptr;
    for (const DynTypedNode &P : Ctx.getParents(*Ref))
      if (const auto *Call = P.get<CUDAKernelCallExpr>();
          Call && Call->getCallee()->IgnoreParenImpCasts() == Ref)
        Launch = Call;
    if (!Launch) {
      // The callee of a launch may sit under an implicit cast.
      for (const DynTypedNode &P : Ctx.getParents(*Ref))
        if (const auto *Cast = P.get<ImplicitCastExpr>())
          for (const DynTypedNode &G : Ctx.getParents(*Cast))
            if (const auto *Call = G.get<CUDAKernelCallExpr>())
              Launch = Call;
    }
    if (!Launch)
      return Refuse(Reason::TileLaunch, Ref->getBeginLoc(),
                    "the kernel is named here other than in a launch");
    if (!wrappableLaunch(Ctx, Launch))
      return Refuse(Reason::TileLaunch, Launch->getBeginLoc(),
                    "this launch is not a statement the rewrite can wrap");
    Plan.Launches.push_back(Launch);
  }
  if (Plan.Launches.empty())
    return Refuse(Reason::TileLaunch, Kernel->getLocation(),
                  "no launch of the kernel in this file");
  return Plan;
}

TilePlan planTiles(ASTContext &Ctx) {
  KernelIndex Index(Ctx.getSourceManager());
  Index.TraverseDecl(Ctx.getTranslationUnitDecl());
  TilePlan Plan;
  for (const FunctionDecl *Kernel : Index.Kernels) {
    const FunctionDecl *Canon = kernelNamed(Kernel);
    Plan.Kernels.push_back(planKernel(Ctx, Kernel, Index.Refs.lookup(Canon),
                                      Index.OtherDeclarations.lookup(Canon)));
  }
  return Plan;
}

} // namespace distwar
