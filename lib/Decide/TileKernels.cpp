//===- TileKernels.cpp - which kernels --balance=tiles rewrites -----------===//

#include "Decide/TileKernels.h"
#include "Analysis/AstQueries.h"
#include "Decide/TileCosts.h"
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
         Name == "distwar_tile_end" || Name == "distwar_dynamic_tiles" ||
         Name == "distwar_costs" || Name == "distwar_order" ||
         Name.starts_with("distwar_tile_costs") ||
         Name.starts_with("distwar_launch") ||
         Name.starts_with("distwar_kernel");
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

/// A kernel's definition, and whether it lies in a file the pass writes.
struct DefinedKernel {
  const FunctionDecl *Kernel = nullptr;
  bool Writable = false;
};

/// The kernels defined in the user's files, and every expression of the
/// translation unit that names one (outside template instantiations, whose
/// text is their pattern's).
class KernelIndex : public RecursiveASTVisitor<KernelIndex> {
public:
  KernelIndex(const SourceManager &SM, const TileFiles &Files)
      : SM(SM), Files(Files) {}

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->hasAttr<CUDAGlobalAttr>() || F->isTemplateInstantiation())
      return true;
    // Not a kernel of its own: VisitFunctionTemplateDecl counts it as
    // another declaration of its template.
    if (F->getTemplateSpecializationKind() == TSK_ExplicitSpecialization)
      return true;
    const FunctionDecl *Canon = kernelNamed(F);
    FileID File = SM.getFileID(SM.getExpansionLoc(F->getLocation()));
    if (F->doesThisDeclarationHaveABody() && Files.isUserFile(File))
      Kernels.push_back({F, Files.writable(File)});
    else if (!F->isImplicit())
      ++OtherDeclarations[Canon];
    return true;
  }
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *T) {
    if (!T->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>())
      return true;
    unsigned &Others = OtherDeclarations[kernelNamed(T)];
    if (!T->isThisDeclarationADefinition()) {
      ++Others;
      return true;
    }
    // An explicit specialization or instantiation names the kernel's
    // parameters as well, and must keep matching them.
    for (const FunctionDecl *S : T->specializations())
      Others += isTemplateExplicitInstantiationOrSpecialization(
          S->getTemplateSpecializationKind());
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

  std::vector<DefinedKernel> Kernels;
  llvm::DenseMap<const FunctionDecl *, std::vector<const Expr *>> Refs;
  llvm::DenseMap<const FunctionDecl *, unsigned> OtherDeclarations;

private:
  const SourceManager &SM;
  const TileFiles &Files;
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
/// a host function, spelled in one file outside macros, followed by its
/// `;`.
bool wrappableLaunch(ASTContext &Ctx, const CUDAKernelCallExpr *Launch) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = Launch->getBeginLoc(), End = Launch->getEndLoc();
  if (Begin.isMacroID() || End.isMacroID() ||
      SM.getFileID(Begin) != SM.getFileID(End))
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
    // A label, and a name declared outside that the body reads (the
    // rewrite's local would hide it).
    bool VisitLabelStmt(LabelStmt *L) { return VisitNamedDecl(L->getDecl()); }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      return VisitNamedDecl(E->getDecl());
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

/// The bytes of \p Kernel's parameters after the tile loop's own three (a
/// pointer, an unsigned, a dim3), laid out as the parameter space is.
static uint64_t tileParameterBytes(ASTContext &Ctx,
                                   const FunctionDecl *Kernel) {
  uint64_t Offset = 24;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    QualType T = P->getType();
    if (T->isDependentType() || T->isIncompleteType())
      continue;
    const uint64_t Align = Ctx.getTypeAlignInChars(T).getQuantity();
    Offset = llvm::alignTo(Offset, std::max<uint64_t>(Align, 1)) +
             Ctx.getTypeSizeInChars(T).getQuantity();
  }
  return Offset;
}

/// The bytes of the `__shared__` variables of fixed size that \p Kernel's
/// body declares.
static uint64_t staticSharedBytes(ASTContext &Ctx, const FunctionDecl *Kernel) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
    bool VisitVarDecl(VarDecl *V) {
      QualType T = V->getType();
      if (V->hasAttr<CUDASharedAttr>() && !T->isDependentType() &&
          !T->isIncompleteType() && T->isConstantSizeType())
        Bytes += Ctx.getTypeSizeInChars(T).getQuantity();
      return true;
    }
    ASTContext &Ctx;
    uint64_t Bytes = 0;
  } F(Ctx);
  F.TraverseStmt(Kernel->getBody());
  return F.Bytes;
}

/// Whether the tile loop would take \p K past a limit every device has:
/// the parameter space (32,764 bytes), or 48 KiB of static shared memory
/// with the loop's hand-over slots.
static bool pastDeviceLimits(ASTContext &Ctx, const FunctionDecl *K) {
  return tileParameterBytes(Ctx, K) > 32764 ||
         staticSharedBytes(Ctx, K) + 16 > 48 * 1024;
}

/// The reason \p Loc gives, saying \p Text there. Presumed lines: the
/// pass parses the batched text, whose #line directives keep the user's.
static Verdict refusal(const SourceManager &SM, Reason R, SourceLocation Loc,
                       const llvm::Twine &Text) {
  return Verdict(R, presumedPlaceAt(SM, Loc, Text.str()));
}

/// Why \p Kernel's body may not run as tiles, or None; \p Plan gets its
/// block index reads and returns.
static Verdict planBody(ASTContext &Ctx, const FunctionDecl *Kernel,
                        TileKernelPlan &Plan) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (takesTileQueue(Kernel))
    return refusal(SM, Reason::TileAlreadyBalanced, Kernel->getLocation(),
                   "the kernel takes a tile queue");
  if (const NamedDecl *D = clashingName(Kernel))
    return refusal(SM, Reason::NameShadowed, D->getLocation(),
                   "this name is one the rewrite declares");
  for (const BlockIndexUse &U : findBlockIndexUses(Kernel->getBody()))
    if (llvm::none_of(Plan.Uses,
                      [&](const BlockIndexUse &Seen) { return Seen.E == U.E; }))
      Plan.Uses.push_back(U);
  for (const FunctionDecl *Instance : instancesOf(Kernel)) {
    if (Verdict V = tileSafety(Ctx, Instance); V.Code != Reason::None)
      return V;
    if (pastDeviceLimits(Ctx, Instance))
      return refusal(SM, Reason::TileResources, Kernel->getLocation(),
                     "the loop's parameters or shared memory would not fit");
    // A use that only an instantiation resolves (a dependent call) has no
    // counterpart in the pattern's text, which is what the edits change.
    for (const BlockIndexUse &U : findBlockIndexUses(Instance->getBody()))
      if (llvm::none_of(Plan.Uses, [&](const BlockIndexUse &P) {
            return P.E->getBeginLoc() == U.E->getBeginLoc();
          }))
        return refusal(SM, Reason::TileHiddenBlockIndex, U.E->getBeginLoc(),
                       "this read depends on a template argument");
  }
  if (Plan.Uses.empty())
    return Reason::TileNoBlockIndex;
  Plan.Returns = returnsOf(Kernel->getBody());
  for (const ReturnStmt *R : Plan.Returns)
    if (R->getBeginLoc().isMacroID() || R->getEndLoc().isMacroID())
      return refusal(SM, Reason::TileReturnBeforeBarrier, R->getBeginLoc(),
                     "this return is written in a macro");
  return Verdict();
}

/// Whether \p F is, or is nested in, an instance of a template (a member
/// of a lambda of one, say): its text is its pattern's.
static bool inTemplateInstance(const FunctionDecl *F) {
  for (const DeclContext *DC = F; DC; DC = DC->getParent()) {
    if (const auto *Fn = dyn_cast<FunctionDecl>(DC);
        Fn && Fn->isTemplateInstantiation())
      return true;
    if (const auto *R = dyn_cast<CXXRecordDecl>(DC);
        R && (isa<ClassTemplateSpecializationDecl>(R) ||
              R->getInstantiatedFromMemberClass()))
      return true;
  }
  return false;
}

/// The launch whose kernel \p Ref names, or null.
static const CUDAKernelCallExpr *launchNaming(ASTContext &Ctx,
                                              const Expr *Ref) {
  for (const DynTypedNode &P : Ctx.getParents(*Ref))
    if (const auto *Call = P.get<CUDAKernelCallExpr>();
        Call && Call->getCallee()->IgnoreParenImpCasts() == Ref)
      return Call;
  // The callee of a launch may sit under an implicit cast.
  for (const DynTypedNode &P : Ctx.getParents(*Ref))
    if (const auto *Cast = P.get<ImplicitCastExpr>())
      for (const DynTypedNode &G : Ctx.getParents(*Cast))
        if (const auto *Call = G.get<CUDAKernelCallExpr>())
          return Call;
  return nullptr;
}

/// Whether template parameter \p P has a default argument.
static bool hasDefault(const NamedDecl *P) {
  if (const auto *T = dyn_cast<TemplateTypeParmDecl>(P))
    return T->hasDefaultArgument();
  if (const auto *N = dyn_cast<NonTypeTemplateParmDecl>(P))
    return N->hasDefaultArgument();
  return cast<TemplateTemplateParmDecl>(P)->hasDefaultArgument();
}

/// Why \p Launch of \p Kernel, named by \p Callee, cannot name the
/// kernel's instances, or null. Both the size of the launch and the choice
/// of mode take a pointer to the instance it runs: the name must be of one
/// function (no overloads for the arguments to resolve) and its template
/// arguments all written or defaulted (none left to deduce from the
/// arguments).
static const char *whyNoInstanceNamed(const FunctionDecl *Kernel,
                                      const CUDAKernelCallExpr *Launch,
                                      const Expr *Callee) {
  std::optional<WrittenTemplateArgs> Args = writtenTemplateArgs(Callee);
  if (!Args || Launch->getCallee()->IgnoreParenImpCasts() != Callee)
    return "this launch names the kernel through an expression";
  const unsigned Written = Args->Count;
  if (!Kernel->getDeclContext()
           ->getRedeclContext()
           ->lookup(Kernel->getDeclName())
           .isSingleResult())
    return "the kernel's name is overloaded";
  const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate();
  if (!T)
    return nullptr;
  const TemplateParameterList *Params = T->getTemplateParameters();
  if (Params->hasParameterPack() || Written > Params->size() ||
      !llvm::all_of(llvm::drop_begin(Params->asArray(), Written), hasDefault))
    return "this launch deduces the kernel's template arguments";
  return nullptr;
}

/// Whether \p Launch takes a default argument (which a pointer to the
/// kernel does not have).
static bool takesDefaultArgument(const CUDAKernelCallExpr *Launch) {
  return llvm::any_of(Launch->arguments(),
                      [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); });
}

/// Why the references \p Refs to a kernel are not all launches the pass can
/// wrap in files it writes, or None; \p Plan gets the launches.
static Verdict planLaunches(ASTContext &Ctx, const TileFiles &Files,
                            llvm::ArrayRef<const Expr *> Refs,
                            TileKernelPlan &Plan) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const CUDAKernelCallExpr *> InInstances;
  for (const Expr *Ref : Refs) {
    const CUDAKernelCallExpr *Launch = launchNaming(Ctx, Ref);
    if (!Launch)
      return refusal(SM, Reason::TileLaunch, Ref->getBeginLoc(),
                     "the kernel is named here other than in a launch");
    // A host template's instantiation launches it where its pattern does:
    // the text is the pattern's.
    if (const FunctionDecl *Host = enclosingFunction(Ctx, Launch);
        Host && inTemplateInstance(Host)) {
      InInstances.push_back(Launch);
      continue;
    }
    // A launch that does not depend on the template's parameters is one
    // node, reached through the pattern and each instantiation.
    if (llvm::any_of(Plan.Launches, [&](const TileLaunchPlan &Seen) {
          return Seen.Call == Launch;
        }))
      continue;
    FileID File = SM.getFileID(SM.getExpansionLoc(Launch->getBeginLoc()));
    if (TileFileRefusal Not = Files.whyNot(File); Not.Code != Reason::None)
      return refusal(SM, Not.Code, Launch->getBeginLoc(),
                     "this launch is in " + Not.What);
    if (!wrappableLaunch(Ctx, Launch))
      return refusal(SM, Reason::TileLaunch, Launch->getBeginLoc(),
                     "this launch is not a statement the rewrite can wrap");
    if (const char *Why = whyNoInstanceNamed(Plan.Kernel, Launch, Ref))
      return refusal(SM, Reason::TileLaunch, Launch->getBeginLoc(), Why);
    Plan.Launches.push_back(
        {Launch, Ref, Plan.ModeParameter && !takesDefaultArgument(Launch)});
  }
  // Each instance's launch must be its pattern's, which the edits wrap:
  // one the pattern does not show as a launch (a generic lambda's, whose
  // pattern resolves no call) would name the kernel as it no longer is.
  for (const CUDAKernelCallExpr *Launch : InInstances)
    if (llvm::none_of(Plan.Launches, [&](const TileLaunchPlan &P) {
          return P.Call->getBeginLoc() == Launch->getBeginLoc();
        }))
      return refusal(SM, Reason::TileLaunch, Launch->getBeginLoc(),
                     "this launch is only seen in a template's instance");
  if (Plan.Launches.empty())
    return refusal(SM, Reason::TileLaunch, Plan.Kernel->getLocation(),
                   "no launch of the kernel in this translation unit");
  return Verdict();
}

/// Whether \p Launch can draw the tiles of \p Plan heaviest first: it
/// names the kernel as declared, chooses its instance (the pointer to which
/// gives its arguments' types), follows the kernel's definition (after which
/// the cost kernel is defined), and its arguments' text can be moved to
/// declarations of their own, where no temporary of theirs dies before the
/// launch.
static bool canOrder(const SourceManager &SM, const TileKernelPlan &Plan,
                     const TileLaunchPlan &Launch) {
  // The cost kernel is named as the launch names the kernel: a name a
  // using-declaration brought in brings in the kernel alone.
  const Expr *Name = Launch.Callee->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Name);
      Ref && isa<UsingShadowDecl>(Ref->getFoundDecl()))
    return false;
  if (const auto *Overloads = dyn_cast<OverloadExpr>(Name))
    if (llvm::any_of(Overloads->decls(), [](const NamedDecl *D) {
          return isa<UsingShadowDecl>(D);
        }))
      return false;
  if (!Launch.ChoosesInstance ||
      !SM.isBeforeInTranslationUnit(Plan.Kernel->getBody()->getEndLoc(),
                                    Launch.Call->getBeginLoc()))
    return false;
  return llvm::all_of(Launch.Call->arguments(), [&](const Expr *Arg) {
    return isMovableText(SM, Arg->getSourceRange()) &&
           !holdsDestroyedTemporary(Arg);
  });
}

/// The order of \p Plan's tiles: its cost, and which launches draw them
/// heaviest first.
static void planOrder(ASTContext &Ctx, TileKernelPlan &Plan) {
  Plan.Cost = findTileCost(Ctx, Plan);
  if (!Plan.Cost)
    return;
  for (TileLaunchPlan &Launch : Plan.Launches)
    Launch.Ordered = canOrder(Ctx.getSourceManager(), Plan, Launch);
}

/// The plan of one kernel of a file the pass writes: its reason, or its
/// uses and launches.
static TileKernelPlan planKernel(ASTContext &Ctx, const TileFiles &Files,
                                 const TileErrors *Errors,
                                 const FunctionDecl *Kernel,
                                 llvm::ArrayRef<const Expr *> Refs,
                                 unsigned OtherDeclarations) {
  TileKernelPlan Plan;
  Plan.Kernel = Kernel;
  // A template must have C++ linkage.
  Plan.ModeParameter = !Kernel->isExternC() && !Kernel->isInExternCContext();
  // What Clang could not parse first: the analyses below read the AST.
  if (Errors)
    Plan.Why = Errors->verdict(Kernel, Refs);
  // Another declaration first: the analyses would read its body as one of
  // the kernel's instances.
  if (Plan.Why == Reason::None && OtherDeclarations)
    Plan.Why =
        refusal(Ctx.getSourceManager(), Reason::TileLaunch,
                Kernel->getLocation(), "the kernel is declared elsewhere too");
  if (Plan.Why == Reason::None)
    Plan.Why = planBody(Ctx, Kernel, Plan);
  if (Plan.Why == Reason::None)
    Plan.Why = planLaunches(Ctx, Files, Refs, Plan);
  if (Plan.Why == Reason::None)
    planOrder(Ctx, Plan);
  if (Plan.Why != Reason::None) {
    // A kernel left as written has nothing for the edits.
    Plan.Uses.clear();
    Plan.Launches.clear();
    Plan.Returns.clear();
  }
  return Plan;
}

/// Whether one of \p Refs lies in a file of \p Files.
static bool namedInWrittenFile(const SourceManager &SM, const TileFiles &Files,
                               llvm::ArrayRef<const Expr *> Refs) {
  return llvm::any_of(Refs, [&](const Expr *Ref) {
    return Files.writable(SM.getFileID(SM.getExpansionLoc(Ref->getBeginLoc())));
  });
}

TilePlan planTiles(ASTContext &Ctx, const TileFiles &Files,
                   const TileErrors *Errors) {
  const SourceManager &SM = Ctx.getSourceManager();
  KernelIndex Index(SM, Files);
  Index.TraverseDecl(Ctx.getTranslationUnitDecl());
  TilePlan Plan;
  for (const DefinedKernel &Defined : Index.Kernels) {
    const FunctionDecl *Kernel = Defined.Kernel;
    const FunctionDecl *Canon = kernelNamed(Kernel);
    const std::vector<const Expr *> Refs = Index.Refs.lookup(Canon);
    if (Defined.Writable) {
      Plan.Kernels.push_back(planKernel(Ctx, Files, Errors, Kernel, Refs,
                                        Index.OtherDeclarations.lookup(Canon)));
      continue;
    }
    // A kernel of a header the pass does not write: reported where the
    // files it writes name it, else not the pass's business.
    if (!namedInWrittenFile(SM, Files, Refs))
      continue;
    TileFileRefusal Not =
        Files.whyNot(SM.getFileID(SM.getExpansionLoc(Kernel->getLocation())));
    assert(Not.Code != Reason::None && "a file not written says why");
    TileKernelPlan K;
    K.Kernel = Kernel;
    K.Why = refusal(SM, Not.Code, Kernel->getLocation(),
                    "the kernel is defined in " + Not.What);
    Plan.Kernels.push_back(std::move(K));
  }
  return Plan;
}

TilePlan planTiles(ASTContext &Ctx) {
  return planTiles(Ctx, TileFiles(Ctx.getSourceManager()));
}

} // namespace distwar
