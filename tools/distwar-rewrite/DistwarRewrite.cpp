//===- DistwarRewrite.cpp - command line of distwar-rewrite ---------------===//
//
// distwar-rewrite FILE... -- <compiler flags>
// Every result is computed before anything is written, so an error in any
// file leaves every output and input untouched.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "ConfigFile.h"
#include "DepFile.h"
#include "DiagnosticPrinter.h"
#include "ExportFixes.h"
#include "HeaderWrites.h"
#include "Options.h"
#include "OutputFiles.h"
#include "ReasonCatalogue.h"
#include "distwar-rewrite/CudaArgs.h"
#include "distwar-rewrite/HeaderFilter.h"
#include "distwar-rewrite/Paths.h"
#include "distwar-rewrite/PchCache.h"
#include "distwar-rewrite/Rewriter.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstdlib>

using namespace llvm;
using namespace distwar;

/// The compiler flags of .distwar.yaml's ExtraArgs, after every input's own.
static std::vector<std::string> ConfigArgs;

/// The rewritten files go to standard output (no -o, or -o -, and no -i).
static bool toStdout() {
  return !InPlace && (OutputFile.empty() || OutputFile == "-");
}

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

static std::optional<Variant> parseVariant(StringRef Name) {
  return StringSwitch<std::optional<Variant>>(Name)
      .Case("auto", Variant::Auto)
      .Case("butterfly", Variant::Butterfly)
      .Case("serial", Variant::Serial)
      .Case("floor", Variant::Floor)
      .Default(std::nullopt);
}

/// The option errors that need no file: an error message, or "".
static std::string optionError(size_t Inputs) {
  if (Inputs == 0)
    return "no input files (distwar-rewrite --help tells how to name them)";
  if (Check && (!OutputFile.empty() || InPlace || !DepFile.empty()))
    return "--check writes nothing: it excludes -o, -i and --depfile";
  if (OutputFile == "-" && !DepFile.empty())
    return "--depfile needs a file to name: -o FILE or -i, not -o -";
  if (!OutputFile.empty() && Inputs != 1)
    return "-o takes exactly one input file, got " + std::to_string(Inputs);
  if (!OutputFile.empty() && InPlace)
    return "-o and -i exclude each other";
  if (!DepFile.empty() && OutputFile.empty() && !InPlace)
    return "--depfile needs -o or -i (it names the file written)";
  if (!HeaderOutputDir.empty() && EditHeaders.empty())
    return "--header-output-dir needs --edit-headers";
  if (!HeaderOutputDir.empty() && InPlace)
    return "--header-output-dir and -i exclude each other (-i edits headers "
           "in place)";
  if (BlockStrategy != "on" && BlockStrategy != "off")
    return "--block-strategy takes on or off, not '" + BlockStrategy + "'";
  if (BalanceOpt != "none" && BalanceOpt != "tiles")
    return "--balance takes none or tiles, not '" + BalanceOpt + "'";
  if (FormChoice != "run-time" && FormChoice != "rewrite-time")
    return "--form-choice takes run-time or rewrite-time, not '" + FormChoice +
           "'";
  if (!parseVariant(VariantOpt))
    return "--variant takes auto, butterfly, serial or floor, not '" +
           VariantOpt + "'";
  if (ReportFormat.getNumOccurrences() && ReportFormat != "" &&
      ReportFormat != "text" && ReportFormat != "json" &&
      ReportFormat != "diagnostics")
    return "--report takes 'text', 'json' or 'diagnostics', not '" +
           ReportFormat + "'";
  return "";
}

/// The user's flags of \p Abs: from the compilation database (nvcc flags
/// translated), or an error when -p names a database without it.
static Expected<std::vector<std::string>>
userFlags(const clang::tooling::CompilationDatabase &Database, StringRef File,
          StringRef Abs, CudaOptions &FileCuda) {
  std::vector<clang::tooling::CompileCommand> Commands =
      Database.getCompileCommands(Abs);
  std::vector<std::string> Flags;
  std::string Directory;
  if (!Commands.empty()) {
    // A command the database made up from a neighbour's is not the file's.
    if (!Commands.front().Heuristic.empty())
      return createStringError(inconvertibleErrorCode(),
                               "'%s' is not in the compilation database; "
                               "build it there, or give its flags after '--'",
                               File.str().c_str());
    std::string Arch;
    Directory = Commands.front().Directory;
    Expected<std::vector<std::string>> Stripped =
        stripCompileCommand(Commands.front().CommandLine, Abs, Arch, Directory);
    if (!Stripped)
      return createStringError(
          inconvertibleErrorCode(), "compile command of '%s': %s",
          File.str().c_str(), toString(Stripped.takeError()).c_str());
    Flags = std::move(*Stripped);
    if (!Arch.empty() && GpuArch.getNumOccurrences() == 0)
      FileCuda.GpuArch = Arch;
    if (!Directory.empty())
      Flags.push_back("-working-directory=" + Directory);
  }
  if (GpuArch.getNumOccurrences())
    FileCuda.GpuArch = GpuArch;
  llvm::append_range(Flags, ConfigArgs);
  if (!HeaderOutputDir.empty())
    dropIncludeDir(Flags, HeaderOutputDir, Directory);
  return Flags;
}

/// The front end's options shared by every file, or an error.
static Expected<CudaOptions> cudaOptions(const char *Argv0) {
  CudaOptions Cuda;
  Cuda.NoCudaSdk = NoCudaSdk;
  Cuda.ResourceDir = DISTWAR_CLANG_RESOURCE_DIR;
  Cuda.RuntimeIncludeDir = runtimeIncludeDir(Argv0);
  if (!NoCudaSdk) {
    const char *Env = std::getenv("CUDA_PATH");
    Expected<std::string> Found = findCudaPath(CudaPath, Env ? Env : "");
    if (!Found)
      return Found.takeError();
    Cuda.CudaPath = *Found;
  }
  return Cuda;
}

/// The depfile's text: the outputs depend on every file the parses read.
static std::string depFile(ArrayRef<RewriteResult> Results,
                           ArrayRef<std::string> Paths) {
  std::vector<std::string> Targets, Prerequisites;
  if (!OutputFile.empty())
    Targets.push_back(absolutePath(OutputFile));
  else
    Targets = Paths;
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
  return depFileText(Targets, Prerequisites);
}

/// Headers whose copy already holds exactly their text are not written
/// again: their time stamps drive rebuilds of every file that includes them.
static bool alreadyWritten(const HeaderWrite &W) {
  auto Old = MemoryBuffer::getFile(W.Destination, /*IsText=*/false);
  return Old && (*Old)->getBuffer() == W.Header->Output;
}

/// The files a rewrite writes: header copies, results, depfile.
static OutputFiles outputs(ArrayRef<RewriteResult> Results,
                           ArrayRef<std::string> Paths,
                           ArrayRef<HeaderWrite> HeaderWrites) {
  OutputFiles Out;
  for (const HeaderWrite &W : HeaderWrites)
    if (!alreadyWritten(W))
      Out.add({W.Destination, W.Header->Output, /*InPlace=*/bool(InPlace)});
  for (size_t I = 0; I < Results.size(); ++I) {
    if (InPlace && Results[I].Report.Changed)
      Out.add({Paths[I], Results[I].Output, /*InPlace=*/true});
    else if (!InPlace && !toStdout())
      Out.add({OutputFile, Results[I].Output});
  }
  if (!DepFile.empty())
    Out.add({DepFile, depFile(Results, Paths)});
  if (!ExportFixes.empty())
    Out.add({ExportFixes, exportFixesText(Results, Paths)});
  return Out;
}

static std::string reportText(ArrayRef<RewriteResult> Results) {
  std::vector<FileReport> Reports;
  for (const RewriteResult &R : Results)
    Reports.push_back(R.Report);
  if (ReportFormat == "diagnostics")
    return renderDiagnosticsReport(
        Reports,
        UseColor.getNumOccurrences()
            ? bool(UseColor)
            : ReportFile.empty() && sys::Process::StandardErrHasColors());
  return ReportFormat == "json" ? renderJsonReport(Reports)
                                : renderTextReport(Reports);
}

/// How outputs are laid out: where -i replaces the input, the output's
/// #line directives name no file.
static OutputLayout outputLayout() {
  OutputLayout Layout;
  Layout.Names = InPlace ? LineFileNames::Omitted : LineFileNames::Absolute;
  Layout.FormatStyle = FormatStyle;
  Layout.FallbackStyle = FallbackStyle;
  Layout.BlockStrategy = BlockStrategy == "on";
  Layout.Balance =
      BalanceOpt == "tiles" ? BlockBalance::Tiles : BlockBalance::None;
  Layout.RunTimeForm = FormChoice == "run-time";
  return Layout;
}

/// Parses and rewrites every input; the first error stops the run (its
/// message is returned, already printed).
static Error rewriteAll(clang::tooling::CommonOptionsParser &Parsed,
                        const CudaOptions &Cuda, const HeaderFilter &Headers,
                        std::vector<RewriteResult> &Results,
                        std::vector<std::string> &Paths) {
  std::string CacheDir = NoCache                           ? ""
                         : CacheDirOpt.getNumOccurrences() ? CacheDirOpt
                                                           : defaultCacheDir();
  for (const std::string &File : Parsed.getSourcePathList()) {
    std::string Abs = absolutePath(File);
    auto Buffer = MemoryBuffer::getFile(Abs, /*IsText=*/true);
    if (!Buffer)
      return createStringError(Buffer.getError(), "cannot read '%s': %s",
                               File.c_str(),
                               Buffer.getError().message().c_str());
    CudaOptions FileCuda = Cuda;
    Expected<std::vector<std::string>> Flags =
        userFlags(Parsed.getCompilations(), File, Abs, FileCuda);
    if (!Flags)
      return Flags.takeError();
    FrontEnd Front(frontEndArgs(FileCuda, *Flags));
    Front.CacheDir = CacheDir;
    Front.AlwaysParse = AlwaysParse;
    auto Start = std::chrono::steady_clock::now();
    Expected<RewriteResult> R = rewriteSource(
        Abs, (*Buffer)->getBuffer(), Front, *parseVariant(VariantOpt),
        Headers.empty() ? nullptr : &Headers, outputLayout());
    if (TimeReport)
      errs() << "distwar-rewrite: " << File << ": "
             << std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - Start)
                    .count()
             << " ms (" << (*Buffer)->getBuffer().count('\n')
             << " lines, parse and rewrite)\n";
    if (!R)
      return R.takeError();
    if (!R->Warning.empty())
      errs() << "distwar-rewrite: warning: " << R->Warning << "\n";
    Results.push_back(std::move(*R));
    Paths.push_back(Abs);
  }
  return Error::success();
}

/// --check: names each input that would change; 1 if one would.
static int checkResults(ArrayRef<RewriteResult> Results,
                        ArrayRef<std::string> Paths) {
  int Status = 0;
  for (size_t I = 0; I < Results.size(); ++I) {
    bool Headers = llvm::any_of(Results[I].Headers,
                                [](const HeaderOutput &H) { return H.Edited; });
    if (!Results[I].Report.Changed && !Headers)
      continue;
    errs() << "distwar-rewrite: " << Paths[I] << ": would be rewritten\n";
    Status = 1;
  }
  return Status;
}

/// Checks every file of \p Out and the report's, writes them all or none,
/// and prints the report where no file takes it.
static int commitOutputs(OutputFiles &Out, ArrayRef<std::string> Paths,
                         StringRef Report) {
  if (!ReportFile.empty())
    Out.add({ReportFile, Report.str()});
  if (Error E = Out.check(Paths))
    return fail(toString(std::move(E)));
  if (PauseBeforeWrite)
    errs() << "distwar-rewrite: outputs staged, pausing\n";
  if (Error E = Out.commit(PauseBeforeWrite))
    return fail(toString(std::move(E)));
  if (!Report.empty() && ReportFile.empty())
    errs() << Report;
  return 0;
}

/// --check: only the report is written; names the inputs that would change.
static int checkOnly(ArrayRef<RewriteResult> Results,
                     ArrayRef<std::string> Paths, StringRef Report) {
  OutputFiles ReportOnly;
  if (!ExportFixes.empty())
    ReportOnly.add({ExportFixes, exportFixesText(Results, Paths)});
  if (int Status = commitOutputs(ReportOnly, Paths, Report))
    return Status;
  return checkResults(Results, Paths);
}

/// Everything parsed: writes every output, or none.
static int writeAll(ArrayRef<RewriteResult> Results,
                    ArrayRef<std::string> Paths, StringRef Report) {
  std::vector<HeaderWrite> HeaderWrites;
  HeaderDestinations Where{InPlace, OutputFile, HeaderOutputDir};
  if (Error E = planHeaderWrites(Results, Paths, Where, HeaderWrites))
    return fail(toString(std::move(E)));
  OutputFiles Out = outputs(Results, Paths, HeaderWrites);
  if (int Status = commitOutputs(Out, Paths, Report))
    return Status;
  if (toStdout())
    for (const RewriteResult &R : Results)
      outs() << R.Output;
  return 0;
}

/// Applies the nearest .distwar.yaml under the command line: its variant
/// unless --variant was given, its headers unless --edit-headers was, its
/// flags after every input's. Returns the settings in effect.
static Expected<ToolConfig> applyConfig(ArrayRef<std::string> Inputs) {
  SmallString<256> Dir;
  if (!Inputs.empty())
    Dir = sys::path::parent_path(absolutePath(Inputs.front()));
  else
    sys::fs::current_path(Dir);
  Expected<ToolConfig> Config = findConfig(Dir);
  if (!Config)
    return Config.takeError();
  ConfigSettings &Settings = Config->Settings;
  if (Settings.Variant && !parseVariant(*Settings.Variant))
    return createStringError(inconvertibleErrorCode(),
                             "%s: Variant takes auto, butterfly, serial or "
                             "floor, not '%s'",
                             Config->Path.c_str(), Settings.Variant->c_str());
  if (Settings.Balance && *Settings.Balance != "none" &&
      *Settings.Balance != "tiles")
    return createStringError(inconvertibleErrorCode(),
                             "%s: Balance takes none or tiles, not '%s'",
                             Config->Path.c_str(), Settings.Balance->c_str());
  if (Settings.FormChoice && *Settings.FormChoice != "run-time" &&
      *Settings.FormChoice != "rewrite-time")
    return createStringError(inconvertibleErrorCode(),
                             "%s: FormChoice takes run-time or rewrite-time, "
                             "not '%s'",
                             Config->Path.c_str(),
                             Settings.FormChoice->c_str());
  if (Settings.Variant && !VariantOpt.getNumOccurrences())
    VariantOpt = *Settings.Variant;
  if (EditHeaders.empty())
    for (const std::string &H : Settings.EditHeaders)
      EditHeaders.push_back(H);
  if (Settings.FormatStyle && !FormatStyle.getNumOccurrences())
    FormatStyle = *Settings.FormatStyle;
  if (Settings.BlockStrategy && !BlockStrategy.getNumOccurrences())
    BlockStrategy = *Settings.BlockStrategy;
  if (Settings.Balance && !BalanceOpt.getNumOccurrences())
    BalanceOpt = *Settings.Balance;
  if (Settings.FormChoice && !FormChoice.getNumOccurrences())
    FormChoice = *Settings.FormChoice;
  ConfigArgs = Settings.ExtraArgs;
  // What is in effect, for --dump-config.
  Settings.Variant = VariantOpt;
  Settings.FormatStyle = FormatStyle;
  Settings.BlockStrategy = BlockStrategy;
  // Shown only where it balances: the dump of a project without it is the
  // same as before the key existed.
  if (BalanceOpt != "none")
    Settings.Balance = BalanceOpt;
  if (FormChoice != "rewrite-time")
    Settings.FormChoice = FormChoice;
  Settings.EditHeaders.assign(EditHeaders.begin(), EditHeaders.end());
  return Config;
}

/// Copies inside an allowed directory would replace originals, or be taken
/// for originals by the next run.
static std::string headerOutputDirError(const HeaderFilter &Headers) {
  if (HeaderOutputDir.empty())
    return "";
  SmallString<256> Probe(HeaderOutputDir);
  sys::path::append(Probe, "distwar-probe.h");
  if (!Headers.relativePath(Probe))
    return "";
  return "--header-output-dir '" + HeaderOutputDir +
         "' lies inside an --edit-headers entry; choose a directory outside "
         "the headers it copies";
}

int main(int argc, const char **argv) {
  // @file anywhere on the command line, the tool's options and the compiler
  // flags after "--" alike (GNU quoting, as CMake and GCC write them).
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  auto Args = expandCommandLine(argc, argv, Saver, Alloc);
  if (!Args)
    return fail(toString(Args.takeError()));
  int ExpandedArgc = Args->size();
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "distwar-rewrite " DISTWAR_VERSION " (LLVM " LLVM_VERSION_STRING
          ")\n";
  });
  auto Parsed = clang::tooling::CommonOptionsParser::create(
      ExpandedArgc, Args->data(), Category, cl::ZeroOrMore);
  if (!Parsed)
    return optionParserFailure(Parsed.takeError());
  if (ListReasons) {
    listReasons(outs());
    return 0;
  }
  if (Explain.getNumOccurrences())
    return explainReason(Explain, outs()) ? 0 : fail(unknownReason(Explain));
  Expected<ToolConfig> Config = applyConfig(Parsed->getSourcePathList());
  if (!Config)
    return fail(toString(Config.takeError()));
  if (DumpConfig) {
    outs() << dumpConfig(*Config);
    return 0;
  }
  if (std::string E = optionError(Parsed->getSourcePathList().size());
      !E.empty())
    return fail(E);
  Expected<HeaderFilter> Headers = HeaderFilter::create(EditHeaders);
  if (!Headers)
    return fail(toString(Headers.takeError()));
  if (std::string E = headerOutputDirError(*Headers); !E.empty())
    return fail(E);
  Expected<CudaOptions> Cuda = cudaOptions(argv[0]);
  if (!Cuda)
    return fail(toString(Cuda.takeError()));
  if (*parseVariant(VariantOpt) == Variant::Floor)
    errs() << "distwar-rewrite: warning: --variant=floor drops every "
              "gradient atomicAdd: the output computes no gradients (a "
              "benchmark's lower bound, never a build's)\n";

  std::vector<RewriteResult> Results;
  std::vector<std::string> Paths;
  if (Error E = rewriteAll(*Parsed, *Cuda, *Headers, Results, Paths))
    return fail(toString(std::move(E)));
  bool WantReport = ReportFormat.getNumOccurrences() || !ReportFile.empty();
  std::string Report = WantReport ? reportText(Results) : "";
  return Check ? checkOnly(Results, Paths, Report)
               : writeAll(Results, Paths, Report);
}
