//===- CudaArgs.h - front-end flags for CUDA device parsing -----*- C++ -*-===//
//
// distwar parses every file once, device pass only. This builds that command
// line from the user's flags (after `--` or from compile_commands.json).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REWRITE_CUDAARGS_H
#define DISTWAR_REWRITE_CUDAARGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace distwar {

struct CudaOptions {
  /// Root of the CUDA SDK; empty with NoCudaSdk.
  std::string CudaPath;
  std::string GpuArch = "sm_90";
  /// Hermetic mode: no SDK headers or libdevice (tests supply declarations).
  bool NoCudaSdk = false;
  /// Clang's resource directory (builtin headers).
  std::string ResourceDir;
  /// Where <distwar/runtime.cuh> lives, so the tool's own output parses.
  std::string RuntimeIncludeDir;
};

/// Picks the CUDA SDK: \p Explicit (--cuda-path), then \p EnvCudaPath
/// (CUDA_PATH), then /usr/local/cuda. An SDK is a directory holding
/// include/cuda_runtime.h (or targets/x86_64-linux/include/cuda_runtime.h).
llvm::Expected<std::string> findCudaPath(llvm::StringRef Explicit,
                                         llvm::StringRef EnvCudaPath);

/// Removes what is not a front-end flag of this file's compile: the compiler
/// name (nvcc or a host compiler), the input \p File, -c, -o X, and
/// nvcc-only flags; translates nvcc spellings Clang reads differently
/// (-isystem=DIR, --std, -Werror KIND); splices in nvcc options files and
/// @files (relative to \p Directory). Takes the GPU arch from
/// -arch/--gpu-architecture/-gencode when present (into \p GpuArch).
llvm::Expected<std::vector<std::string>>
stripCompileCommand(llvm::ArrayRef<std::string> Command, llvm::StringRef File,
                    std::string &GpuArch, llvm::StringRef Directory = "");

/// The full argument list for a device-only parse (without the input file):
/// Clang's CUDA mode with nvcc's dialect (narrowing in braced initialisers
/// is nvcc's warning, not an error; what nvcc's headers declare and Clang's
/// do not is declared: host min/max, cache-hinted stores, device-side
/// libstdc++ throwers), then the user's flags.
std::vector<std::string> frontEndArgs(const CudaOptions &Options,
                                      llvm::ArrayRef<std::string> UserFlags);

} // namespace distwar

#endif
