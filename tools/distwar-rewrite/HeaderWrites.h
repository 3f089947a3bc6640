//===- HeaderWrites.h - where the edited headers are written ----*- C++ -*-===//
//
// An edited header is written in place (-i) or as a copy below
// --header-output-dir, at its path relative to the --edit-headers entry that
// allows it, so that the rewritten file's #include finds the copy before
// the original. Every destination is checked before anything is written.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_DISTWAR_REWRITE_HEADERWRITES_H
#define TOOLS_DISTWAR_REWRITE_HEADERWRITES_H

#include "distwar-rewrite/Rewriter.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace distwar {

struct HeaderWrite {
  const HeaderOutput *Header = nullptr;
  std::string Destination;
};

/// The options that say where outputs go.
struct HeaderDestinations {
  bool InPlace = false;   ///< -i
  std::string OutputFile; ///< -o
  std::string OutputDir;  ///< --header-output-dir
};

/// Where each edited header of \p Results goes: in place with -i, else under
/// --header-output-dir. A header rewritten differently by two inputs, a
/// destination that is the original or shared by two headers, a copy its
/// #include would not find, or a header edited without a place to write it
/// is an error.
llvm::Error planHeaderWrites(llvm::ArrayRef<RewriteResult> Results,
                             llvm::ArrayRef<std::string> Inputs,
                             const HeaderDestinations &Where,
                             std::vector<HeaderWrite> &Writes);

} // namespace distwar

#endif
