//===- FrontEnd.h - how files are parsed ------------------------*- C++ -*-===//

#ifndef DISTWAR_REWRITE_FRONTEND_H
#define DISTWAR_REWRITE_FRONTEND_H

#include <string>
#include <utility>
#include <vector>

namespace distwar {

/// How files are parsed: the front-end flags and where precompiled CUDA
/// headers are kept.
struct FrontEnd {
  FrontEnd() = default;
  FrontEnd(std::vector<std::string> Args) : Args(std::move(Args)) {}
  /// CudaArgs.h's frontEndArgs.
  std::vector<std::string> Args;
  /// The precompiled-header cache; empty: every parse reads the headers.
  std::string CacheDir;
  /// Parse even a file whose tokens name nothing atomic (tests compare).
  bool AlwaysParse = false;
};

} // namespace distwar

#endif
