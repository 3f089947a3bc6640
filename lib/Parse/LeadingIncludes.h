//===- LeadingIncludes.h - the system headers a file starts with -*- C++
//-*-===//
//
// A kernel file that first includes its project's own header (a "Common.h"
// or "Config.h") reaches torch through it: the file's preamble (Preamble.h)
// ends at that header, so torch's headers would be parsed on every run.
// The system headers the file and the user's headers it includes bring in
// at file scope are what a precompiled header can hold for it, read first
// (HoistedHeaders.h checks, during the parse, that holding them there
// changes nothing: no declaration, macro or pragma before them that they
// could see).
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

/// What a precompiled header may hold for the file \p MainPath, of text
/// \p Code: the headers found in a system directory that it includes at
/// file scope, directly or through the user's headers, in the order the
/// preprocessor meets them, and the `#define`s before the last of them that
/// can be made where they are made (those of a macro defined once there, in
/// a block the walk read, its name not spelled before by a condition, such
/// as an include guard's or a default's, or by code). Conditions are read
/// with KnownMacros.h, from \p PP's macros on; a block whose condition is
/// not known is skipped. The walk ends at a computed include, an
/// #include_next, a header it cannot find, an #include inside brackets (a
/// namespace, an initializer) and one in a block it skips for not knowing
/// its condition.
///
/// The choices, widest first: every header the walk met; those met before
/// the first declaration, when fewer (a declaration before a header may be
/// one the header spells, which the parse then refuses).
std::vector<HoistingChoice>
leadingSystemIncludes(llvm::StringRef MainPath, llvm::StringRef Code,
                      const clang::HeaderSearchOptions &Search,
                      const clang::PreprocessorOptions &PP,
                      llvm::vfs::FileSystem &FS);

} // namespace distwar

#endif
