//===- Report.h - what the tool found and decided ---------------*- C++ -*-===//

#ifndef DISTWAR_REWRITE_REPORT_H
#define DISTWAR_REWRITE_REPORT_H

#include "distwar-rewrite/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace distwar {

struct SiteRecord {
  unsigned Line = 0, Column = 0;
  std::string File; ///< an included file; empty for the report's file
  std::string Function, Callee, Buffer, Key, Field, Slot, Type;
  std::string Group;    ///< group (site) name, "" when in none
  std::string Decision; ///< "batched", "floor" or "unchanged"
  Reason Why = Reason::None;
};

struct GroupRecord {
  std::string Name; ///< "<function>#k" when batched, else "<function>@line"
  std::string Function, Key, Type, Size, Variant;
  std::vector<unsigned> Sites; ///< indices into FileReport::Sites
  std::string Decision;        ///< "batched" or "unchanged"
  Reason Why = Reason::None;
  /// Batched groups: why a faster variant was not used (None: none faster).
  Reason Note = Reason::None;
};

struct FileReport {
  std::string File;
  Reason FileReason = Reason::None; ///< e.g. AlreadyRewritten
  bool Changed = false;             ///< the file itself
  /// The headers (--edit-headers) this file's rewrite edited.
  std::vector<std::string> EditedHeaders;
  std::vector<SiteRecord> Sites;
  std::vector<GroupRecord> Groups;
};

/// Human-readable report, one line per site and per group.
std::string renderTextReport(llvm::ArrayRef<FileReport> Files);
/// {"files":[{"file":..., "changed":..., "sites":[...], "groups":[...]}]}
std::string renderJsonReport(llvm::ArrayRef<FileReport> Files);

} // namespace distwar

#endif
