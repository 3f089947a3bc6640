//===- OptOut.cpp - Sites a NODISTWAR comment leaves alone ----------------===//

#include "Find/OptOut.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

using namespace clang;

namespace distwar {

namespace {

/// The marker of a comment on \p Line: "", "NEXTLINE", "BEGIN" or "END",
/// or nullopt when the line has none. Only text after `//` or `/*` counts,
/// so a string that spells the marker is no comment.
std::optional<std::string> markerOn(llvm::StringRef Line) {
  size_t Comment = std::min(Line.find("//"), Line.find("/*"));
  if (Comment == llvm::StringRef::npos)
    return std::nullopt;
  static const llvm::Regex Marker("NODISTWAR(NEXTLINE|BEGIN|END)?([^A-Z_]|$)");
  llvm::SmallVector<llvm::StringRef, 3> Match;
  if (!Marker.match(Line.drop_front(Comment), &Match))
    return std::nullopt;
  return Match[1].str();
}

} // namespace

llvm::DenseSet<unsigned> optedOutLines(llvm::StringRef Text) {
  llvm::DenseSet<unsigned> Lines;
  llvm::SmallVector<llvm::StringRef, 0> All;
  Text.split(All, '\n');
  unsigned Open = 0;
  for (unsigned I = 0; I < All.size(); ++I) {
    unsigned Line = I + 1;
    std::optional<std::string> Kind = markerOn(All[I]);
    if (Kind && *Kind == "BEGIN")
      ++Open;
    if (Open || (Kind && Kind->empty()))
      Lines.insert(Line);
    if (Kind && *Kind == "NEXTLINE")
      Lines.insert(Line + 1);
    if (Kind && *Kind == "END" && Open)
      --Open;
  }
  return Lines;
}

void markOptedOut(ASTContext &Ctx, std::vector<AtomicSite> &Sites) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseMap<FileID, llvm::DenseSet<unsigned>> ByFile;
  for (AtomicSite &S : Sites) {
    SourceLocation Loc = SM.getExpansionLoc(S.Call->getBeginLoc());
    FileID File = SM.getFileID(Loc);
    auto [It, New] = ByFile.try_emplace(File);
    if (New)
      It->second = optedOutLines(SM.getBufferData(File));
    if (It->second.contains(SM.getExpansionLineNumber(Loc)))
      S.Why = Reason::OptedOut;
  }
}

} // namespace distwar
