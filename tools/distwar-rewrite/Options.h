//===- Options.h - distwar-rewrite's command-line options -------*- C++ -*-===//
//
// The tool's options, defined (with their help text) in Options.cpp and
// read by DistwarRewrite.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TOOLS_OPTIONS_H
#define DISTWAR_TOOLS_OPTIONS_H

#include "llvm/Support/CommandLine.h"
#include <string>

namespace distwar {

extern llvm::cl::OptionCategory Category;
extern llvm::cl::opt<std::string> OutputFile;
extern llvm::cl::opt<bool> InPlace;
extern llvm::cl::opt<std::string> ReportFormat;
extern llvm::cl::opt<bool> UseColor;
extern llvm::cl::opt<std::string> ReportFile;
extern llvm::cl::opt<std::string> VariantOpt;
extern llvm::cl::opt<std::string> FormatStyle;
extern llvm::cl::opt<std::string> BlockStrategy;
extern llvm::cl::opt<std::string> BalanceOpt;
extern llvm::cl::opt<std::string> FormChoice;
extern llvm::cl::opt<std::string> FallbackStyle;
extern llvm::cl::opt<std::string> CudaPath;
extern llvm::cl::opt<std::string> GpuArch;
extern llvm::cl::opt<bool> NoCudaSdk;
extern llvm::cl::list<std::string> EditHeaders;
extern llvm::cl::opt<std::string> HeaderOutputDir;
extern llvm::cl::opt<std::string> DepFile;
extern llvm::cl::opt<std::string> ExportFixes;
extern llvm::cl::opt<std::string> CacheDirOpt;
extern llvm::cl::opt<bool> NoCache;
extern llvm::cl::opt<unsigned> PauseBeforeWrite;
extern llvm::cl::opt<bool> AlwaysParse;
extern llvm::cl::opt<bool> Check;
extern llvm::cl::opt<bool> ListReasons;
extern llvm::cl::opt<std::string> Explain;
extern llvm::cl::opt<bool> DumpConfig;
extern llvm::cl::opt<bool> TimeReport;

} // namespace distwar

#endif
