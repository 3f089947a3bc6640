//===- Editability.cpp - whether a group's edits can be written -----------===//

#include "Decide/Editability.h"
#include "Analysis/AstQueries.h"
#include "Group/EditPoints.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace clang;

namespace distwar {

namespace {

class EditabilityCheck {
public:
  EditabilityCheck(ASTContext &Ctx, const std::vector<AtomicSite> &Sites)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Sites(Sites), Where(Ctx, Sites) {}

  /// Why \p G's edits cannot be written, or None.
  Verdict vet(const SiteGroup &G) const {
    auto IsFile = [](SourceLocation L) { return L.isValid() && L.isFileID(); };
    for (size_t I : G.Sites)
      if (SM.getFileID(SM.getExpansionLoc(Sites[I].Call->getBeginLoc())) !=
          Where.fileOf(G))
        return Reason::IncludedIntoBody;
    if (Where.statementBegin(G.First).isInvalid() ||
        Where.afterStatement(G.Last).isInvalid())
      return Reason::MacroExpansion;
    for (size_t I : G.Sites) {
      const CallExpr *Call = Sites[I].Call;
      if (Sites[I].Invocation) {
        // The invocation is replaced whole: its other batchable atomics
        // must be in this group.
        for (const AtomicSite &Other : Sites)
          if (Other.Invocation == Sites[I].Invocation &&
              Other.Why == Reason::None &&
              !llvm::any_of(G.Sites,
                            [&](size_t J) { return &Sites[J] == &Other; }))
            return Reason::MacroSplit;
      } else if (!IsFile(Call->getCallee()->getBeginLoc()) ||
                 !IsFile(Call->getCallee()->getEndLoc()) ||
                 Where.firstArgBegin(Call).isInvalid() ||
                 !IsFile(Call->getRParenLoc())) {
        return Reason::MacroExpansion;
      }
      if (Sites[I].Channel && !IsFile(Sites[I].Channel->Loop->getBeginLoc()))
        return Reason::MacroExpansion;
    }
    if (Sites[G.Sites.front()].KeyText.empty())
      return Reason::MacroExpansion;
    // Whole #if blocks between the sites are fine (a configuration macro):
    // the batch and the reduction lie outside them, and each site inside
    // one is tracked (its set() is gone where the block is).
    llvm::SmallVector<SourceLocation, 8> Points = {
        Where.statementBegin(G.First), Where.afterStatement(G.Last)};
    for (size_t I : G.Sites) {
      Points.push_back(SM.getExpansionLoc(Sites[I].Call->getBeginLoc()));
      Points.push_back(SM.getExpansionLoc(Sites[I].Call->getEndLoc()));
    }
    SourceLocation Directive;
    if (Where.cutsConditional(Where.statementBegin(G.First),
                              Where.afterStatement(G.Last), Points,
                              /*InsideOk=*/G.Sites.size() > 0, &Directive))
      return Directive.isInvalid()
                 ? Verdict(Reason::PreprocessorConditional)
                 : Verdict(Reason::PreprocessorConditional,
                           placeAt(SM, Directive,
                                   "the batch's edits would cut the "
                                   "conditional block of this directive"));
    return Reason::None;
  }

  /// Why the active-flag edits of \p F cannot be written, or None.
  Reason vetFlags(const FlagPlan &F) const {
    auto IsFile = [](SourceLocation L) { return L.isValid() && L.isFileID(); };
    SourceLocation BodyBegin = Where.scopeBegin(F.Body),
                   BodyEnd = Where.scopeEnd(F.Body);
    if (!IsFile(BodyBegin) || !IsFile(BodyEnd) ||
        !IsFile(F.Holder->getEndLoc()))
      return Reason::MacroExpansion;
    for (const ContinueStmt *C : F.Continues)
      if (!IsFile(C->getBeginLoc()))
        return Reason::MacroExpansion;
    for (const Stmt *S : F.GuardAfter)
      if (!IsFile(S->getEndLoc()))
        return Reason::MacroExpansion;
    if (!F.RemovedTerms.empty()) {
      if (!IsFile(F.Cond->getBeginLoc()) || !IsFile(F.Cond->getEndLoc()))
        return Reason::MacroExpansion;
      for (const Expr *T : F.KeptTerms)
        if (sourceText(T, Ctx).empty())
          return Reason::MacroExpansion;
      if (Where.spansConditional(F.Cond->getBeginLoc(),
                                 Lexer::getLocForEndOfToken(F.Cond->getEndLoc(),
                                                            0, SM,
                                                            Ctx.getLangOpts())))
        return Reason::PreprocessorConditional;
    }
    // Flags, guards and the reduction go outside every #if block.
    llvm::SmallVector<SourceLocation, 8> Points = {
        BodyBegin, BodyEnd, Where.afterStatement(F.Holder)};
    for (const Stmt *S : F.GuardAfter)
      Points.push_back(Where.afterStatement(S));
    if (F.PrevHolder)
      Points.push_back(Where.afterStatement(F.PrevHolder));
    for (const FlagPlan::PartEnd &E : F.PartEnds)
      Points.push_back(Where.afterStatement(E.Holder));
    if (Where.cutsConditional(BodyBegin, BodyEnd, Points,
                              /*InsideOk=*/false))
      return Reason::PreprocessorConditional;
    if (F.EarlyReturn) {
      SourceLocation End = Where.afterStatement(F.EarlyReturn);
      if (!IsFile(F.EarlyReturn->getBeginLoc()) || End.isInvalid() ||
          sourceText(F.EarlyReturn->getCond(), Ctx).empty())
        return Reason::MacroExpansion;
      if (Where.spansConditional(F.EarlyReturn->getBeginLoc(), End))
        return Reason::PreprocessorConditional;
    }
    return Reason::None;
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  const std::vector<AtomicSite> &Sites;
  EditPoints Where;
};

/// Groups sharing a live flag are butterflies together or not at all (the
/// first writes the flag and guards the others rely on).
void keepSharedFlagsWhole(const std::vector<SiteGroup> &Groups,
                          std::vector<VariantDecision> &Decisions) {
  std::map<const Stmt *, bool> Whole;
  for (size_t I = 0; I < Groups.size(); ++I) {
    const VariantDecision &D = Decisions[I];
    if (D.Flags.Segments > 1)
      Whole.try_emplace(D.Flags.Body, true);
  }
  for (size_t I = 0; I < Groups.size(); ++I) {
    const VariantDecision &D = Decisions[I];
    if (D.Flags.Segments > 1 && Whole.count(D.Flags.Body) &&
        (Groups[I].Why != Reason::None || D.Kind == GroupVariant::Serial))
      Whole[D.Flags.Body] = false;
  }
  for (size_t I = 0; I < Groups.size(); ++I) {
    VariantDecision &D = Decisions[I];
    if (D.Flags.Segments > 1 && Whole.count(D.Flags.Body) &&
        !Whole[D.Flags.Body] && D.Kind != GroupVariant::Serial) {
      D.Kind = GroupVariant::Serial;
      D.Note = Reason::SeveralGroupsInIteration;
    }
  }
}

} // namespace

void checkEditability(ASTContext &Ctx, const std::vector<AtomicSite> &Sites,
                      std::vector<SiteGroup> &Groups,
                      std::vector<VariantDecision> &Decisions) {
  assert(Groups.size() == Decisions.size() && "one decision per group");
  EditabilityCheck Check(Ctx, Sites);
  for (size_t I = 0; I < Groups.size(); ++I) {
    if (Groups[I].Why == Reason::None)
      Groups[I].Why = Check.vet(Groups[I]);
    if (Groups[I].Why == Reason::None &&
        Decisions[I].Kind != GroupVariant::Serial)
      if (Reason R = Check.vetFlags(Decisions[I].Flags); R != Reason::None) {
        Decisions[I].Kind = GroupVariant::Serial; // no flag needed
        Decisions[I].Note = R;
      }
  }
  keepSharedFlagsWhole(Groups, Decisions);
}

} // namespace distwar
