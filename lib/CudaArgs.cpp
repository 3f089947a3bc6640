//===- CudaArgs.cpp - Clang front-end flags for CUDA device parsing -------===//

#include "distwar/CudaArgs.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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
                                    "-x"};
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
                                    "--device-debug"};
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

std::vector<std::string> stripCompileCommand(ArrayRef<std::string> Command,
                                             StringRef File,
                                             std::string &GpuArch) {
  std::vector<std::string> Out;
  for (size_t I = Command.empty() ? 0 : 1; I < Command.size(); ++I) {
    StringRef Arg = Command[I];
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

std::vector<std::string> frontEndArgs(const CudaOptions &Options,
                                      ArrayRef<std::string> UserFlags) {
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=" + Options.GpuArch,
                                   "-std=c++17",
                                   "-Wno-unknown-cuda-version"};
  if (!Options.ResourceDir.empty())
    Args.push_back("-resource-dir=" + Options.ResourceDir);
  if (Options.NoCudaSdk) {
    Args.insert(Args.end(), {"-nocudainc", "-nocudalib"});
  } else {
    Args.push_back("--cuda-path=" + Options.CudaPath);
    std::string Cccl = cudaCcclIncludeDir(Options.CudaPath);
    if (!Cccl.empty())
      Args.push_back("-isystem" + Cccl);
  }
  if (!Options.RuntimeIncludeDir.empty())
    Args.push_back("-I" + Options.RuntimeIncludeDir);
  Args.insert(Args.end(), UserFlags.begin(), UserFlags.end());
  return Args;
}

} // namespace distwar
