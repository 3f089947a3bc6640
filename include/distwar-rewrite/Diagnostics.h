//===- Diagnostics.h - Reason catalogue -------------------------*- C++ -*-===//
//
// Every site or group that distwar-rewrite leaves alone carries one Reason
// from Diagnostics.def, so every report form shares one vocabulary; a
// Verdict adds the place of the statement that caused it, where one did.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REWRITE_DIAGNOSTICS_H
#define DISTWAR_REWRITE_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace distwar {

enum class Reason {
  None,
#define DISTWAR_REASON(Enumerator, Code, Name, Message) Enumerator,
#include "distwar-rewrite/Diagnostics.def"
};

struct ReasonInfo {
  llvm::StringRef Code;    // "DW0001"
  llvm::StringRef Name;    // "used-result"
  llvm::StringRef Message; // one sentence
};

/// The statement or directive that caused a reason (the call between a
/// group's atomics, the store, the `break`), as the report shows it.
struct ReasonPlace {
  std::string File; ///< an included file; empty for the report's file
  unsigned Line = 0, Column = 0;
  std::string Text; ///< what lies there: "this call may write memory"
};

/// A reason, and the place that caused it where one statement did. It
/// converts from and to its Reason, so that code deciding or testing only
/// the reason reads as with a plain Reason; assigning a Reason drops the
/// place.
struct Verdict {
  Reason Code = Reason::None;
  std::optional<ReasonPlace> Place;

  Verdict() = default;
  Verdict(Reason R) : Code(R) {}
  Verdict(Reason R, std::optional<ReasonPlace> P)
      : Code(R), Place(std::move(P)) {}
  operator Reason() const { return Code; }
};

/// Catalogue entry of \p R; Reason::None has empty fields.
const ReasonInfo &reasonInfo(Reason R);

/// Every reason of the catalogue, in code order (None excluded).
std::vector<Reason> allReasons();

/// The reason whose code (`DW0011`, case-insensitive) or short name
/// (`call-between`) is \p CodeOrName.
std::optional<Reason> findReason(llvm::StringRef CodeOrName);

} // namespace distwar

#endif
