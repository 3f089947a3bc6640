//===- DeferredAddress.cpp - addrOf lambdas for Fields batches ------------===//

#include "Decide/DeferredAddress.h"
#include "Analysis/AstQueries.h"
#include "Analysis/Effects.h"
#include "Analysis/VarWrites.h"
#include "Analysis/ExprText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace distwar {
namespace {

class Builder {
public:
  /// \p KernelScope: the address is rebuilt at the kernel's start, where no
  /// local of the body is visible (the block strategy's flush).
  Builder(ASTContext &Ctx, const AtomicSite &S, bool KernelScope = false)
      : Ctx(Ctx), S(S), KernelScope(KernelScope) {}

  /// Whether every variable of \p E outside [SkipBegin, SkipEnd) is visible
  /// and unchanged anywhere in the function: unwritten parameters, globals,
  /// enumerators, non-type template parameters, or the channel variable
  /// (when \p AllowChannel).
  bool stable(const Stmt *E, bool AllowChannel) {
    if (!E)
      return true;
    if (isKey(E))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      if (inKey(DRE->getBeginLoc()) || (KeyDecl && D == KeyDecl))
        return true;
      if (isa<EnumConstantDecl, FunctionDecl, NonTypeTemplateParmDecl>(D))
        return true;
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V)
        return false;
      if (AllowChannel && S.Channel && V == S.Channel->Var)
        return true;
      // A local constant may be out of scope where the address is rebuilt.
      if (V->isConstexpr())
        return !V->isLocalVarDecl() ||
               (!KernelScope && visibleAtReduction(V));
      // The issuing lane evaluates the address for the whole group: a
      // kernel's parameters are the same in every lane, a __device__
      // function's are not.
      if (isa<ParmVarDecl>(V))
        return S.Function && S.Function->getBody() &&
               S.Function->hasAttr<CUDAGlobalAttr>() &&
               !findWrite(S.Function->getBody(), V, /*Through=*/false);
      return V->hasGlobalStorage() && !V->isStaticLocal() &&
             !V->isLocalVarDeclOrParm();
    }
    if (isa<LambdaExpr, StmtExpr, BlockExpr>(E))
      return false;
    for (const Stmt *C : E->children())
      if (!stable(C, AllowChannel))
        return false;
    return true;
  }

  /// Whether local \p V is declared in the function's own body, visible
  /// wherever the reduction and its address lambda stand after it (a
  /// group under an `if` reduces outside that `if`, a group of a loop
  /// body possibly after the guards that hold its sites).
  bool visibleAtReduction(const VarDecl *V) {
    DynTypedNodeList Decl = Ctx.getParents(*V);
    const auto *DS = Decl.empty() ? nullptr : Decl[0].get<DeclStmt>();
    if (!DS || !S.Function)
      return false;
    DynTypedNodeList Block = Ctx.getParents(*DS);
    const Stmt *Holder = Block.empty() ? nullptr : Block[0].get<Stmt>();
    return Holder && Holder == S.Function->getBody();
  }

  /// Whether \p E is the site's key written again (`tc[0]` in a test
  /// `if (tc[0] >= 0)` of key `tc[0]`): the reduction evaluates the key, whose
  /// variables the group does not change, and it is the same in every lane
  /// that issues for the group.
  bool isKey(const Stmt *E) const {
    const auto *X = dyn_cast<Expr>(E);
    return X && S.Key && !S.KeyIsBuffer && !S.Invocation &&
           sameExpression(X->IgnoreParenImpCasts(),
                          S.Key->IgnoreParenImpCasts(), Ctx);
  }

  bool inKey(SourceLocation L) const {
    if (!KeyBegin.isValid())
      return false;
    const SourceManager &SM = Ctx.getSourceManager();
    return !SM.isBeforeInTranslationUnit(L, KeyBegin) &&
           SM.isBeforeInTranslationUnit(L, KeyEnd);
  }

  /// The text of \p R (a token range in the main file, no macros) with
  /// newlines folded, or "" when it holds comments or directives.
  std::string text(SourceRange R) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
      return "";
    std::string T = Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM,
                                         Ctx.getLangOpts())
                        .str();
    if (T.find("//") != std::string::npos ||
        T.find("/*") != std::string::npos || T.find('#') != std::string::npos ||
        T.find('\\') != std::string::npos)
      return "";
    for (char &C : T)
      if (C == '\n' || C == '\r' || C == '\t')
        C = ' ';
    return T;
  }

  /// The text of \p Cond with each occurrence of the site's key replaced
  /// by \p KeyVar (none when it is empty): the key's own variables may be
  /// out of scope, or changed, where the address is rebuilt. "" when it
  /// cannot be spelled.
  std::string keyedText(const Expr *Cond, llvm::StringRef KeyVar) {
    std::string T = text(Cond->getSourceRange());
    if (T.empty() || KeyVar.empty())
      return T;
    const SourceManager &SM = Ctx.getSourceManager();
    const unsigned Begin = SM.getFileOffset(Cond->getBeginLoc());
    llvm::SmallVector<std::pair<unsigned, unsigned>, 2> Keys;
    bool Spelled = true;
    forEachStmt(Cond, [&](const Stmt *X) {
      if (!isKey(X))
        return true;
      SourceLocation KB = X->getBeginLoc(), KE = X->getEndLoc();
      if (KB.isMacroID() || KE.isMacroID()) {
        Spelled = false;
        return false;
      }
      unsigned B = SM.getFileOffset(KB),
               E = SM.getFileOffset(Lexer::getLocForEndOfToken(
                   KE, 0, SM, Ctx.getLangOpts()));
      // An occurrence inside one already replaced is part of it.
      if (Keys.empty() || B >= Keys.back().second)
        Keys.push_back({B, E});
      return true;
    });
    if (!Spelled)
      return "";
    std::string Out;
    unsigned At = Begin;
    for (auto [B, E] : Keys) {
      if (B < At || E - Begin > T.size())
        return "";
      Out += T.substr(At - Begin, B - At) + KeyVar.str();
      At = E;
    }
    return Out + T.substr(At - Begin);
  }

  /// The site's address with its key replaced by \p KeyVar, or "".
  std::string address(llvm::StringRef KeyVar) {
    if (!S.Key || S.Call->getNumArgs() < 1)
      return "";
    // A macro site's tokens are spelled again only where the key is
    // replaced by a parameter: the block strategy's addresses.
    if (S.Invocation)
      return KernelScope ? macroAddress(KeyVar) : "";
    const SourceManager &SM = Ctx.getSourceManager();
    const Expr *Addr = S.Call->getArg(0);
    SourceLocation KB = S.Key->getBeginLoc(), KE = S.Key->getEndLoc();
    if (KB.isMacroID() || KE.isMacroID())
      return "";
    KeyBegin = KB;
    KeyEnd = Lexer::getLocForEndOfToken(KE, 0, SM, Ctx.getLangOpts());
    if (!stable(Addr, /*AllowChannel=*/true))
      return "";
    std::string T = text(Addr->getSourceRange());
    if (T.empty() || KeyVar.empty())
      return T;
    SourceLocation AB = Addr->getBeginLoc();
    if (SM.getFileID(AB) != SM.getFileID(KB))
      return "";
    unsigned A = SM.getFileOffset(AB), B = SM.getFileOffset(KB),
             E = SM.getFileOffset(KeyEnd);
    std::string K = text(S.Key->getSourceRange());
    if (B < A || E < B || E - A > T.size() || K.empty() ||
        T.compare(B - A, E - B, K) != 0)
      return "";
    return T.substr(0, B - A) + KeyVar.str() + T.substr(E - A);
  }

  /// The address of a site written through a macro: the expanded tokens of
  /// its first argument, every use of the key variable replaced by \p KeyVar
  /// (the key must be a variable, so that a token names it), or "".
  std::string macroAddress(llvm::StringRef KeyVar) {
    const auto *KeyRef = dyn_cast<DeclRefExpr>(S.Key->IgnoreParenImpCasts());
    if (!KeyRef || !isa<VarDecl>(KeyRef->getDecl()))
      return "";
    KeyDecl = KeyRef->getDecl();
    if (!stable(S.Call->getArg(0), /*AllowChannel=*/true))
      return "";
    llvm::ArrayRef<std::string> Tokens = S.Invocation->Tokens;
    std::string Name = KeyDecl->getName().str(), Out;
    int Depth = 0;
    for (size_t K = S.FirstArgToken; K < Tokens.size(); ++K) {
      llvm::StringRef T = llvm::StringRef(Tokens[K]).trim(' ');
      if (T == "(" || T == "[" || T == "{")
        ++Depth;
      if ((T == ")" || T == "]" || T == "}") && --Depth < 0)
        break;
      if (T == "," && Depth == 0)
        break;
      if (T.contains('#'))
        return "";
      bool Member =
          K > S.FirstArgToken &&
          llvm::is_contained({".", "->", "::"},
                             llvm::StringRef(Tokens[K - 1]).trim(' '));
      bool Qualifier = K + 1 < Tokens.size() &&
                       llvm::StringRef(Tokens[K + 1]).trim(' ') == "::";
      bool Key = T == Name && !Member && !Qualifier && !KeyVar.empty();
      // Each token keeps the space it had before it (none first).
      std::string Space = K > S.FirstArgToken && Tokens[K][0] == ' ' ? " " : "";
      Out += Space + (Key ? KeyVar.str() : T.str());
    }
    return Depth == 0 || Depth == -1 ? Out : "";
  }

  /// The conjunction of the `if` conditions between the site and \p G's
  /// scope ("" when none); nullopt when one cannot be repeated at the call.
  std::optional<std::string> condition(const SiteGroup &G,
                                       llvm::StringRef KeyVar = "") {
    std::string Cond;
    const Stmt *Child = S.Call;
    KeyBegin = KeyEnd = SourceLocation();
    for (const Stmt *A : S.Ancestors) {
      if (A == G.Scope)
        return Cond;
      if (isLaneIfAbove(A, Child, G)) {
        Child = A; // a lane-dependent if is not repeated (see siteCondition)
        continue;
      }
      if (const auto *If = dyn_cast<IfStmt>(A)) {
        if (If->getInit() || If->getConditionVariable() || If->isConsteval() ||
            !stable(If->getCond(), /*AllowChannel=*/false))
          return std::nullopt;
        std::string T = keyedText(If->getCond(), KeyVar);
        if (T.empty())
          return std::nullopt;
        bool Then = Child == If->getThen();
        if (!Then && Child != If->getElse())
          return std::nullopt;
        Cond += (Cond.empty() ? "" : " && ") + std::string(Then ? "(" : "!(") +
                T + ")";
      } else if (isa<ConditionalOperator, BinaryConditionalOperator>(A)) {
        return std::nullopt;
      } else if (const auto *BO = dyn_cast<BinaryOperator>(A)) {
        if (BO->isLogicalOp() || BO->isCommaOp())
          return std::nullopt;
      } else if (const auto *For = dyn_cast<ForStmt>(A)) {
        if (!S.Channel || For != S.Channel->Loop)
          return std::nullopt;
      } else if (!isa<CompoundStmt, AttributedStmt, Expr>(A) &&
                 !isInvocationWrapper(S, A)) {
        return std::nullopt;
      }
      Child = A;
    }
    return std::nullopt; // Scope not found
  }

private:
  ASTContext &Ctx;
  const AtomicSite &S;
  bool KernelScope;
  SourceLocation KeyBegin, KeyEnd;
  const ValueDecl *KeyDecl = nullptr; ///< a macro site's key variable
};

} // namespace

std::optional<std::string> siteCondition(ASTContext &Ctx, const AtomicSite &S,
                                         const SiteGroup &G) {
  return Builder(Ctx, S).condition(G);
}

/// The statements of an addrOf lambda for \p G (one `if` per slot), each
/// site's key replaced by \p KeyVar; nullopt when an address cannot be
/// rebuilt (see deferredAddressLambda, blockAddressLambda).
static std::optional<std::string>
addressBranches(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                const SiteGroup &G, llvm::ArrayRef<DeferredSlot> Slots,
                llvm::StringRef KeyVar, bool KernelScope) {
  const AtomicSite &First = Sites[G.Sites.front()];
  if (First.TypeText.empty() || Slots.size() != G.Sites.size())
    return std::nullopt;
  std::string Body;
  for (const DeferredSlot &Slot : Slots) {
    if (Slot.SharesEarlier)
      continue; // the earlier site's branch returns the same address
    const AtomicSite &S = Sites[Slot.Site];
    // The captured key is the first site's: a site whose key is spelled
    // differently (opaque call keys that differ in a constant argument)
    // would get the first site's primitive, so it keeps its address.
    if (!KeyVar.empty() && S.KeyText != First.KeyText)
      return std::nullopt;
    std::optional<std::string> Cond =
        Builder(Ctx, S, KernelScope).condition(G, KeyVar);
    if (!Cond)
      return std::nullopt;
    std::string Addr = Builder(Ctx, S, KernelScope).address(KeyVar);
    if (Addr.empty())
      return std::nullopt;
    std::string Ret = Cond->empty() ? "return " + Addr + ";"
                                    : "return " + parenthesized(*Cond) + " ? " +
                                          parenthesized(Addr) + " : nullptr;";
    if (!Slot.Extent.empty()) {
      const VarDecl *V = S.Channel->Var;
      std::string Type = V->getType().getUnqualifiedType().getAsString(
          Ctx.getPrintingPolicy());
      Body += " if (distwar_slot >= " + Slot.Offset + " && distwar_slot < " +
              sumText(Slot.Offset, Slot.Extent) + ") { const " + Type + " " +
              V->getName().str() + " = " +
              shiftedText("distwar_slot", Slot.Offset, Slot.Lower) + "; " +
              Ret + " }";
    } else {
      Body += " if (distwar_slot == " + Slot.Offset + ") " + Ret;
    }
  }
  return Body;
}

std::optional<std::string>
deferredAddressLambda(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                      const SiteGroup &G, llvm::ArrayRef<DeferredSlot> Slots,
                      llvm::StringRef KeyVar) {
  std::optional<std::string> Body =
      addressBranches(Ctx, Sites, G, Slots, KeyVar, /*KernelScope=*/false);
  if (!Body)
    return std::nullopt;
  return "[&](int distwar_slot) -> " + Sites[G.Sites.front()].TypeText +
         " * {" + *Body + " return nullptr; }";
}

std::optional<std::string>
blockAddressLambda(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                   const SiteGroup &G, llvm::ArrayRef<DeferredSlot> Slots) {
  const AtomicSite &First = Sites[G.Sites.front()];
  if (!First.Key)
    return std::nullopt;
  std::optional<std::string> Body = addressBranches(
      Ctx, Sites, G, Slots, "distwar_key", /*KernelScope=*/true);
  if (!Body)
    return std::nullopt;
  std::string KeyType =
      First.Key->getType().getCanonicalType().getUnqualifiedType().getAsString(
          Ctx.getPrintingPolicy());
  return "[&](" + KeyType + " distwar_key, int distwar_slot) -> " +
         First.TypeText + " * {" + *Body + " return nullptr; }";
}

} // namespace distwar
