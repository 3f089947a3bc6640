//===- HeaderFilter.cpp - which included files may be edited --------------===//

#include "distwar-rewrite/HeaderFilter.h"
#include "distwar-rewrite/Paths.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace distwar {

namespace {

/// The real path of \p Path, or its absolute form without dots when it
/// cannot be resolved.
std::string canonical(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  return absolutePath(Path);
}

} // namespace

llvm::Expected<HeaderFilter>
HeaderFilter::create(llvm::ArrayRef<std::string> Entries) {
  HeaderFilter F;
  for (const std::string &E : Entries) {
    if (E.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--edit-headers: empty path");
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(E, Status))
      return llvm::createStringError(EC, "--edit-headers: cannot find '%s': %s",
                                     E.c_str(), EC.message().c_str());
    (llvm::sys::fs::is_directory(Status) ? F.Dirs : F.Files)
        .push_back(canonical(E));
  }
  return F;
}

std::optional<std::string>
HeaderFilter::relativePath(llvm::StringRef File) const {
  std::string Real = canonical(File);
  for (const std::string &F : Files)
    if (F == Real)
      return llvm::sys::path::filename(Real).str();
  std::optional<std::string> Best;
  size_t BestLength = 0;
  for (const std::string &D : Dirs) {
    llvm::StringRef Rest(Real);
    if (!Rest.consume_front(D))
      continue;
    if (!llvm::sys::path::is_separator(D.back())) {
      if (Rest.empty() || !llvm::sys::path::is_separator(Rest.front()))
        continue;
      Rest = Rest.drop_front();
    }
    if (Rest.empty() || (Best && D.size() <= BestLength))
      continue;
    Best = llvm::sys::path::convert_to_slash(Rest);
    BestLength = D.size();
  }
  return Best;
}

} // namespace distwar
