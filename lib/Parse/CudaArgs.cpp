//===- CudaArgs.cpp - Clang front-end flags for CUDA device parsing -------===//

#include "distwar-rewrite/CudaArgs.h"
#include "Parse/FrontEndFiles.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace distwar {

static bool isCudaSdk(StringRef Dir) {
  if (Dir.empty())
    return false;
  SmallString<256> A(Dir), B(Dir);
  sys::path::append(A, "include", "cuda_runtime.h");
  sys::path::append(B, "targets", "x86_64-linux", "include", "cuda_runtime.h");
  return sys::fs::exists(A) || sys::fs::exists(B);
}

Expected<std::string> findCudaPath(StringRef Explicit, StringRef EnvCudaPath) {
  if (!Explicit.empty()) {
    if (isCudaSdk(Explicit))
      return Explicit.str();
    return createStringError(inconvertibleErrorCode(),
                             "--cuda-path=" + Explicit +
                                 " is not a CUDA SDK (no cuda_runtime.h)");
  }
  if (!EnvCudaPath.empty() && isCudaSdk(EnvCudaPath))
    return EnvCudaPath.str();
  if (isCudaSdk("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  return createStringError(
      inconvertibleErrorCode(),
      "no CUDA SDK found (tried --cuda-path, CUDA_PATH" +
          (EnvCudaPath.empty() ? std::string() : "=" + EnvCudaPath.str()) +
          ", /usr/local/cuda); install CUDA or pass --cuda-path=DIR");
}

std::string cudaCcclIncludeDir(StringRef CudaPath) {
  for (const char *Rel :
       {"include/cccl", "targets/x86_64-linux/include/cccl"}) {
    SmallString<256> Dir(CudaPath);
    sys::path::append(Dir, Rel);
    if (sys::fs::is_directory(Dir))
      return std::string(Dir);
  }
  return "";
}

// nvcc flags that take a value as the next argument (or after '=').
static const StringSet<> &nvccFlagsWithValue() {
  static const StringSet<> Flags = {"-gencode",
                                    "--generate-code",
                                    "-Xcompiler",
                                    "--compiler-options",
                                    "-Xcudafe",
                                    "-Xptxas",
                                    "-Xnvlink",
                                    "--options-file",
                                    "-optf",
                                    "-ccbin",
                                    "--compiler-bindir",
                                    "--diag_suppress",
                                    "-diag-suppress",
                                    "--diag-suppress",
                                    "-maxrregcount",
                                    "--maxrregcount",
                                    "-t",
                                    "--threads",
                                    "--default-stream",
                                    "-code",
                                    "--gpu-code",
                                    "-MF",
                                    "-MT",
                                    "-MQ",
                                    "-x",
                                    "--ptxas-options",
                                    "--linker-options",
                                    "-Xlinker",
                                    "--nvlink-options",
                                    "-Xarchive",
                                    "--archive-options",
                                    "--keep-dir",
                                    "-keep-dir",
                                    "-cudart",
                                    "--cudart",
                                    "-cudadevrt",
                                    "--cudadevrt",
                                    "--split-compile",
                                    "-split-compile",
                                    "--machine",
                                    "-m",
                                    "--dependency-output",
                                    "-odir",
                                    "--output-directory",
                                    "-arch-ls",
                                    "--run-args",
                                    "-ftz",
                                    "--ftz",
                                    "-prec-div",
                                    "--prec-div",
                                    "-prec-sqrt",
                                    "--prec-sqrt",
                                    "-fmad",
                                    "--fmad",
                                    "-static-global-template-stub",
                                    "--static-global-template-stub",
                                    "--input-drive-prefix",
                                    "--dependency-drive-prefix",
                                    "--drive-prefix",
                                    "-err-no",
                                    "--display-error-number"};
  return Flags;
}

static const StringSet<> &nvccFlagsAlone() {
  static const StringSet<> Flags = {"-forward-unknown-to-host-compiler",
                                    "--forward-unknown-to-host-compiler",
                                    "-rdc=true",
                                    "-rdc=false",
                                    "--relocatable-device-code=true",
                                    "--relocatable-device-code=false",
                                    "-dc",
                                    "--expt-relaxed-constexpr",
                                    "--expt-extended-lambda",
                                    "--extended-lambda",
                                    "-lineinfo",
                                    "--use_fast_math",
                                    "-use_fast_math",
                                    "-c",
                                    "-fsyntax-only",
                                    "-MD",
                                    "-MMD",
                                    "-E",
                                    "-G",
                                    "--device-debug",
                                    "--generate-line-info",
                                    "--device-c",
                                    "--device-w",
                                    "-dw",
                                    "--device-link",
                                    "-dlink",
                                    "-dlto",
                                    "--dlink-time-opt",
                                    "--compile",
                                    "--expt-relaxed-constexpr",
                                    "-expt-relaxed-constexpr",
                                    "-expt-extended-lambda",
                                    "-extended-lambda",
                                    "--restrict",
                                    "-restrict",
                                    "--keep",
                                    "-keep",
                                    "--resource-usage",
                                    "-res-usage",
                                    "--source-in-ptx",
                                    "-src-in-ptx",
                                    "--extra-device-vectorization",
                                    "-extra-device-vectorization",
                                    "--no-host-device-initializer-list",
                                    "-nohdinitlist",
                                    "--no-host-device-move-forward",
                                    "-nohdmoveforward",
                                    "--Wno-deprecated-gpu-targets",
                                    "-Wno-deprecated-gpu-targets",
                                    "--Wno-deprecated-declarations",
                                    "--Wreorder",
                                    "-Wreorder",
                                    "--Wext-lambda-captures-this",
                                    "-Wext-lambda-captures-this",
                                    "--Wdefault-stream-launch",
                                    "-Wdefault-stream-launch",
                                    "--Wmissing-launch-bounds",
                                    "-Wmissing-launch-bounds",
                                    "--use-local-env",
                                    "-use-local-env",
                                    "-noprof",
                                    "--dont-use-profile",
                                    "--allow-unsupported-compiler",
                                    "-allow-unsupported-compiler",
                                    "--list-gpu-arch",
                                    "--list-gpu-code",
                                    "--verbose",
                                    "--dryrun",
                                    "-dryrun",
                                    "--keep-device-functions",
                                    "-keep-device-functions",
                                    "-fsyntax-only"};
  return Flags;
}

// The sm_NN of "sm_90", "compute_90", "arch=compute_90,code=sm_90".
static std::string archFrom(StringRef Value) {
  size_t Pos = Value.rfind("sm_");
  if (Pos == StringRef::npos)
    Pos = Value.rfind("compute_");
  if (Pos == StringRef::npos)
    return "";
  StringRef Rest = Value.drop_front(Pos).split('_').second;
  StringRef Digits = Rest.take_while([](char C) { return isalnum(C); });
  return Digits.empty() ? "" : "sm_" + Digits.str();
}

// nvcc's -Werror takes a kind; a plain -Werror (clang's) stays.
static bool isNvccWarningKind(StringRef V) {
  return V == "all-warnings" || V == "cross-execution-space-call" ||
         V == "reorder" || V == "default-stream-launch" ||
         V == "missing-launch-bounds" || V == "ext-lambda-captures-this" ||
         V == "deprecated-declarations";
}

/// Splices the contents of nvcc options files (--options-file F, -optf F)
/// and @files into \p Args, relative to \p Directory.
static llvm::Error expandFlagFiles(std::vector<std::string> &Args,
                                   StringRef Directory) {
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    bool Changed = false;
    std::vector<std::string> Out;
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef Arg = Args[I];
      std::string Path;
      if ((Arg == "--options-file" || Arg == "-optf") && I + 1 < Args.size())
        Path = Args[++I];
      else if (Arg.starts_with("--options-file=") || Arg.starts_with("-optf="))
        Path = Arg.split('=').second.str();
      else if (Arg.starts_with("@") && Arg.size() > 1)
        Path = Arg.drop_front().str();
      if (Path.empty()) {
        Out.push_back(Args[I]);
        continue;
      }
      // nvcc allows a comma-separated list of options files.
      SmallVector<StringRef, 2> Paths;
      StringRef(Path).split(Paths, ',', -1, false);
      if (Arg.starts_with("@"))
        Paths = {StringRef(Path)};
      for (StringRef P : Paths) {
        SmallString<256> Full(P);
        if (!Directory.empty() && sys::path::is_relative(Full)) {
          Full = Directory;
          sys::path::append(Full, P);
        }
        auto Buffer = MemoryBuffer::getFile(Full, /*IsText=*/true);
        if (!Buffer)
          return createStringError(
              Buffer.getError(), "cannot read options file '%s': %s",
              Full.c_str(), Buffer.getError().message().c_str());
        BumpPtrAllocator Alloc;
        StringSaver Saver(Alloc);
        SmallVector<const char *, 32> Tokens;
        cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
        for (const char *T : Tokens)
          Out.push_back(T);
      }
      Changed = true;
    }
    Args = std::move(Out);
    if (!Changed)
      return Error::success();
  }
  return createStringError(inconvertibleErrorCode(),
                           "options files nest more than 16 deep");
}

Expected<std::vector<std::string>>
stripCompileCommand(ArrayRef<std::string> RawCommand, StringRef File,
                    std::string &GpuArch, StringRef Directory) {
  std::vector<std::string> Command(RawCommand.begin(), RawCommand.end());
  if (Error E = expandFlagFiles(Command, Directory))
    return std::move(E);
  std::vector<std::string> Out;
  for (size_t I = Command.empty() ? 0 : 1; I < Command.size(); ++I) {
    StringRef Arg = Command[I];
    if (Arg.starts_with("-isystem=") || Arg.starts_with("-I=")) {
      // CMake writes nvcc's "-isystem=DIR".
      Out.push_back(Arg.split('=').first.str());
      Out.push_back(Arg.split('=').second.str());
      continue;
    }
    if (Arg == "-Werror" || Arg == "--Werror") {
      if (I + 1 < Command.size() && isNvccWarningKind(Command[I + 1]))
        ++I;
      else if (Arg == "-Werror")
        Out.push_back(Arg.str());
      continue;
    }
    if ((Arg.starts_with("-Werror=") || Arg.starts_with("--Werror=")) &&
        isNvccWarningKind(Arg.split('=').second.split(',').first))
      continue;
    if (Arg == "--use_fast_math" || Arg == "-use_fast_math") {
      // What nvcc defines for it; the math is not ours to change.
      Out.push_back("-D__USE_FAST_MATH__");
      continue;
    }
    if (Arg == "--std" && I + 1 < Command.size()) {
      Out.push_back("-std=" + Command[++I]);
      continue;
    }
    if (Arg.starts_with("--std=")) {
      Out.push_back(Arg.drop_front(1).str());
      continue;
    }
    if (Arg == File || sys::path::filename(Arg) == sys::path::filename(File))
      continue;
    if (Arg == "-o" || Arg == "-arch" || Arg == "--gpu-architecture") {
      if (Arg != "-o" && I + 1 < Command.size())
        if (std::string A = archFrom(Command[I + 1]); !A.empty())
          GpuArch = A;
      ++I;
      continue;
    }
    if (Arg.starts_with("-arch=") || Arg.starts_with("--gpu-architecture=") ||
        Arg.starts_with("--cuda-gpu-arch=")) {
      if (std::string A = archFrom(Arg.split('=').second); !A.empty())
        GpuArch = A;
      continue;
    }
    if (Arg.starts_with("-o") || nvccFlagsAlone().contains(Arg))
      continue;
    StringRef Name = Arg.split('=').first;
    if (nvccFlagsWithValue().contains(Name)) {
      bool ValueIsNext = Name == Arg;
      if (Name == "-gencode" || Name == "--generate-code") {
        StringRef V = !ValueIsNext             ? Arg.split('=').second
                      : I + 1 < Command.size() ? StringRef(Command[I + 1])
                                               : StringRef();
        if (std::string A = archFrom(V); !A.empty())
          GpuArch = A;
      }
      if (ValueIsNext)
        ++I;
      continue;
    }
    Out.push_back(Arg.str());
  }
  return Out;
}

static constexpr llvm::StringLiteral FrontEndDir = "/distwar-front-end/";

static std::string frontEndPath(StringRef Name) {
  return (FrontEndDir + Name).str();
}

// What nvcc's headers declare and Clang's do not, in two parts: the first is
// read before Clang's CUDA wrapper (the libstdc++ headers that it includes
// must see it), the second after it (it needs the CUDA types).
//
// libstdc++'s std::array::at, vector::at, ... throw through these host
// functions. nvcc compiles such constexpr members in __host__ __device__
// code (a warning, none with --expt-relaxed-constexpr); Clang rejects the
// reference to a host function. Device declarations of the same functions
// let Clang parse it (never called: the tool compiles nothing).
static constexpr llvm::StringLiteral NvccBeforeWrapper = R"cpp(
#ifndef DISTWAR_NVCC_BEFORE_WRAPPER
#define DISTWAR_NVCC_BEFORE_WRAPPER
namespace std {
#define DISTWAR_DEVICE_THROW(Name, ...)                                        \
  __attribute__((device, noreturn)) void Name(__VA_ARGS__);
DISTWAR_DEVICE_THROW(__throw_bad_exception, void)
DISTWAR_DEVICE_THROW(__throw_bad_alloc, void)
DISTWAR_DEVICE_THROW(__throw_bad_array_new_length, void)
DISTWAR_DEVICE_THROW(__throw_bad_cast, void)
DISTWAR_DEVICE_THROW(__throw_bad_typeid, void)
DISTWAR_DEVICE_THROW(__throw_logic_error, const char *)
DISTWAR_DEVICE_THROW(__throw_domain_error, const char *)
DISTWAR_DEVICE_THROW(__throw_invalid_argument, const char *)
DISTWAR_DEVICE_THROW(__throw_length_error, const char *)
DISTWAR_DEVICE_THROW(__throw_out_of_range, const char *)
DISTWAR_DEVICE_THROW(__throw_out_of_range_fmt, const char *, ...)
DISTWAR_DEVICE_THROW(__throw_runtime_error, const char *)
DISTWAR_DEVICE_THROW(__throw_range_error, const char *)
DISTWAR_DEVICE_THROW(__throw_overflow_error, const char *)
DISTWAR_DEVICE_THROW(__throw_underflow_error, const char *)
DISTWAR_DEVICE_THROW(__throw_bad_function_call, void)
#undef DISTWAR_DEVICE_THROW
} // namespace std
#endif
)cpp";

// nvcc's math headers (crt/math_functions.hpp) declare min and max for host
// code too; Clang's CUDA headers only for device code, so host launch code
// such as `min(n, max_threads)` would not parse: the same overloads, host
// only (Clang's device ones stay as they are). nvcc's sm_32_intrinsics.h
// declares the cache-hinted stores for every built-in type; Clang's wrapper
// has __stwt only.
static constexpr llvm::StringLiteral NvccAfterWrapper = R"cpp(
#ifndef DISTWAR_NVCC_AFTER_WRAPPER
#define DISTWAR_NVCC_AFTER_WRAPPER
#define DISTWAR_HOST_MIN_MAX(R, A, B)                                          \
  static inline __attribute__((host)) R min(A a, B b) {                        \
    return (R)a < (R)b ? (R)a : (R)b;                                          \
  }                                                                            \
  static inline __attribute__((host)) R max(A a, B b) {                        \
    return (R)a > (R)b ? (R)a : (R)b;                                          \
  }
DISTWAR_HOST_MIN_MAX(int, int, int)
DISTWAR_HOST_MIN_MAX(unsigned int, unsigned int, unsigned int)
DISTWAR_HOST_MIN_MAX(unsigned int, int, unsigned int)
DISTWAR_HOST_MIN_MAX(unsigned int, unsigned int, int)
DISTWAR_HOST_MIN_MAX(long int, long int, long int)
DISTWAR_HOST_MIN_MAX(unsigned long int, unsigned long int, unsigned long int)
DISTWAR_HOST_MIN_MAX(unsigned long int, long int, unsigned long int)
DISTWAR_HOST_MIN_MAX(unsigned long int, unsigned long int, long int)
DISTWAR_HOST_MIN_MAX(long long int, long long int, long long int)
DISTWAR_HOST_MIN_MAX(unsigned long long int, unsigned long long int,
                     unsigned long long int)
DISTWAR_HOST_MIN_MAX(unsigned long long int, long long int,
                     unsigned long long int)
DISTWAR_HOST_MIN_MAX(unsigned long long int, unsigned long long int,
                     long long int)
DISTWAR_HOST_MIN_MAX(float, float, float)
DISTWAR_HOST_MIN_MAX(double, double, double)
DISTWAR_HOST_MIN_MAX(double, float, double)
DISTWAR_HOST_MIN_MAX(double, double, float)
#undef DISTWAR_HOST_MIN_MAX
#define DISTWAR_STORES(T)                                                      \
  __attribute__((device)) void __stwb(T *, T);                                 \
  __attribute__((device)) void __stcg(T *, T);                                 \
  __attribute__((device)) void __stcs(T *, T);
DISTWAR_STORES(long) DISTWAR_STORES(unsigned long) DISTWAR_STORES(char)
DISTWAR_STORES(signed char) DISTWAR_STORES(short) DISTWAR_STORES(int)
DISTWAR_STORES(long long) DISTWAR_STORES(char2) DISTWAR_STORES(char4)
DISTWAR_STORES(short2) DISTWAR_STORES(short4) DISTWAR_STORES(int2)
DISTWAR_STORES(int4) DISTWAR_STORES(longlong2) DISTWAR_STORES(unsigned char)
DISTWAR_STORES(unsigned short) DISTWAR_STORES(unsigned int)
DISTWAR_STORES(unsigned long long) DISTWAR_STORES(uchar2)
DISTWAR_STORES(uchar4) DISTWAR_STORES(ushort2) DISTWAR_STORES(ushort4)
DISTWAR_STORES(uint2) DISTWAR_STORES(uint4) DISTWAR_STORES(ulonglong2)
DISTWAR_STORES(float) DISTWAR_STORES(double) DISTWAR_STORES(float2)
DISTWAR_STORES(float4) DISTWAR_STORES(double2)
#undef DISTWAR_STORES
#endif
)cpp";

void addFrontEndFiles(llvm::vfs::InMemoryFileSystem &FS) {
  FS.addFile(frontEndBeforeWrapper(), 0,
             MemoryBuffer::getMemBuffer(NvccBeforeWrapper));
  FS.addFile(frontEndPath("nvcc_after_wrapper.h"), 0,
             MemoryBuffer::getMemBuffer(NvccAfterWrapper));
  FS.addFile(frontEndPchMain(), 0, MemoryBuffer::getMemBuffer(""));
}

bool isFrontEndFile(StringRef Path) { return Path.starts_with(FrontEndDir); }

std::string frontEndBeforeWrapper() {
  return frontEndPath("nvcc_before_wrapper.h");
}

std::string frontEndPchMain() { return frontEndPath("pch_main.cu"); }

std::string frontEndHoistedMain(StringRef Text) {
  return frontEndPath("pch_hoisted_main-" + llvm::utohexstr(xxh3_64bits(Text)) +
                      ".cu");
}

std::string frontEndFileText() {
  return (NvccBeforeWrapper + NvccAfterWrapper).str();
}

std::vector<std::string> frontEndArgs(const CudaOptions &Options,
                                      ArrayRef<std::string> UserFlags) {
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=" + Options.GpuArch,
                                   "-std=c++17",
                                   "-Wno-unknown-cuda-version",
                                   "-Wno-c++11-narrowing"};
  if (!Options.ResourceDir.empty())
    Args.push_back("-resource-dir=" + Options.ResourceDir);
  if (Options.NoCudaSdk) {
    Args.insert(Args.end(), {"-nocudainc", "-nocudalib"});
  } else {
    Args.push_back("--cuda-path=" + Options.CudaPath);
    std::string Cccl = cudaCcclIncludeDir(Options.CudaPath);
    if (!Cccl.empty())
      Args.push_back("-isystem" + Cccl);
    // The driver puts them after Clang's wrapper; the parse moves the first
    // before it.
    Args.insert(Args.end(), {"-include", frontEndBeforeWrapper(), "-include",
                             frontEndPath("nvcc_after_wrapper.h")});
  }
  if (!Options.RuntimeIncludeDir.empty())
    Args.push_back("-isystem" + Options.RuntimeIncludeDir); // not the user's
  Args.insert(Args.end(), UserFlags.begin(), UserFlags.end());
  return Args;
}

} // namespace distwar
