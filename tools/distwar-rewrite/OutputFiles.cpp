//===- OutputFiles.cpp - every file a run writes, all or none -------------===//

#include "OutputFiles.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace distwar {

static Error fileError(const Twine &Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write '" + Path + "': " + Why);
}

/// Where writing \p Path lands: the target of a link, the path itself when
/// nothing is there yet; absolute.
static std::string destination(StringRef Path) {
  SmallString<256> Real;
  if (!sys::fs::real_path(Path, Real))
    return std::string(Real);
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// The nearest directory of \p Path that exists.
static std::string existingParent(StringRef Path) {
  std::string Dir = sys::path::parent_path(Path).str();
  while (!Dir.empty() && !sys::fs::exists(Dir))
    Dir = sys::path::parent_path(Dir).str();
  return Dir;
}

static Error checkWritable(const FileToWrite &F, StringRef Dest) {
  sys::fs::file_status Status;
  if (!sys::fs::status(Dest, Status)) {
    if (sys::fs::is_directory(Status))
      return fileError(F.Path, "it is a directory");
    if (!sys::fs::is_regular_file(Status))
      return fileError(F.Path, "not a regular file");
    if (sys::fs::access(Dest, sys::fs::AccessMode::Write))
      return fileError(F.Path, "permission denied");
  }
  std::string Dir = existingParent(Dest);
  if (!sys::fs::is_directory(Dir))
    return fileError(F.Path, "'" + Dir + "' is not a directory");
  // The new text is staged in the same directory, then renamed.
  if (sys::fs::access(Dir, sys::fs::AccessMode::Write))
    return fileError(F.Path, "directory '" + Dir + "' is not writable");
  return Error::success();
}

Error OutputFiles::check(ArrayRef<std::string> Inputs) const {
  StringSet<> InputFiles, Seen;
  for (const std::string &In : Inputs)
    InputFiles.insert(destination(In));
  for (const FileToWrite &F : Files) {
    std::string Dest = destination(F.Path);
    if (!F.InPlace && InputFiles.contains(Dest))
      return createStringError(inconvertibleErrorCode(),
                               "'%s' is an input file ('%s'); inputs are "
                               "written only in place, with -i",
                               F.Path.c_str(), Dest.c_str());
    if (!Seen.insert(Dest).second)
      return createStringError(inconvertibleErrorCode(),
                               "'%s' would be written twice", F.Path.c_str());
    if (Error E = checkWritable(F, Dest))
      return E;
  }
  return Error::success();
}

namespace {

/// One output written to a file not yet in place: unnamed (O_TMPFILE) or,
/// where the file system has no such files, a unique name removed on
/// signals.
struct Staged {
  Staged() = default;
  Staged(const Staged &) = delete;
  Staged &operator=(const Staged &) = delete;

  std::string Destination;
  int FD = -1;
  std::string Named;

  ~Staged() {
    if (FD >= 0)
      ::close(FD);
    if (!Named.empty()) {
      sys::fs::remove(Named);
      sys::DontRemoveFileOnSignal(Named);
    }
  }
};

Error openStaged(Staged &S) {
  std::string Dir = sys::path::parent_path(S.Destination).str();
#ifdef O_TMPFILE
  S.FD = ::open(Dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (S.FD >= 0)
    return Error::success();
#endif
  SmallString<256> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(
          S.Destination + ".distwar-%%%%%%", S.FD, Temp))
    return fileError(S.Destination, EC.message());
  S.Named = std::string(Temp);
  sys::RemoveFileOnSignal(S.Named);
  return Error::success();
}

Error writeAll(int FD, StringRef Data, StringRef Path) {
  while (!Data.empty()) {
    ssize_t N = ::write(FD, Data.data(), Data.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return fileError(Path, std::strerror(errno));
    Data = Data.drop_front(N);
  }
  return Error::success();
}

/// The mode of the file being replaced (or the default for a new one), and
/// for an in-place write its owner too.
Error keepAttributes(const Staged &S, const FileToWrite &F) {
  struct stat Old;
  if (::stat(S.Destination.c_str(), &Old) != 0)
    return Error::success();
  if (::fchmod(S.FD, Old.st_mode & 07777) != 0)
    return fileError(F.Path, "cannot keep its mode");
  struct stat New;
  if (F.InPlace && ::fstat(S.FD, &New) == 0 &&
      (New.st_uid != Old.st_uid || New.st_gid != Old.st_gid) &&
      ::fchown(S.FD, Old.st_uid, Old.st_gid) != 0)
    return fileError(F.Path, "cannot keep its owner and group");
  return Error::success();
}

Error stage(const FileToWrite &F, Staged &S) {
  S.Destination = destination(F.Path);
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(S.Destination)))
    return fileError(F.Path, EC.message());
  if (Error E = openStaged(S))
    return E;
  if (Error E = writeAll(S.FD, F.Data, F.Path))
    return E;
  return keepAttributes(S, F);
}

/// Gives an unnamed file a unique name next to its destination.
Error nameStaged(Staged &S) {
  for (unsigned Try = 0; Try < 64; ++Try) {
    SmallString<256> Temp;
    sys::fs::createUniquePath(S.Destination + ".distwar-%%%%%%", Temp,
                              /*MakeAbsolute=*/false);
    std::string Proc = "/proc/self/fd/" + std::to_string(S.FD);
    sys::RemoveFileOnSignal(Temp);
    if (::linkat(AT_FDCWD, Proc.c_str(), AT_FDCWD, Temp.c_str(),
                 AT_SYMLINK_FOLLOW) == 0) {
      S.Named = std::string(Temp);
      return Error::success();
    }
    sys::DontRemoveFileOnSignal(Temp);
    if (errno != EEXIST)
      return fileError(S.Destination, std::strerror(errno));
  }
  return fileError(S.Destination, "no unique temporary name");
}

Error moveIntoPlace(Staged &S) {
  if (S.Named.empty())
    if (Error E = nameStaged(S))
      return E;
  if (std::error_code EC = sys::fs::rename(S.Named, S.Destination))
    return fileError(S.Destination, EC.message());
  sys::DontRemoveFileOnSignal(S.Named);
  S.Named.clear();
  return Error::success();
}

} // namespace

Error OutputFiles::commit(unsigned PauseMs) {
  std::vector<Staged> All(Files.size());
  for (size_t I = 0; I < Files.size(); ++I)
    if (Error E = stage(Files[I], All[I]))
      return E; // every staged file is removed with All
  if (PauseMs)
    std::this_thread::sleep_for(std::chrono::milliseconds(PauseMs));
  for (Staged &S : All)
    if (Error E = moveIntoPlace(S))
      return E;
  return Error::success();
}

} // namespace distwar
