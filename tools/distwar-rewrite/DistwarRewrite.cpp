//===- DistwarRewrite.cpp - command line of distwar-rewrite ---------------===//
//
// distwar-rewrite FILE... -- <compiler flags>
// Every result is computed before anything is written, so an error in any
// file leaves every output and input untouched.
//
//===----------------------------------------------------------------------===//

#include "distwar/CudaArgs.h"
#include "distwar/HeaderFilter.h"
#include "distwar/PchCache.h"
#include "distwar/Rewriter.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstdlib>

using namespace llvm;
using namespace distwar;

static cl::OptionCategory Category("distwar-rewrite options");
static cl::extrahelp
    CommonHelp(clang::tooling::CommonOptionsParser::HelpMessage);
static cl::extrahelp MoreHelp(
    "\nRewrites gradient atomicAdd groups of CUDA kernels into batched warp "
    "reductions.\nExample: distwar-rewrite kernel.cu -o out.cu -- "
    "-Iinclude\n");

static cl::opt<std::string> OutputFile("o", cl::desc("Write the result here"),
                                       cl::value_desc("file"),
                                       cl::cat(Category));
static cl::opt<bool> InPlace("i",
                             cl::desc("Edit files in place (only when "
                                      "something changes)"),
                             cl::cat(Category));
static cl::opt<std::string>
    ReportFormat("report", cl::ValueOptional,
                 cl::desc("Print a report to stderr: --report (text) or "
                          "--report=json"),
                 cl::value_desc("text|json"), cl::cat(Category));
static cl::opt<std::string>
    ReportFile("report-file", cl::desc("Write the report here, not stderr"),
               cl::value_desc("file"), cl::cat(Category));
static cl::opt<Variant> VariantOpt(
    "variant", cl::desc("Reduction to emit"), cl::init(Variant::Auto),
    cl::values(clEnumValN(Variant::Serial, "serial",
                          "match-any grouping, leader gathers every field"),
               clEnumValN(Variant::Butterfly, "butterfly",
                          "every lane reaches a warp-wide reduction where "
                          "provable (else serial)"),
               clEnumValN(Variant::Floor, "floor",
                          "replace atomicAdd by a no-op (benchmark floor)"),
               clEnumValN(Variant::Auto, "auto",
                          "per group: butterfly, serial or left alone")),
    cl::cat(Category));
static cl::opt<std::string> CudaPath("cuda-path",
                                     cl::desc("CUDA SDK root (default: "
                                              "$CUDA_PATH, /usr/local/cuda)"),
                                     cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> GpuArch("cuda-gpu-arch",
                                    cl::desc("GPU architecture (default "
                                             "sm_90)"),
                                    cl::init("sm_90"), cl::cat(Category));
static cl::opt<bool> NoCudaSdk(
    "no-cuda-sdk",
    cl::desc("Parse without CUDA SDK headers (tests supply declarations)"),
    cl::cat(Category));

static cl::list<std::string> EditHeaders(
    "edit-headers", cl::CommaSeparated,
    cl::desc("Also edit the device functions of these included files, or of "
             "the files below these directories (repeatable, comma-separated; "
             "system headers never). Other headers are reported, not edited"),
    cl::value_desc("file|dir"), cl::cat(Category));
static cl::opt<std::string> HeaderOutputDir(
    "header-output-dir",
    cl::desc("With -o or stdout: write each edited header to DIR/<its path "
             "relative to the --edit-headers entry> (and the other allowed "
             "headers it read, unchanged, so that their includes resolve), "
             "leaving the originals alone; put DIR first on the include "
             "path. With -i headers are edited in place"),
    cl::value_desc("dir"), cl::cat(Category));

static cl::opt<std::string> DepFile(
    "depfile",
    cl::desc("Write a make-style depfile: the output (-o, or each input "
             "with -i or on stdout) depends on every file the parse read "
             "(edited headers are written along, not named as targets)"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> CacheDirOpt(
    "cache-dir",
    cl::desc("Keep precompiled CUDA headers here (default: "
             "$DISTWAR_CACHE_DIR, $XDG_CACHE_HOME/distwar, ~/.cache/distwar)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> NoCache("no-cache",
                             cl::desc("Parse the CUDA headers with every file "
                                      "(no precompiled headers)"),
                             cl::cat(Category));
static cl::opt<bool>
    TimeReport("time-report",
               cl::desc("Print the time each file took to stderr"),
               cl::cat(Category));

static int fail(const Twine &Message) {
  errs() << "distwar-rewrite: error: " << Message << "\n";
  return 1;
}

/// The directory holding distwar/runtime.cuh: the source tree's, or the
/// installed one next to the tool.
static std::string runtimeIncludeDir(const char *Argv0) {
  auto HasHeader = [](StringRef Dir) {
    SmallString<256> H(Dir);
    sys::path::append(H, "distwar", "runtime.cuh");
    return sys::fs::exists(H);
  };
  if (HasHeader(DISTWAR_RUNTIME_INCLUDE_DIR))
    return DISTWAR_RUNTIME_INCLUDE_DIR;
  std::string Exe = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&runtimeIncludeDir));
  SmallString<256> Installed(sys::path::parent_path(Exe));
  sys::path::append(Installed, "..", "include");
  if (HasHeader(Installed))
    return std::string(Installed);
  return DISTWAR_RUNTIME_INCLUDE_DIR;
}

/// Writes \p Data to \p Path through a temporary file in the same directory
/// and a rename, so readers never see a partial file.
static Error writeAtomically(StringRef Path, StringRef Data) {
  SmallString<256> Model(Path);
  Model += ".distwar-%%%%%%";
  int FD;
  SmallString<256> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Temp))
    return createStringError(EC, "cannot create a file next to '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Data;
    OS.close();
    if (OS.has_error()) {
      sys::fs::remove(Temp);
      return createStringError(OS.error(), "cannot write '%s'", Temp.c_str());
    }
  }
  // Keep the original's permissions.
  if (auto Perms = sys::fs::getPermissions(Path))
    sys::fs::setPermissions(Temp, *Perms);
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return createStringError(EC, "cannot replace '%s': %s", Path.str().c_str(),
                             EC.message().c_str());
  }
  return Error::success();
}

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

/// Removes the include directories that are \p Dir (the edited headers'
/// output, which builds put first on the include path): the parse must read
/// the originals, or it would see its own output and the depfile would name
/// the copies instead of the headers the user edits.
static void dropIncludeDir(std::vector<std::string> &Flags, StringRef Dir,
                           StringRef WorkDir) {
  auto Normal = [&](StringRef P) {
    SmallString<256> A(P);
    if (!sys::path::is_absolute(A) && !WorkDir.empty()) {
      SmallString<256> B(WorkDir);
      sys::path::append(B, A);
      A = B;
    }
    sys::fs::make_absolute(A);
    sys::path::remove_dots(A, /*remove_dot_dot=*/true);
    return std::string(A);
  };
  std::string Target = Normal(Dir);
  std::vector<std::string> Kept;
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef F = Flags[I];
    bool Drop = false;
    for (StringRef Opt : {"-I", "-iquote", "-isystem", "-idirafter"}) {
      if (F == Opt && I + 1 < Flags.size() && Normal(Flags[I + 1]) == Target) {
        ++I;
        Drop = true;
      } else if (F.size() > Opt.size() && F.starts_with(Opt) &&
                 Normal(F.drop_front(Opt.size())) == Target) {
        Drop = true;
      }
      if (Drop)
        break;
    }
    if (!Drop)
      Kept.push_back(Flags[I]);
  }
  Flags = std::move(Kept);
}

/// Writes \p Data to \p Path unless the file already holds exactly it, so
/// that a header several translation units write is not touched again (its
/// time stamp drives rebuilds). Creates the missing directories.
static Error writeIfDifferent(StringRef Path, StringRef Data) {
  if (auto Old = MemoryBuffer::getFile(Path, /*IsText=*/false))
    if ((*Old)->getBuffer() == Data)
      return Error::success();
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(Path)))
    return createStringError(EC, "cannot create the directory of '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  return writeAtomically(Path, Data);
}

namespace {
struct HeaderWrite {
  std::string Destination, Text;
};
} // namespace

/// Where each edited header of \p Results goes: in place with -i, else under
/// --header-output-dir. A header rewritten differently by two inputs, a
/// destination that is the original or shared by two headers, or a header
/// edited without a place to write it is an error.
static Error planHeaderWrites(ArrayRef<RewriteResult> Results,
                              ArrayRef<std::string> Inputs,
                              std::vector<HeaderWrite> &Writes) {
  StringMap<std::pair<const HeaderOutput *, size_t>> ByPath;
  StringMap<std::string> ByDestination;
  for (size_t I = 0; I < Results.size(); ++I) {
    for (const HeaderOutput &H : Results[I].Headers) {
      if (InPlace && !H.Edited)
        continue;
      auto [It, New] = ByPath.try_emplace(H.Path, &H, I);
      if (!New) {
        if (It->second.first->Output != H.Output)
          return createStringError(
              inconvertibleErrorCode(),
              "%s:%u: this header is rewritten differently for '%s' and "
              "'%s' (a macro or flag differs between them); rewrite them in "
              "separate runs with separate --header-output-dir, or leave the "
              "header out of --edit-headers",
              H.Path.c_str(), H.FirstLine, Inputs[It->second.second].c_str(),
              Inputs[I].c_str());
        continue;
      }
      SmallString<256> Destination;
      if (InPlace) {
        Destination = H.Path;
      } else if (HeaderOutputDir.empty()) {
        return createStringError(
            inconvertibleErrorCode(),
            "%s:%u: device functions of this header would be edited; with -o "
            "or stdout, --header-output-dir must say where the edited copy "
            "goes (or use -i)",
            H.Path.c_str(), H.FirstLine);
      } else {
        Destination = HeaderOutputDir;
        sys::fs::make_absolute(Destination);
        sys::path::append(Destination, sys::path::Style::posix, H.RelativePath);
        sys::path::native(Destination);
        sys::path::remove_dots(Destination, /*remove_dot_dot=*/true);
        if (sys::fs::equivalent(Destination, H.Path) ||
            Destination.str() == H.Path)
          return createStringError(inconvertibleErrorCode(),
                                   "--header-output-dir: the edited copy of "
                                   "'%s' would overwrite the original",
                                   H.Path.c_str());
        // The copy is found only where an #include spells its path below
        // the output directory.
        for (const std::string &Spelled : H.IncludedAs) {
          if (!H.Edited)
            break;
          SmallString<128> Norm(Spelled);
          sys::path::remove_dots(Norm, /*remove_dot_dot=*/true);
          if (sys::path::convert_to_slash(Norm) != H.RelativePath)
            return createStringError(
                inconvertibleErrorCode(),
                "%s:%u: this header is included as \"%s\", but its edited "
                "copy would be '%s': name the directory that the #include is "
                "relative to in --edit-headers",
                H.Path.c_str(), H.FirstLine, Spelled.c_str(),
                Destination.c_str());
        }
      }
      auto [D, Fresh] = ByDestination.try_emplace(Destination, H.Path);
      if (!Fresh)
        return createStringError(
            inconvertibleErrorCode(),
            "--header-output-dir: '%s' and '%s' would both be written to "
            "'%s'; name their directories in --edit-headers rather than the "
            "files",
            D->second.c_str(), H.Path.c_str(), Destination.c_str());
      Writes.push_back({std::string(Destination), H.Output});
    }
  }
  return Error::success();
}

static std::string depFileText(ArrayRef<std::string> Targets,
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

int main(int argc, const char **argv) {
  // @file anywhere on the command line, the tool's options and the compiler
  // flags after "--" alike (GNU quoting, as CMake and GCC write them).
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 64> Args(argv, argv + argc);
  cl::ExpansionContext Expander(Alloc, cl::TokenizeGNUCommandLine);
  Expander.setRelativeNames(true);
  if (Error E = Expander.expandResponseFiles(Args))
    return fail(toString(std::move(E)));
  int ExpandedArgc = Args.size();
  auto Parsed = clang::tooling::CommonOptionsParser::create(
      ExpandedArgc, Args.data(), Category, cl::OneOrMore);
  if (!Parsed) {
    std::string Message = toString(Parsed.takeError());
    StringRef Trimmed = StringRef(Message).trim();
    errs() << (Trimmed.starts_with("distwar-rewrite")
                   ? ""
                   : "distwar-rewrite: error: ")
           << Trimmed << "\n";
    return 1;
  }
  const std::vector<std::string> &Files = Parsed->getSourcePathList();
  if (!OutputFile.empty() && Files.size() != 1)
    return fail("-o takes exactly one input file, got " + Twine(Files.size()));
  if (!OutputFile.empty() && InPlace)
    return fail("-o and -i exclude each other");
  if (!DepFile.empty() && OutputFile.empty() && !InPlace)
    return fail("--depfile needs -o or -i (it names the file written)");
  if (!HeaderOutputDir.empty() && EditHeaders.empty())
    return fail("--header-output-dir needs --edit-headers");
  if (!HeaderOutputDir.empty() && InPlace)
    return fail("--header-output-dir and -i exclude each other (-i edits "
                "headers in place)");
  Expected<HeaderFilter> Headers = HeaderFilter::create(EditHeaders);
  if (!Headers)
    return fail(toString(Headers.takeError()));
  if (!HeaderOutputDir.empty()) {
    // Copies inside an allowed directory would replace originals, or be
    // taken for originals by the next run.
    SmallString<256> Probe(HeaderOutputDir);
    sys::path::append(Probe, "distwar-probe.h");
    if (Headers->relativePath(Probe))
      return fail("--header-output-dir '" + HeaderOutputDir +
                  "' lies inside an --edit-headers entry; choose a directory "
                  "outside the headers it copies");
  }
  bool WantReport = ReportFormat.getNumOccurrences() > 0;
  if (WantReport && ReportFormat != "" && ReportFormat != "text" &&
      ReportFormat != "json")
    return fail("--report takes 'text' or 'json', not '" + ReportFormat + "'");

  std::string CacheDir = NoCache ? ""
                         : CacheDirOpt.getNumOccurrences()
                             ? CacheDirOpt.getValue()
                             : defaultCacheDir();
  CudaOptions Cuda;
  Cuda.NoCudaSdk = NoCudaSdk;
  Cuda.ResourceDir = DISTWAR_CLANG_RESOURCE_DIR;
  Cuda.RuntimeIncludeDir = runtimeIncludeDir(argv[0]);
  if (!NoCudaSdk) {
    const char *Env = std::getenv("CUDA_PATH");
    Expected<std::string> Found = findCudaPath(CudaPath, Env ? Env : "");
    if (!Found)
      return fail(toString(Found.takeError()));
    Cuda.CudaPath = *Found;
  }

  std::vector<RewriteResult> Results;
  std::vector<std::string> Paths;
  for (const std::string &File : Files) {
    SmallString<256> Abs(File);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    auto Buffer = MemoryBuffer::getFile(Abs, /*IsText=*/true);
    if (!Buffer)
      return fail("cannot read '" + File + "': " + Buffer.getError().message());

    std::vector<clang::tooling::CompileCommand> Commands =
        Parsed->getCompilations().getCompileCommands(Abs);
    std::vector<std::string> UserFlags;
    CudaOptions FileCuda = Cuda;
    if (!Commands.empty()) {
      std::string Arch;
      Expected<std::vector<std::string>> Flags = stripCompileCommand(
          Commands.front().CommandLine, Abs, Arch, Commands.front().Directory);
      if (!Flags)
        return fail("compile command of '" + File +
                    "': " + toString(Flags.takeError()));
      UserFlags = std::move(*Flags);
      if (!Arch.empty() && GpuArch.getNumOccurrences() == 0)
        FileCuda.GpuArch = Arch;
      if (!Commands.front().Directory.empty())
        UserFlags.push_back("-working-directory=" + Commands.front().Directory);
    }
    if (GpuArch.getNumOccurrences())
      FileCuda.GpuArch = GpuArch;
    if (!HeaderOutputDir.empty())
      dropIncludeDir(UserFlags, HeaderOutputDir,
                     Commands.empty() ? "" : Commands.front().Directory);

    auto Start = std::chrono::steady_clock::now();
    FrontEnd Front(frontEndArgs(FileCuda, UserFlags));
    Front.CacheDir = CacheDir;
    Expected<RewriteResult> R =
        rewriteSource(Abs, (*Buffer)->getBuffer(), Front, VariantOpt,
                      Headers->empty() ? nullptr : &*Headers);
    if (TimeReport)
      errs() << "distwar-rewrite: " << File << ": "
             << std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - Start)
                    .count()
             << " ms (" << (*Buffer)->getBuffer().count('\n')
             << " lines, parse and rewrite)\n";
    if (!R) {
      errs() << "distwar-rewrite: error: " << toString(R.takeError());
      return 1;
    }
    Results.push_back(std::move(*R));
    Paths.push_back(std::string(Abs));
  }

  // Where each edited header goes; checked before anything is written.
  std::vector<HeaderWrite> HeaderWrites;
  if (Error E = planHeaderWrites(Results, Paths, HeaderWrites))
    return fail(toString(std::move(E)));

  // Everything parsed: now write.
  for (const HeaderWrite &W : HeaderWrites) {
    if (Error E = writeIfDifferent(W.Destination, W.Text))
      return fail(toString(std::move(E)));
  }
  for (size_t I = 0; I < Results.size(); ++I) {
    const RewriteResult &R = Results[I];
    if (InPlace) {
      if (R.Report.Changed)
        if (Error E = writeAtomically(Paths[I], R.Output))
          return fail(toString(std::move(E)));
    } else if (!OutputFile.empty()) {
      if (Error E = writeAtomically(OutputFile, R.Output))
        return fail(toString(std::move(E)));
    } else {
      outs() << R.Output;
    }
  }
  if (!DepFile.empty()) {
    std::vector<std::string> Targets, Prerequisites;
    if (!OutputFile.empty()) {
      SmallString<256> Out(OutputFile);
      sys::fs::make_absolute(Out);
      Targets.push_back(std::string(Out));
    } else {
      Targets = Paths;
    }
    // Edited headers are not targets: Ninja refuses a depfile that names an
    // output its rule does not declare, and the copies' names are known only
    // once the tool ran. The originals are prerequisites (the parse read
    // them), so a change re-runs this rewrite, which rewrites the copies.
    StringSet<> Seen;
    for (const RewriteResult &R : Results)
      for (const std::string &F : R.FilesRead) {
        // Header search paths hold '..' after symlinks (GCC's include dir
        // seen from Clang's), which lexical '..' removal gets wrong: ask the
        // file system, and keep the spelling only for a file that is gone.
        SmallString<256> Abs;
        if (sys::fs::real_path(F, Abs)) {
          Abs = F;
          sys::fs::make_absolute(Abs);
        }
        if (Seen.insert(Abs).second)
          Prerequisites.push_back(std::string(Abs));
      }
    if (Error E = writeAtomically(DepFile, depFileText(Targets, Prerequisites)))
      return fail(toString(std::move(E)));
  }
  if (WantReport) {
    std::vector<FileReport> Reports;
    for (const RewriteResult &R : Results)
      Reports.push_back(R.Report);
    std::string Text = ReportFormat == "json" ? renderJsonReport(Reports)
                                              : renderTextReport(Reports);
    if (ReportFile.empty()) {
      errs() << Text;
    } else if (Error E = writeAtomically(ReportFile, Text)) {
      return fail(toString(std::move(E)));
    }
  }
  return 0;
}
