//===- Diagnostics.h - Reason catalogue -------------------------*- C++ -*-===//
//
// Every site or group that distwar-rewrite leaves alone carries one Reason
// from Diagnostics.def, so text and JSON reports share one vocabulary.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REWRITE_DIAGNOSTICS_H
#define DISTWAR_REWRITE_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
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

/// Catalogue entry of \p R; Reason::None has empty fields.
const ReasonInfo &reasonInfo(Reason R);

/// Every reason of the catalogue, in code order (None excluded).
std::vector<Reason> allReasons();

/// The reason whose code (`DW0011`, case-insensitive) or short name
/// (`call-between`) is \p CodeOrName.
std::optional<Reason> findReason(llvm::StringRef CodeOrName);

} // namespace distwar

#endif
