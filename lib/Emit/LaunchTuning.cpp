//===- LaunchTuning.cpp - wrap the launches of kernels with sites ---------===//
//
// A launch statement `k<<<...>>>(...);` in a host function of the main file
// becomes (GENERATED_CODE.md, section 9), on its own lines:
//
//   { static ::distwar::LaunchTuner distwar_tuner0("k", {{&table, "k#0"}});
//   ::distwar::LaunchTicket distwar_ticket0 = distwar_tuner0.begin(STREAM);
//   k<<<...>>>(...); distwar_tuner0.end(distwar_ticket0); }
//
// when k reaches batched sites: its own, or those of the device functions it
// calls, through any depth of calls resolved in this file.
//
//===----------------------------------------------------------------------===//

#include "Emit/LaunchTuning.h"
#include "Analysis/AstQueries.h"
#include "Emit/SiteTableNames.h"
#include "distwar-rewrite/HeaderFilter.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace clang;
using namespace clang::ast_matchers;

namespace distwar {
namespace {

/// One site a launch reads: its table identifier and its name.
struct SiteRef {
  std::string Table;
  std::string Name;
  bool Block = false; ///< the launch may tune it to the block strategy
  bool Forms = false; ///< the launch may tune it to the serial form
  bool operator==(const SiteRef &O) const {
    return Table == O.Table && Name == O.Name;
  }
};

/// The function \p FD instantiates (or \p FD), canonical: what a group's
/// Function is compared with.
const FunctionDecl *patternOf(const FunctionDecl *FD) {
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  return FD->getCanonicalDecl();
}

/// The batched sites each function reaches, through the calls of its body.
class Reachability {
public:
  Reachability(ASTContext &Ctx, const RewritePlan &Plan,
               llvm::StringRef FilePath, const EditableHeaders &Headers)
      : Ctx(Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const GroupPlan &P : Plan.Groups) {
      const SiteGroup &G = *P.Group;
      if (!P.batched() || P.Name.empty() || !G.Function)
        continue;
      FileID File = SM.getFileID(SM.getExpansionLoc(G.Function->getLocation()));
      std::string Table;
      if (File == SM.getMainFileID())
        Table = siteTableName(FilePath);
      else if (auto It = Headers.find(File); It != Headers.end())
        Table = siteTableIdentifier(It->second);
      else
        continue;
      Own[patternOf(G.Function)].push_back(
          {Table, P.Name, P.Kind == Strategy::Block, P.SerialForm});
    }
  }

  /// Every site \p Kernel reaches, its own first, without repeats.
  std::vector<SiteRef> from(const FunctionDecl *Kernel) {
    std::vector<SiteRef> Out;
    llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
    visit(Kernel, Seen, Out);
    return Out;
  }

private:
  void visit(const FunctionDecl *F,
             llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
             std::vector<SiteRef> &Out) {
    if (!F || !Seen.insert(F->getCanonicalDecl()).second)
      return;
    if (auto It = Own.find(patternOf(F)); It != Own.end())
      for (const SiteRef &S : It->second)
        if (!llvm::is_contained(Out, S))
          Out.push_back(S);
    // An instantiation's body has its calls resolved; a function only
    // declared here has none to follow.
    const FunctionDecl *Definition = nullptr;
    if (!F->hasBody(Definition)) {
      const FunctionDecl *P = F->getTemplateInstantiationPattern();
      if (!P || !P->hasBody(Definition))
        return;
    }
    for (const BoundNodes &B :
         match(findAll(callExpr().bind("call")), *Definition->getBody(), Ctx))
      visit(B.getNodeAs<CallExpr>("call")->getDirectCallee(), Seen, Out);
  }

  ASTContext &Ctx;
  std::map<const FunctionDecl *, std::vector<SiteRef>> Own;
};

/// \p K as a whole statement (through implicit wrappers), or null when it is
/// part of a larger expression or a place where a block cannot stand.
const Stmt *launchStatement(ASTContext &Ctx, const CUDAKernelCallExpr *K) {
  const Stmt *S = K;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    if (Parents.size() != 1)
      return nullptr;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return nullptr;
    if (isa<ExprWithCleanups, ConstantExpr>(P)) {
      S = P;
      continue;
    }
    if (isa<CompoundStmt>(P))
      return S;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getThen() == S || If->getElse() == S ? S : nullptr;
    if (isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(P))
      return loopBody(P) == S ? S : nullptr;
    if (const auto *Label = dyn_cast<LabelStmt>(P))
      return Label->getSubStmt() == S ? S : nullptr;
    if (const auto *Case = dyn_cast<SwitchCase>(P))
      return Case->getSubStmt() == S ? S : nullptr;
    return nullptr;
  }
}

/// The function holding \p S (lambdas count as the function that holds
/// them), or null.
const FunctionDecl *holder(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    if (const auto *FD = Parents[0].get<FunctionDecl>()) {
      const auto *Method = dyn_cast<CXXMethodDecl>(FD);
      if (!Method || !Method->getParent()->isLambda())
        return FD;
    }
    Parents = Ctx.getParents(Parents[0]);
  }
  return nullptr;
}

/// Whether \p FD, a statement's holder, runs on the host: it is neither
/// __device__ nor __global__.
bool inHostCode(const FunctionDecl *FD) {
  return FD && !FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAGlobalAttr>();
}

/// The text of the launch's stream argument ("0" when it has none), or
/// nothing when it cannot be evaluated a second time unchanged.
std::optional<std::string> streamText(ASTContext &Ctx,
                                      const CUDAKernelCallExpr *K) {
  const CallExpr *Config = K->getConfig();
  if (!Config || Config->getNumArgs() < 4 ||
      isa<CXXDefaultArgExpr>(Config->getArg(3)))
    return std::string("0");
  const Expr *Stream = Config->getArg(3);
  if (Stream->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return std::nullopt;
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Stream->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  if (Range.isInvalid())
    return std::nullopt;
  return Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

struct Launch {
  const Stmt *Statement = nullptr;
  std::string Kernel;
  std::optional<std::string> Stream;
  std::vector<SiteRef> Sites;
};

std::string escaped(llvm::StringRef S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::printEscapedString(S, OS);
  return Out;
}

} // namespace

llvm::Expected<unsigned> planLaunchTuning(ASTContext &Ctx,
                                          const RewritePlan &Plan,
                                          llvm::StringRef FilePath,
                                          const EditableHeaders &Headers,
                                          tooling::Replacements &Edits) {
  const SourceManager &SM = Ctx.getSourceManager();
  Reachability Reach(Ctx, Plan, FilePath, Headers);
  // One entry per statement: a launch in a template is one statement for
  // every instantiation (the sites of each are joined).
  std::map<unsigned, Launch> Launches;
  for (const BoundNodes &B : match(cudaKernelCallExpr().bind("k"), Ctx)) {
    const auto *K = B.getNodeAs<CUDAKernelCallExpr>("k");
    const FunctionDecl *Kernel = K->getDirectCallee();
    if (!Kernel)
      continue; // a dependent launch: its instantiations have the callee
    std::vector<SiteRef> Sites = Reach.from(Kernel);
    if (Sites.empty())
      continue;
    const Stmt *S = launchStatement(Ctx, K);
    const FunctionDecl *Holder = S ? holder(Ctx, S) : nullptr;
    if (!S || !inHostCode(Holder) ||
        (Plan.Unparsed && Plan.Unparsed->verdict(Holder) != Reason::None) ||
        !S->getBeginLoc().isFileID() || !S->getEndLoc().isFileID() ||
        SM.getFileID(S->getBeginLoc()) != SM.getMainFileID())
      continue;
    Launch &L = Launches[SM.getFileOffset(S->getBeginLoc())];
    if (!L.Statement) {
      L.Statement = S;
      L.Kernel = patternOf(Kernel)->getQualifiedNameAsString();
      L.Stream = streamText(Ctx, K);
    }
    for (SiteRef &Site : Sites)
      if (!llvm::is_contained(L.Sites, Site))
        L.Sites.push_back(std::move(Site));
  }

  unsigned N = 0;
  for (auto &[Offset, L] : Launches) {
    if (!L.Stream)
      continue; // the stream expression would run twice
    SourceLocation After = Lexer::findLocationAfterToken(
        L.Statement->getEndLoc(), tok::semi, SM, Ctx.getLangOpts(),
        /*SkipTrailingWhitespaceAndNewLine=*/false);
    if (After.isInvalid() || !After.isFileID())
      continue;
    const std::string Tuner = "distwar_tuner" + std::to_string(N);
    const std::string Ticket = "distwar_ticket" + std::to_string(N);
    std::string Refs;
    for (const SiteRef &S : L.Sites) {
      assert(!(S.Block && S.Forms) && "a block group is serial: one form");
      Refs += (Refs.empty() ? "{&" : ", {&") + S.Table + ", \"" +
              escaped(S.Name) + "\"" +
              (S.Forms   ? ", false, true}"
               : S.Block ? ", true}"
                         : "}");
    }
    std::string Before = "{ static ::distwar::LaunchTuner " + Tuner + "(\"" +
                         escaped(L.Kernel) + "\", {" + Refs +
                         "}); ::distwar::LaunchTicket " + Ticket + " = " +
                         Tuner + ".begin(" + *L.Stream + "); ";
    std::string End = " " + Tuner + ".end(" + Ticket + "); }";
    if (llvm::Error E = Edits.add(
            tooling::Replacement(SM, L.Statement->getBeginLoc(), 0, Before)))
      return std::move(E);
    if (llvm::Error E = Edits.add(tooling::Replacement(SM, After, 0, End)))
      return std::move(E);
    ++N;
  }
  return N;
}

} // namespace distwar
