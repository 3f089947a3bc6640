//===- TileFiles.cpp - the files --balance=tiles may write ----------------===//

#include "Decide/TileFiles.h"
#include "Parse/HeaderCopies.h"
#include "Parse/SourcePaths.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace distwar {

/// Each local file entry of \p SM that holds a file, with its entry.
template <typename Fn>
static void forEachFile(const SourceManager &SM, Fn Visit) {
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    if (OptionalFileEntryRef FE = E.getFile().getContentCache().OrigEntry)
      Visit(SM.getFileID(SourceLocation::getFromRawEncoding(E.getOffset())),
            E.getFile(), &FE->getFileEntry());
  }
}

TileFiles::TileFiles(const SourceManager &SM, const HeaderFilter *Filter,
                     llvm::ArrayRef<ParsedFile::ResolvedInclusion> Inclusions,
                     const llvm::DenseSet<FileID> &Stale)
    : SM(SM), StaleHeaders(Stale) {
  if (!Filter)
    return;
  llvm::DenseMap<const FileEntry *, unsigned> Entered;
  forEachFile(SM, [&](FileID, const SrcMgr::FileInfo &, const FileEntry *FE) {
    ++Entered[FE];
  });
  HeaderCopies Paths(*Filter, Inclusions);
  forEachFile(SM, [&](FileID ID, const SrcMgr::FileInfo &Info,
                      const FileEntry *FE) {
    if (ID == SM.getMainFileID() ||
        Info.getFileCharacteristic() != SrcMgr::C_User)
      return;
    std::optional<std::string> Rel = Paths.pathOf(FE, absoluteFilePath(SM, ID));
    if (!Rel)
      return;
    if (Entered[FE] > 1)
      EnteredTwice.insert(ID);
    else if (!Stale.count(ID))
      Copies[ID] = std::move(*Rel);
  });
}

TileFileRefusal TileFiles::whyNot(FileID File) const {
  if (writable(File))
    return {};
  if (EnteredTwice.count(File))
    return {Reason::HeaderEnteredTwice,
            "a header entered more than once (no include guard)"};
  if (StaleHeaders.count(File))
    return {Reason::TileLaunch, "a header read other than as the batching "
                                "left it (reached through another path)"};
  return {Reason::TileLaunch, "a header that no --edit-headers entry names"};
}

const std::string &TileFiles::copyPath(FileID File) const {
  auto It = Copies.find(File);
  assert(It != Copies.end() && "only a writable header has a copy");
  return It->second;
}

bool TileFiles::isUserFile(FileID File) const {
  if (File.isInvalid() || !SM.getFileEntryRefForID(File))
    return false;
  return File == SM.getMainFileID() ||
         !SrcMgr::isSystem(
             SM.getFileCharacteristic(SM.getLocForStartOfFile(File)));
}

} // namespace distwar
