//===- Paths.cpp - the one way distwar names a file -----------------------===//

#include "distwar-rewrite/Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace distwar {

std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> Abs;
  if (!Base.empty() && !llvm::sys::path::is_absolute(Path))
    llvm::sys::path::append(Abs, Base);
  llvm::sys::path::append(Abs, Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

} // namespace distwar
