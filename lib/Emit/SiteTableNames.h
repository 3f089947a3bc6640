//===- SiteTableNames.h - names of the per-file site tables -----*- C++ -*-===//
//
// Each rewritten file and each edited header declares its own table of
// sites (GENERATED_CODE.md, section 1); its identifier is made from the
// file's name so that two files never share one.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_EMIT_SITETABLENAMES_H
#define DISTWAR_EMIT_SITETABLENAMES_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace distwar {

/// `distwar_sites_` + \p Name with every character outside [A-Za-z0-9_]
/// replaced by '_'.
std::string siteTableIdentifier(llvm::StringRef Name);

/// The table identifier of the main file \p FilePath (its file name).
std::string siteTableName(llvm::StringRef FilePath);

} // namespace distwar

#endif
