//===- ReasonCatalogue.h - --list-reasons and --explain ---------*- C++ -*-===//

#ifndef DISTWAR_TOOLS_REASONCATALOGUE_H
#define DISTWAR_TOOLS_REASONCATALOGUE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace distwar {

/// One line per reason of the catalogue: `DW0011 call-between: ...`.
void listReasons(llvm::raw_ostream &OS);

/// The code, name and meaning of the reason \p CodeOrName (a code in any
/// case, or a short name); false, printing nothing, when there is none.
bool explainReason(llvm::StringRef CodeOrName, llvm::raw_ostream &OS);

/// The error for a reason that is not in the catalogue.
std::string unknownReason(llvm::StringRef CodeOrName);

} // namespace distwar

#endif
