//===- UneditedHeaders.cpp - allowed headers copied as they are -----------===//

#include "Emit/UneditedHeaders.h"
#include "Parse/SourcePaths.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace distwar {

void addUneditedHeaders(const ParsedFile &P, HeaderCopies &Copies,
                        std::vector<HeaderOutput> &Out) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  llvm::DenseSet<const FileEntry *> Seen;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    const SrcMgr::ContentCache &C = E.getFile().getContentCache();
    OptionalFileEntryRef FE = C.OrigEntry;
    if (!FE || !Seen.insert(&FE->getFileEntry()).second ||
        &FE->getFileEntry() ==
            &SM.getFileEntryRefForID(SM.getMainFileID())->getFileEntry() ||
        E.getFile().getFileCharacteristic() != SrcMgr::C_User)
      continue;
    std::string Path = absoluteFilePath(SM.getFileManager(), *FE);
    if (llvm::any_of(Out,
                     [&](const HeaderOutput &H) { return H.Path == Path; }))
      continue;
    std::optional<std::string> Rel = Copies.pathOf(&FE->getFileEntry(), Path);
    if (!Rel || !C.getBufferOrNone(SM.getDiagnostics(), SM.getFileManager()))
      continue;
    HeaderOutput H;
    H.Path = Path;
    H.RelativePath = *Rel;
    H.Output = P.OriginalText(SM.translateFile(*FE)).str();
    Out.push_back(std::move(H));
  }
}

} // namespace distwar
