//===- Options.cpp - distwar-rewrite's command-line options ---------------===//

#include "Options.h"
#include "clang/Tooling/CommonOptionsParser.h"

using namespace llvm;

namespace distwar {

cl::OptionCategory Category("distwar-rewrite options");
static cl::extrahelp
    CommonHelp(clang::tooling::CommonOptionsParser::HelpMessage);
static cl::extrahelp MoreHelp(
    "\nRewrites gradient atomicAdd groups of CUDA kernels into batched warp "
    "reductions.\nExample: distwar-rewrite kernel.cu -o out.cu -- "
    "-Iinclude\n");

cl::opt<std::string> OutputFile("o",
                                cl::desc("Write the result here ('-': "
                                         "standard output)"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> InPlace("i",
                      cl::desc("Edit files in place (only when "
                               "something changes)"),
                      cl::cat(Category));
cl::opt<std::string>
    ReportFormat("report", cl::ValueOptional,
                 cl::desc("Print a report to stderr: --report (text), "
                          "--report=json, or --report=diagnostics (clang's "
                          "remarks and notes, with source lines)"),
                 cl::value_desc("text|json|diagnostics"), cl::cat(Category));
// clang-tidy's spelling: LLVM's own --color is registered already.
cl::opt<bool> UseColor(
    "use-color",
    cl::desc("Colours in --report=diagnostics: --use-color (always) or "
             "--use-color=false (never); unset, as clang: when stderr is a "
             "terminal and no --report-file is given"),
    cl::cat(Category));
cl::opt<std::string> ReportFile("report-file",
                                cl::desc("Write the report here, not stderr"),
                                cl::value_desc("file"), cl::cat(Category));
// A string, not an enum option: the command-line library prints a bad enum
// value on its own, before the tool can say which values there are.
cl::opt<std::string> VariantOpt(
    "variant",
    cl::desc("Reduction to emit: auto (per group: butterfly, serial or left "
             "alone), butterfly (every lane reaches a warp-wide reduction "
             "where provable, else serial), serial (match-any grouping), "
             "floor (atomicAdd replaced by a no-op, the benchmark floor)"),
    cl::init("auto"), cl::value_desc("auto|butterfly|serial|floor"),
    cl::cat(Category));
cl::opt<std::string> FormatStyle(
    "format-style",
    cl::desc("Layout of the changed lines: file (the .clang-format above the "
             "input, else --fallback-style), a clang-format style name "
             "(llvm, google, ...) or \"{Key: Value, ...}\"; inserted "
             "statements on lines of their own, #line directives keep every "
             "line of yours at its number. none: the compact form, inserted "
             "code on the lines it joins, no line moved"),
    cl::init("file"), cl::value_desc("file|<style>|none"), cl::cat(Category));
cl::opt<std::string> BlockStrategy(
    "block-strategy",
    cl::desc("on: --variant=auto may give a group whose key differs per lane "
             "a table in shared memory for the whole thread block, chosen "
             "at run time among block, warp and plain atomics; off (the "
             "default): every reduction stays within a warp"),
    cl::init("off"), cl::value_desc("on|off"), cl::cat(Category));
cl::opt<std::string> FormChoice(
    "form-choice",
    cl::desc("run-time: --variant=auto writes a butterfly group that the "
             "serial form could reduce differently with both forms, two "
             "versions of its loop, and the launch's tuner picks form and "
             "threshold on the program's own launches; rewrite-time (the "
             "default): the butterfly alone (both forms in one kernel cost "
             "registers: slower on the 3DGS backward, bench/RESULTS.md)"),
    cl::init("rewrite-time"), cl::value_desc("run-time|rewrite-time"),
    cl::cat(Category));
cl::opt<std::string> BalanceOpt(
    "balance",
    cl::desc("tiles: also turn every kernel whose blocks are independent "
             "tiles into a persistent loop over tiles drawn from a pool, and "
             "size its launches in the file for it (docs/BALANCING.md); "
             "none (the default): grids stay as launched"),
    cl::init("none"), cl::value_desc("none|tiles"), cl::cat(Category));
cl::opt<std::string> FallbackStyle(
    "fallback-style",
    cl::desc("The clang-format style when --format-style=file finds no "
             ".clang-format"),
    cl::init("llvm"), cl::value_desc("style"), cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA SDK root (default: "
                                       "$CUDA_PATH, /usr/local/cuda)"),
                              cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> GpuArch("cuda-gpu-arch",
                             cl::desc("GPU architecture (default "
                                      "sm_90)"),
                             cl::init("sm_90"), cl::cat(Category));
cl::opt<bool> NoCudaSdk(
    "no-cuda-sdk",
    cl::desc("Parse without CUDA SDK headers (tests supply declarations)"),
    cl::cat(Category));

cl::list<std::string> EditHeaders(
    "edit-headers", cl::CommaSeparated,
    cl::desc("Also edit the device functions of these included files, or of "
             "the files below these directories (repeatable, comma-separated; "
             "system headers never). Other headers are reported, not edited"),
    cl::value_desc("file|dir"), cl::cat(Category));
cl::opt<std::string> HeaderOutputDir(
    "header-output-dir",
    cl::desc("With -o or stdout: write each edited header to DIR/<its path "
             "relative to the --edit-headers entry> (and the other allowed "
             "headers it read, unchanged, so that their includes resolve), "
             "leaving the originals alone; put DIR first on the include "
             "path. With -i headers are edited in place"),
    cl::value_desc("dir"), cl::cat(Category));

cl::opt<std::string> DepFile(
    "depfile",
    cl::desc("Write a make-style depfile: the output (-o, or each input "
             "with -i or on stdout) depends on every file the parse read "
             "(edited headers are written along, not named as targets)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Also write every change (to the inputs and the headers the "
             "rewrite edits) as YAML that clang-apply-replacements applies, "
             "as clang-tidy's --export-fixes does; with --check, only it"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> CacheDirOpt(
    "cache-dir",
    cl::desc("Keep precompiled CUDA headers here (default: "
             "$DISTWAR_CACHE_DIR, $XDG_CACHE_HOME/distwar, ~/.cache/distwar)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoCache("no-cache",
                      cl::desc("Parse the CUDA headers with every file "
                               "(no precompiled headers)"),
                      cl::cat(Category));
cl::opt<unsigned> PauseBeforeWrite(
    "testing-pause-before-write", cl::Hidden,
    cl::desc("Wait this many milliseconds with every output staged, before "
             "any is renamed into place (tests of signals)"),
    cl::cat(Category));
cl::opt<bool> AlwaysParse(
    "testing-always-parse", cl::Hidden,
    cl::desc("Parse files whose tokens name nothing atomic too (tests check "
             "that skipping them changes nothing)"),
    cl::cat(Category));
cl::opt<bool> Check(
    "check",
    cl::desc("Write nothing; name each input the rewrite would change and "
             "exit 1 if there is one (a CI gate)"),
    cl::cat(Category));

cl::opt<bool> ListReasons(
    "list-reasons",
    cl::desc("Print every reason a site or group is left alone, and exit"),
    cl::cat(Category));

cl::opt<std::string>
    Explain("explain",
            cl::desc("Print what a reason (DW0011 or call-between) means, "
                     "and exit"),
            cl::value_desc("reason"), cl::cat(Category));

cl::opt<bool> DumpConfig(
    "dump-config",
    cl::desc("Print the settings in effect (the nearest .distwar.yaml above "
             "the first input, then the command line) as YAML, and exit"),
    cl::cat(Category));

cl::opt<bool> TimeReport("time-report",
                         cl::desc("Print the time each file took to stderr"),
                         cl::cat(Category));

} // namespace distwar
