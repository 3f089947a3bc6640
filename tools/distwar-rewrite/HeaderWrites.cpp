//===- HeaderWrites.cpp - where the edited headers are written ------------===//

#include "HeaderWrites.h"
#include "distwar-rewrite/Paths.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace distwar {

/// The copy of \p H below \p OutputDir, or an error when it would
/// overwrite the original.
static Expected<std::string> copyDestination(const HeaderOutput &H,
                                             StringRef OutputDir) {
  std::string Destination = absolutePath(H.RelativePath, OutputDir);
  if (sys::fs::equivalent(Destination, H.Path) || Destination == H.Path)
    return createStringError(inconvertibleErrorCode(),
                             "--header-output-dir: the edited copy of '%s' "
                             "would overwrite the original",
                             H.Path.c_str());
  return Destination;
}

/// Whether the copy of the header that \p Include reached is found where it
/// will be: its spelling is its path below the output directory, or it is
/// spelled relative to its includer, whose own copy (or -o output) sits in
/// the same layout.
static bool copyIsFound(const Inclusion &Include, const HeaderOutput &H,
                        StringRef Destination,
                        const StringMap<std::string> &Moved) {
  SmallString<128> Norm(Include.Spelled);
  sys::path::remove_dots(Norm, /*remove_dot_dot=*/true);
  if (sys::path::convert_to_slash(Norm) == H.RelativePath)
    return true;
  auto Includer = Moved.find(Include.Includer);
  if (!Include.RelativeToIncluder || Includer == Moved.end())
    return false;
  return absolutePath(Include.Spelled,
                      sys::path::parent_path(Includer->second)) == Destination;
}

/// Every allowed header of \p Results once; an error when two inputs
/// rewrite one differently.
static Error uniqueHeaders(ArrayRef<RewriteResult> Results,
                           ArrayRef<std::string> Inputs, bool InPlace,
                           std::vector<HeaderWrite> &Writes) {
  StringMap<std::pair<const HeaderOutput *, size_t>> ByPath;
  for (size_t I = 0; I < Results.size(); ++I) {
    for (const HeaderOutput &H : Results[I].Headers) {
      if (InPlace && !H.Edited)
        continue;
      auto [It, New] = ByPath.try_emplace(H.Path, &H, I);
      if (New) {
        Writes.push_back({&H, InPlace ? H.Path : ""});
        continue;
      }
      if (It->second.first->Output != H.Output)
        return createStringError(
            inconvertibleErrorCode(),
            "%s:%u: this header is rewritten differently for '%s' and "
            "'%s' (a macro or flag differs between them); rewrite them in "
            "separate runs with separate --header-output-dir, or leave the "
            "header out of --edit-headers",
            H.Path.c_str(), H.FirstLine, Inputs[It->second.second].c_str(),
            Inputs[I].c_str());
    }
  }
  return Error::success();
}

Error planHeaderWrites(ArrayRef<RewriteResult> Results,
                       ArrayRef<std::string> Inputs,
                       const HeaderDestinations &Where,
                       std::vector<HeaderWrite> &Writes) {
  if (Error E = uniqueHeaders(Results, Inputs, Where.InPlace, Writes))
    return E;
  if (Where.InPlace)
    return Error::success();
  // Where each file's copy goes: the headers', and the -o output's.
  StringMap<std::string> Moved, ByDestination;
  if (!Where.OutputFile.empty() && Inputs.size() == 1)
    Moved[Inputs.front()] = absolutePath(Where.OutputFile);
  for (HeaderWrite &W : Writes) {
    if (Where.OutputDir.empty())
      return createStringError(
          inconvertibleErrorCode(),
          "%s:%u: device functions of this header would be edited; with -o "
          "or stdout, --header-output-dir must say where the edited copy "
          "goes (or use -i)",
          W.Header->Path.c_str(), W.Header->FirstLine);
    Expected<std::string> Destination =
        copyDestination(*W.Header, Where.OutputDir);
    if (!Destination)
      return Destination.takeError();
    W.Destination = *Destination;
    Moved[W.Header->Path] = W.Destination;
  }
  for (const HeaderWrite &W : Writes) {
    for (const Inclusion &Include : W.Header->IncludedAs)
      if (W.Header->Edited &&
          !copyIsFound(Include, *W.Header, W.Destination, Moved))
        return createStringError(
            inconvertibleErrorCode(),
            "%s:%u: this header is included as \"%s\", but its edited copy "
            "would be '%s': name the directory that the #include is relative "
            "to in --edit-headers",
            W.Header->Path.c_str(), W.Header->FirstLine,
            Include.Spelled.c_str(), W.Destination.c_str());
    auto [D, Fresh] = ByDestination.try_emplace(W.Destination, W.Header->Path);
    if (!Fresh)
      return createStringError(
          inconvertibleErrorCode(),
          "--header-output-dir: '%s' and '%s' would both be written to "
          "'%s'; name their directories in --edit-headers rather than the "
          "files",
          D->second.c_str(), W.Header->Path.c_str(), W.Destination.c_str());
  }
  return Error::success();
}

} // namespace distwar
