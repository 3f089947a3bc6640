//===- HoistedHeaders.h - CUDA headers moved into the PCH -------*- C++ -*-===//
//
// A kernel file's own `#include <cooperative_groups.h>` or `<cub/cub.cuh>`
// costs more parse time than Clang's CUDA wrapper. PchCache.h precompiles
// such CUDA SDK headers along with the wrapper, so they are parsed before
// the file's first line instead of where it includes them; so are the
// system headers it starts with through a header of its own, such as
// torch's (LeadingIncludes.h), with the `#define`s the file makes before
// them, where it makes them. That changes nothing when nothing else the
// file says before the #include can reach them: HoistCheck verifies it
// during the parse (no other macro defined there that the headers spell, no
// name declared there that they spell nor an operator they could pick, no
// pragma, no using-directive, the replayed `#define`s made identically and
// in the same place, each header included first at file scope and
// include-guarded), and the parse is done again without them when it
// cannot.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_HOISTEDHEADERS_H
#define DISTWAR_PARSE_HOISTEDHEADERS_H

#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class HeaderSearchOptions;
class Preprocessor;
class SourceManager;
} // namespace clang

namespace distwar {

/// The `<...>` includes of \p Code at file scope, outside any conditional
/// block, that name a header of the CUDA SDK (found in one of \p Search's
/// system directories that holds the SDK's headers, before any user
/// directory), in order.
std::vector<std::string>
hoistableIncludes(llvm::StringRef Code,
                  const clang::HeaderSearchOptions &Search,
                  llvm::vfs::FileSystem &FS);

/// A `#define` the user's code makes before a hoisted header: the
/// precompiled header makes it too, where the code does, so that the headers
/// read it there as they would in the user's order.
struct HoistedDefine {
  std::string Name;
  std::string Rest;         ///< the directive's text after `define`
  size_t HeadersBefore = 0; ///< how many of the headers come before it
};

/// What a precompiled header holds besides the CUDA wrapper: headers, in
/// order, and the `#define`s between them.
struct Hoisting {
  std::vector<std::string> Headers;
  std::vector<HoistedDefine> Defines;
  bool empty() const { return Headers.empty(); }
};

/// A hoisting to try, and the macros the file's own code changes before
/// its last header without the hoisting making them too: should the headers
/// spell one of \p MacrosBefore or define one of \p UnsetBefore, the
/// parse would be refused, so it is not run.
struct HoistingChoice {
  Hoisting Hoisted;
  /// Defined or undefined there: in a block whose condition is not known,
  /// more than once, or after a condition or code spelled it.
  std::vector<std::string> MacrosBefore;
  /// Only undefined there, where not defined (glm's `#undef max`).
  std::vector<std::string> UnsetBefore;
};

/// The text a precompiled header of \p H is built from.
std::string hoistedIncludeText(const Hoisting &H);

/// Every identifier spelled in \p Buffers, sorted, one per line.
std::string spelledIdentifiers(llvm::ArrayRef<llvm::StringRef> Buffers);

/// Watches a parse through a precompiled header that holds \p Hoisted,
/// whose files spell \p Names (those first read for each header:
/// \p HeaderNames) and define \p Macros: sound() says whether the result
/// is the one of a parse that reads them where the user's files include
/// them.
class HoistCheck : public clang::PPCallbacks {
public:
  /// \p Hoisted outlives it.
  HoistCheck(clang::Preprocessor &PP, const Hoisting &Hoisted,
             std::shared_ptr<const llvm::StringSet<>> Names,
             std::shared_ptr<const llvm::StringSet<>> Macros,
             std::shared_ptr<const std::vector<llvm::StringSet<>>> HeaderNames);

  void InclusionDirective(clang::SourceLocation Hash, const clang::Token &,
                          llvm::StringRef FileName, bool IsAngled,
                          clang::CharSourceRange, clang::OptionalFileEntryRef,
                          llvm::StringRef, llvm::StringRef,
                          const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override;
  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override;
  void FileSkipped(const clang::FileEntryRef &, const clang::Token &,
                   clang::SrcMgr::CharacteristicKind) override;
  void MacroDefined(const clang::Token &Name,
                    const clang::MacroDirective *) override;
  void MacroUndefined(const clang::Token &Name, const clang::MacroDefinition &,
                      const clang::MacroDirective *) override;
  void PragmaDirective(clang::SourceLocation Loc,
                       clang::PragmaIntroducerKind) override;
  // A macro the hoisted headers define, tested or expanded before they are
  // included, reads as defined here and not there.
  void Ifdef(clang::SourceLocation, const clang::Token &Name,
             const clang::MacroDefinition &MD) override {
    used(Name, MD);
  }
  void Ifndef(clang::SourceLocation, const clang::Token &Name,
              const clang::MacroDefinition &MD) override {
    used(Name, MD);
  }
  void Elifdef(clang::SourceLocation, const clang::Token &Name,
               const clang::MacroDefinition &MD) override {
    used(Name, MD);
  }
  void Elifndef(clang::SourceLocation, const clang::Token &Name,
                const clang::MacroDefinition &MD) override {
    used(Name, MD);
  }
  void Defined(const clang::Token &Name, const clang::MacroDefinition &MD,
               clang::SourceRange) override {
    used(Name, MD);
  }
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &MD,
                    clang::SourceRange, const clang::MacroArgs *) override {
    used(Name, MD);
  }

  /// After the parse: \p Parsed are its top-level declarations.
  bool sound(llvm::ArrayRef<clang::Decl *> Parsed) const;

private:
  bool beforeLast(clang::SourceLocation Loc) const;
  bool encloses(const clang::Decl &D, clang::SourceLocation Loc) const;
  bool seenByHeaderAfter(const clang::Decl &D) const;
  void saw(llvm::StringRef Name);
  void used(const clang::Token &Name, const clang::MacroDefinition &MD);
  bool replays(llvm::StringRef Name, const clang::MacroDirective &MD) const;
  bool headersSeen(size_t Count) const;
  size_t definesBefore(size_t Header) const;

  const clang::SourceManager &SM;
  clang::Preprocessor &PP;
  const Hoisting &Hoisted;
  llvm::StringSet<> Replayed;
  size_t Matched = 0; ///< of Hoisted.Defines, those the user's code made
  std::shared_ptr<const llvm::StringSet<>> Names, Macros;
  std::shared_ptr<const std::vector<llvm::StringSet<>>> HeaderNames;
  /// The precompiled files the user's code included before the last hoisted
  /// header: their macros are defined where it uses them.
  std::set<llvm::sys::fs::UniqueID> Reached;
  clang::SourceLocation Last; ///< the last hoisted #include, once seen
  /// Where the user's code includes each hoisted header, once it has.
  std::vector<clang::SourceLocation> IncludedAt;
  size_t Seen = 0; ///< of them, those it has included
  bool ExpectSkip = false, Unsound = false;
  bool InOrder = true; ///< the headers met in the hoisted text's order
};

} // namespace distwar

#endif
