//===- SiteTableNames.cpp - names of the per-file site tables -------------===//

#include "Emit/SiteTableNames.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace distwar {

std::string siteTableIdentifier(llvm::StringRef Name) {
  std::string Out = "distwar_sites_";
  for (char C : Name)
    Out += llvm::isAlnum(C) || C == '_' ? C : '_';
  return Out;
}

std::string siteTableName(llvm::StringRef FilePath) {
  return siteTableIdentifier(llvm::sys::path::filename(FilePath));
}

} // namespace distwar
