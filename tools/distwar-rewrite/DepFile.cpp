//===- DepFile.cpp - make-style dependency files --------------------------===//

#include "DepFile.h"
#include "llvm/ADT/StringRef.h"

using llvm::ArrayRef;
using llvm::StringRef;

namespace distwar {

/// A make rule target or prerequisite: spaces, '#', '$' and ':' escaped.
static std::string escapeForMake(StringRef Path) {
  std::string Out;
  for (size_t I = 0; I < Path.size(); ++I) {
    char C = Path[I];
    if (C == ' ' || C == '#' || C == ':') {
      // Backslashes before a space are doubled, as GCC does.
      for (size_t J = I; J > 0 && Path[J - 1] == '\\'; --J)
        Out += '\\';
      Out += '\\';
    } else if (C == '$') {
      Out += '$';
    }
    Out += C;
  }
  return Out;
}

std::string depFileText(ArrayRef<std::string> Targets,
                        ArrayRef<std::string> Prerequisites) {
  std::string Text;
  for (const std::string &T : Targets)
    Text += (Text.empty() ? "" : " ") + escapeForMake(T);
  Text += ":";
  for (const std::string &P : Prerequisites)
    Text += " \\\n  " + escapeForMake(P);
  Text += "\n";
  return Text;
}

} // namespace distwar
