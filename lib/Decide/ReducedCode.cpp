//===- ReducedCode.cpp - code that already reduces across the warp --------===//

#include "Decide/ReducedCode.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VarWrites.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
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

bool isShuffleName(llvm::StringRef Name) {
  return Name.starts_with("__shfl") || Name == "shfl" ||
         Name == "shfl_down" || Name == "shfl_up" || Name == "shfl_xor";
}

/// True when \p S names \p V.
bool mentions(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == V)
    return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return mentions(C, V); });
}

/// True when \p Body combines \p Into with \p From: `Into += ...From...`,
/// `Into = ... + From ...`, `Into = f(Into, From)`.
bool combines(const Stmt *Body, const VarDecl *Into, const VarDecl *From) {
  if (!Body)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(Body);
      BO && BO->isAssignmentOp() && referencedVar(BO->getLHS()) == Into &&
      mentions(BO->getRHS(), From) &&
      (BO->isCompoundAssignmentOp() || mentions(BO->getRHS(), Into)))
    return true;
  return llvm::any_of(Body->children(), [&](const Stmt *C) {
    return combines(C, Into, From);
  });
}

/// Walks a function (and the functions it calls) for a reduction across the
/// warp: a shuffle whose result is combined with the value it shuffled
/// (`v += __shfl_down_sync(m, v, o)`, or through a local), a match or warp
/// reduce, or cooperative groups' reduce. A shuffle that only passes a
/// value along (`T = __shfl_up_sync(m, T, 1)`) reduces nothing.
class CollectiveFinder {
public:
  std::string find(const FunctionDecl *FD, unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    if (!FD || Depth > 6 || !FD->hasBody(Def) || !Def ||
        !Visited.insert(Def).second)
      return "";
    const Stmt *Saved = Body;
    Body = Def->getBody();
    std::string Found = inStmt(Def->getBody(), nullptr, Depth);
    Body = Saved;
    return Found;
  }

  /// The call in the function given to find() that reduces, itself or
  /// through the functions it calls; null when there is none.
  const CallExpr *outermostCall() const { return Outermost; }

private:
  std::string inStmt(const Stmt *S, const Stmt *Parent, unsigned Depth) {
    if (!S)
      return "";
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (std::string Found = inCall(Call, Parent, Depth); !Found.empty()) {
        if (Depth == 0)
          Outermost = Call;
        return Found;
      }
    for (const Stmt *Child : S->children())
      if (std::string Found = inStmt(Child, S, Depth); !Found.empty())
        return Found;
    return "";
  }

  /// The collective \p Call is or reaches through its callee, or "".
  std::string inCall(const CallExpr *Call, const Stmt *Parent,
                     unsigned Depth) {
    if (isCooperativeGroupsReduce(Call))
      return "cooperative_groups::reduce";
    std::string Name = calledName(Call);
    if (isShuffleName(Name) ? shuffleReduces(Call, Parent)
                            : isWarpCollectiveName(Name))
      return Name;
    // Helpers such as warpReduceSum(v) hide the shuffles.
    if (isDistwarRuntime(Call->getDirectCallee()))
      return "";
    return find(Call->getDirectCallee(), Depth + 1);
  }

  /// Whether the shuffle \p Call (whose parent is \p Parent) feeds a sum:
  /// its result is combined with the variable it shuffles, directly or
  /// through the local it initialises or is assigned to.
  bool shuffleReduces(const CallExpr *Call, const Stmt *Parent) {
    const VarDecl *Source =
        Call->getNumArgs() >= 2 ? rootVariable(Call->getArg(1)) : nullptr;
    if (!Source)
      return true; // cannot tell: as before, a collective
    const VarDecl *Result = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(Parent);
        DS && DS->isSingleDecl())
      Result = dyn_cast<VarDecl>(DS->getSingleDecl());
    else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent);
             BO && BO->getOpcode() == BO_Assign)
      Result = referencedVar(BO->getLHS());
    if (Result == Source)
      return false; // passed along, not summed
    if (Result)
      return combines(Body, Source, Result);
    // Used in place: `v += shfl(v)`, `v = v + shfl(v)`, `fmaxf(v, shfl(v))`.
    return true;
  }

  llvm::DenseSet<const FunctionDecl *> Visited;
  const Stmt *Body = nullptr;
  const CallExpr *Outermost = nullptr;
};

/// An expression every lane of a warp evaluates to its own value: a thread
/// index, cooperative groups' thread_rank(), those modulo or masked by a
/// constant, or a local initialised with one.
bool isLaneIndex(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParenCasts();
  if (const VarDecl *Builtin = builtinVar(E))
    return Builtin->getName() == "threadIdx";
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return calledName(Call) == "thread_rank";
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->getOpcode() == BO_Rem || BO->getOpcode() == BO_And) &&
           isLaneIndex(BO->getLHS(), Depth + 1);
  if (const VarDecl *V = referencedVar(E)) {
    const auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
    return V->isLocalVarDecl() && V->getInit() && F &&
           !findWrite(F->getBody(), V, /*Through=*/false) &&
           isLaneIndex(V->getInit(), Depth + 1);
  }
  return false;
}

/// `X == 0`, `0 == X` or `!X` with X a lane index, among the conjuncts of
/// \p Cond: only one lane of each warp (or block) takes the branch.
bool selectsOneLane(const Expr *Cond) {
  llvm::SmallVector<const Expr *, 4> Terms;
  flattenAnd(Cond, Terms);
  for (const Expr *T : Terms) {
    T = T->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(T);
        UO && UO->getOpcode() == UO_LNot && isLaneIndex(UO->getSubExpr()))
      return true;
    const auto *BO = dyn_cast<BinaryOperator>(T);
    if (!BO || BO->getOpcode() != BO_EQ)
      continue;
    auto IsZero = [](const Expr *X) {
      const auto *L = dyn_cast<IntegerLiteral>(X->IgnoreParenImpCasts());
      return L && L->getValue() == 0;
    };
    if ((IsZero(BO->getRHS()) && isLaneIndex(BO->getLHS())) ||
        (IsZero(BO->getLHS()) && isLaneIndex(BO->getRHS())))
      return true;
  }
  return false;
}

/// Whether site \p S runs only in one lane per warp or block (`if (lane ==
/// 0)`, `if (tid == 0)`): its values are combined already.
bool inOneLane(const AtomicSite &S) {
  const Stmt *Child = S.Call;
  for (const Stmt *A : S.Ancestors) {
    if (const auto *If = dyn_cast<IfStmt>(A);
        If && Child == If->getThen() && selectsOneLane(If->getCond()))
      return true;
    Child = A;
  }
  return false;
}

/// Adds to \p Out the variables through which \p E reads memory (`*p`,
/// `p[i]`, `p->f`; loadedPointer).
void collectReadsThrough(const Stmt *E, llvm::DenseSet<const VarDecl *> &Out) {
  if (!E)
    return;
  if (const Expr *Through = loadedPointer(E))
    if (const VarDecl *V = rootVariable(Through))
      Out.insert(V);
  for (const Stmt *Child : E->children())
    collectReadsThrough(Child, Out);
}

/// The variable \p Addr points through (`p`, `&p[2]`, `&s.f`), or null.
const VarDecl *addressRoot(const Expr *Addr) {
  Addr = Addr->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Addr);
      UO && UO->getOpcode() == UO_AddrOf)
    return rootVariable(UO->getSubExpr());
  return rootVariable(Addr);
}

/// Reasons that say only how the site looks (or that its kind of atomic is
/// not batched, such as a system-scope add); an already reduced function is
/// left alone for a better reason.
bool isFormReason(Reason R) {
  switch (R) {
  case Reason::None:
  case Reason::UnsupportedAtomic:
  case Reason::MacroExpansion:
  case Reason::MacroNotStatements:
  case Reason::AddressNotDecomposed:
  case Reason::BufferNotUniform:
  case Reason::KeyNotIntegral:
  case Reason::KeyHasSideEffects:
  case Reason::ChannelLoopUnsupported:
  case Reason::UnsupportedType:
  case Reason::DependentElementType:
    return true;
  default:
    return false;
  }
}

} // namespace

const CallExpr *findWarpReduction(const FunctionDecl *FD) {
  CollectiveFinder Finder;
  return Finder.find(FD, 0).empty() ? nullptr : Finder.outermostCall();
}

/// Whether \p S lies at or after \p Reduction in its function's text: the
/// value it adds may be a reduced one. A site before it (a plain per-lane
/// add in a kernel that reduces other values later) keeps its own reason.
static bool follows(const AtomicSite &S, const CallExpr *Reduction) {
  const SourceManager &SM = S.Function->getASTContext().getSourceManager();
  return !SM.isBeforeInTranslationUnit(
      SM.getExpansionLoc(S.Call->getBeginLoc()),
      SM.getExpansionLoc(Reduction->getBeginLoc()));
}

void markAlreadyReduced(std::vector<AtomicSite> &Sites) {
  // A one-lane atomic that adds what the other lanes accumulated
  // (`if (threadIdx.x == 0) atomicAdd(out, *count)`): the function reduces
  // across its block by hand, and the atomics into what it reads back are
  // that reduction's first step.
  llvm::DenseMap<const FunctionDecl *, llvm::DenseSet<const VarDecl *>>
      ReadBack;
  for (const AtomicSite &S : Sites)
    if (inOneLane(S))
      collectReadsThrough(S.Call->getArg(1), ReadBack[S.Function]);
  llvm::DenseMap<const FunctionDecl *, const CallExpr *> Reductions;
  for (AtomicSite &S : Sites) {
    if (auto R = ReadBack.find(S.Function);
        S.Why == Reason::None && R != ReadBack.end() &&
        R->second.contains(addressRoot(S.Call->getArg(0)))) {
      S.Why = Reason::AlreadyReduced;
      continue;
    }
    auto [It, New] = Reductions.try_emplace(S.Function, nullptr);
    if (New)
      It->second = findWarpReduction(S.Function);
    // A batchable site of such a function is left to its author; a site
    // refused for its form is reduced only where a reduction precedes it.
    bool Reduced = It->second && (S.Why == Reason::None ||
                                  follows(S, It->second));
    if ((Reduced || inOneLane(S)) && isFormReason(S.Why))
      S.Why = Reason::AlreadyReduced;
  }
}

} // namespace distwar
