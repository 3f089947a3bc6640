//===- LeadingIncludes.h - the system headers a file starts with -*- C++ -*-===//
//
// A kernel file that first includes its project's own header (a "Common.h"
// or "Config.h") reaches torch through it: the file's preamble (Preamble.h)
// ends at that header, so torch's headers would be parsed on every run.
// What the preprocessor meets before the first declaration, in the file and
// in the user's headers it includes there, is directives only; the system
// headers among them are what a precompiled header can hold for it
// (HoistedHeaders.h checks, during the parse, that holding them there
// changes nothing).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_LEADINGINCLUDES_H
#define DISTWAR_PARSE_LEADINGINCLUDES_H

#include "Parse/HoistedHeaders.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class HeaderSearchOptions;
class PreprocessorOptions;
class Token;
} // namespace clang

namespace distwar {

/// Calls \p OnToken with each token of \p Code outside a directive (raw:
/// identifiers unresolved) and \p OnDirective with each directive's name
/// and the rest of its line; stops once either returns false.
void scanDirectives(
    llvm::StringRef Code,
    llvm::function_ref<bool(const clang::Token &)> OnToken,
    llvm::function_ref<bool(llvm::StringRef Name, llvm::StringRef Rest)>
        OnDirective);

/// The header an `#include` names, given the directive's text after its
/// name: nullopt for a computed name.
struct IncludedName {
  llvm::StringRef Name;
  bool Angled = false;
};
std::optional<IncludedName> includedName(llvm::StringRef Rest);

/// Where an `#include` of \p Name from a file in \p IncluderDir is found, as
/// Clang searches (the includer's directory and -iquote for a quoted name,
/// then -I, then the system directories, then -idirafter).
struct FoundHeader {
  std::string Path;
  bool InSystemDirectory = false;
};
std::optional<FoundHeader> findHeader(llvm::StringRef Name, bool Angled,
                                      llvm::StringRef IncluderDir,
                                      const clang::HeaderSearchOptions &Search,
                                      llvm::vfs::FileSystem &FS);

/// The headers found in a system directory that the file \p MainPath, of
/// text \p Code, includes before its first declaration, directly or
/// through the user's headers it includes there, in the order the
/// preprocessor meets them, and the `#define`s made between them. Conditions
/// are read with KnownMacros.h, from \p PP's macros on; a block whose
/// condition is not known is skipped. The walk ends at the first token that
/// is not a directive, at a computed include or #include_next, and at a
/// header it cannot find.
struct LeadingIncludes {
  /// The headers, and the `#define`s before the last of them that can be
  /// made where they are made: those of a macro defined once there, in a
  /// block the walk read, not an include guard, not tested before.
  Hoisting Hoisted;
  /// The other macros the walk saw defined or undefined before the last
  /// header, in the blocks whose condition it could not read too: should the
  /// headers spell one, they cannot be moved first.
  std::vector<std::string> MacrosBefore;
};
LeadingIncludes leadingSystemIncludes(llvm::StringRef MainPath,
                                      llvm::StringRef Code,
                                      const clang::HeaderSearchOptions &Search,
                                      const clang::PreprocessorOptions &PP,
                                      llvm::vfs::FileSystem &FS);

} // namespace distwar

#endif
