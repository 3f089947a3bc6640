//===- KnownMacros.h - #if conditions read without a preprocessor -*- C++
//-*-===//
//
// LeadingIncludes.h walks a file's leading directives without running the
// preprocessor, so it reads each conditional's condition from what it has
// met: the command line's -D and -U, the #define and #undef lines it
// took, and the few predefined macros a condition tests for the platform
// (this parse is Clang's, for the device, on Linux). A name it has not met
// is undefined when the program may define it (not reserved to the
// implementation) and no library header that might has been read; another
// is unknown, and so is any condition that depends on it. The walk is a guess
// the parse checks (HoistedHeaders.h): a wrong answer costs time, not
// correctness.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_KNOWNMACROS_H
#define DISTWAR_PARSE_KNOWNMACROS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>

namespace clang {
class PreprocessorOptions;
}

namespace distwar {

/// The identifier \p Text starts with (after blanks), or "".
llvm::StringRef leadingIdentifier(llvm::StringRef Text);

class KnownMacros {
public:
  /// The command line's macros.
  explicit KnownMacros(const clang::PreprocessorOptions &PP);

  /// A `#define` whose text after the directive's name is \p Rest.
  void define(llvm::StringRef Rest);
  /// An `#undef` of \p Rest's name.
  void undefine(llvm::StringRef Rest);
  /// A `#define` or `#undef` of \p Rest's name that may or may not apply.
  void forget(llvm::StringRef Rest);
  /// A library's header has been read: a name not met may be one it defines.
  void libraryRead() { AfterLibraries = true; }

  /// Whether the condition of the directive \p Name (`if`, `elif`, `ifdef`,
  /// `ifndef`, `elifdef`, `elifndef`), whose text after its name is \p Rest,
  /// holds; nullopt when that depends on what is not known.
  std::optional<bool> holds(llvm::StringRef Name, llvm::StringRef Rest) const;

  /// Whether \p Name is defined; nullopt when not known.
  std::optional<bool> isDefined(llvm::StringRef Name) const;
  /// \p Name's replacement text: nullopt for a function-like macro or an
  /// unknown one.
  std::optional<std::string> valueOf(llvm::StringRef Name) const;

private:
  /// Replacement texts; nullopt for a function-like macro.
  llvm::StringMap<std::optional<std::string>> Defined;
  llvm::StringSet<> Undefined, Unknown;
  bool AfterLibraries = false;
};

} // namespace distwar

#endif
