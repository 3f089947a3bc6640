//===- HeaderCopies.cpp - where the copy of an allowed header goes --------===//

#include "Parse/HeaderCopies.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace distwar {

/// Deeper chains of relative #includes are not followed: the copy keeps
/// its path below the entry.
static constexpr unsigned kMaxIncludeDepth = 16;

/// \p Path with `.` and `..` resolved and `/` separators; none when it
/// would leave the directory it is relative to.
static std::optional<std::string> normalized(llvm::StringRef Path) {
  llvm::SmallString<128> Norm(Path);
  llvm::sys::path::remove_dots(Norm, /*remove_dot_dot=*/true);
  std::string Out = llvm::sys::path::convert_to_slash(Norm);
  if (Out.empty() || llvm::StringRef(Out).starts_with("..") ||
      llvm::sys::path::is_absolute(Out))
    return std::nullopt;
  return Out;
}

std::optional<std::string> HeaderCopies::pathOf(const clang::FileEntry *File,
                                                llvm::StringRef Path) {
  return pathOf(File, Path, 0);
}

std::optional<std::string> HeaderCopies::pathOf(const clang::FileEntry *File,
                                                llvm::StringRef Path,
                                                unsigned Depth) {
  if (auto It = Known.find(File); It != Known.end())
    return It->second;
  std::optional<std::string> Copy = Filter.relativePath(Path);
  if (Copy)
    if (std::optional<std::string> Agreed = agreedPath(File, Path, Depth))
      Copy = std::move(Agreed);
  Known[File] = Copy;
  return Copy;
}

std::optional<std::string>
HeaderCopies::agreedPath(const clang::FileEntry *File, llvm::StringRef Path,
                         unsigned Depth) {
  std::optional<std::string> Agreed;
  for (const ParsedFile::ResolvedInclusion &I : Inclusions) {
    if (I.File != File)
      continue;
    std::optional<std::string> Here;
    if (!I.Spelling.RelativeToIncluder) {
      Here = normalized(I.Spelling.Spelled);
      if (Here && !llvm::StringRef(llvm::sys::path::convert_to_slash(Path))
                       .ends_with("/" + *Here))
        Here.reset();
    } else if (I.IncluderFile && Depth < kMaxIncludeDepth) {
      if (std::optional<std::string> Includer =
              pathOf(I.IncluderFile, I.Spelling.Includer, Depth + 1)) {
        llvm::SmallString<128> Joined(llvm::sys::path::parent_path(
            *Includer, llvm::sys::path::Style::posix));
        llvm::sys::path::append(Joined, llvm::sys::path::Style::posix,
                                I.Spelling.Spelled);
        Here = normalized(Joined);
      }
    }
    if (!Here || (Agreed && *Agreed != *Here))
      return std::nullopt;
    Agreed = std::move(Here);
  }
  return Agreed;
}

} // namespace distwar
