//===- Report.h - what the tool found and decided ---------------*- C++ -*-===//

#ifndef DISTWAR_REWRITE_REPORT_H
#define DISTWAR_REWRITE_REPORT_H

#include "distwar-rewrite/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace distwar {

struct SiteRecord {
  unsigned Line = 0, Column = 0;
  std::string File; ///< an included file; empty for the report's file
  std::string Function, Callee, Buffer, Key, Field, Slot, Type;
  std::string Group;    ///< group (site) name, "" when in none
  std::string Decision; ///< "batched", "floor" or "unchanged"
  /// Why the site is unchanged, with the statement that caused it where one
  /// did (a group's reason: the call between its atomics, ...).
  Verdict Why;
};

struct GroupRecord {
  std::string Name; ///< "<function>#k" when batched, else "<function>@line"
  std::string Function, Key, Type, Size, Variant;
  std::vector<unsigned> Sites; ///< indices into FileReport::Sites
  std::string Decision;        ///< "batched" or "unchanged"
  Verdict Why;                 ///< why unchanged, and where, as SiteRecord::Why
  /// Batched groups: why a faster variant was not used (None: none faster).
  Reason Note = Reason::None;
  /// Serial groups of --variant=auto: why the block strategy was not used.
  Reason BlockNote = Reason::None;
  /// Batched groups whose threshold starts at 33 (plain atomics until a
  /// tuner finds that reducing pays): why.
  Reason StartNote = Reason::None;
  /// Serial groups that reuse an earlier group's key match when the same
  /// lanes call them: that group's name; "" for none.
  std::string SharesMatchWith;
  /// Serial groups of a versioned loop reduced together with its first
  /// group (one match and one tree where their keys agree): that group's
  /// name; "" for none.
  std::string ReducedWith;
  /// Reduced in strips of two iterations of its uniform-key loop.
  bool Strip = false;
  /// A butterfly written with the serial form too, chosen at run time.
  bool SerialForm = false;
};

/// A kernel under --balance=tiles: balanced across tiles, or why not.
struct KernelRecord {
  unsigned Line = 0, Column = 0;
  std::string File; ///< an included file (--edit-headers); empty for the
                    ///< report's file
  std::string Function;
  std::string Decision; ///< "balanced" or "unchanged"
  Verdict Why;          ///< why unchanged, and where
  unsigned Launches = 0; ///< launch statements wrapped
  /// Of those, the launches that draw the tiles heaviest first, by the
  /// trip count of the loop at line CostLine.
  unsigned OrderedLaunches = 0;
  unsigned CostLine = 0;
};

struct FileReport {
  std::string File;
  Reason FileReason = Reason::None; ///< e.g. AlreadyRewritten
  bool Changed = false;             ///< the file itself
  /// The headers (--edit-headers) this file's rewrite edited.
  std::vector<std::string> EditedHeaders;
  std::vector<SiteRecord> Sites;
  std::vector<GroupRecord> Groups;
  /// With --balance=tiles: every kernel defined in the file or in a header
  /// it may edit, and every kernel of another header that they launch.
  std::vector<KernelRecord> Kernels;
  /// Set when Clang reported errors inside functions and the file was
  /// rewritten around them: Clang's first error (its message as Text), and
  /// how many functions outside system headers were left as written for
  /// them (their sites say Reason::ParseErrorInFunction).
  std::optional<ReasonPlace> ParseError;
  unsigned UnparsedFunctionCount = 0;
};

/// Human-readable report, one line per site and per group (no places).
std::string renderTextReport(llvm::ArrayRef<FileReport> Files);
/// {"files":[{"file":..., "changed":..., "sites":[...], "groups":[...]}]};
/// a site or group whose reason has a place holds it as "note": {"line":...,
/// "column":..., "message":...} ("file" too when not the report's file).
std::string renderJsonReport(llvm::ArrayRef<FileReport> Files);

} // namespace distwar

#endif
