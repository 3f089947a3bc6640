//===- ConfigFile.h - .distwar.yaml, found above the input ------*- C++ -*-===//
//
// Settings a project keeps next to its sources, as clang-format and
// clang-tidy keep theirs: the nearest `.distwar.yaml` in the first input's
// directory or a parent. The command line wins over it.
//
//   Variant: serial           # as --variant
//   FormatStyle: none         # as --format-style
//   BlockStrategy: off        # as --block-strategy
//   Balance: tiles            # as --balance
//   FormChoice: rewrite-time  # as --form-choice
//   EditHeaders: [include]    # as --edit-headers, relative to the file
//   ExtraArgs: [-DFAST=1]     # appended to every input's compiler flags
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TOOLS_CONFIGFILE_H
#define DISTWAR_TOOLS_CONFIGFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace distwar {

/// The keys of the file.
struct ConfigSettings {
  std::optional<std::string> Variant;
  std::optional<std::string> FormatStyle;
  std::optional<std::string> BlockStrategy;
  std::optional<std::string> Balance;
  std::optional<std::string> FormChoice;
  std::vector<std::string> EditHeaders; ///< absolute once read
  std::vector<std::string> ExtraArgs;
};

struct ToolConfig {
  std::string Path; ///< the file read; empty when none was found
  ConfigSettings Settings;
};

/// The nearest `.distwar.yaml` in \p Dir or one of its parents (an empty
/// config when there is none), or an error naming the file and line.
llvm::Expected<ToolConfig> findConfig(llvm::StringRef Dir);

/// \p C as YAML, with a comment naming the file it came from.
std::string dumpConfig(const ToolConfig &C);

} // namespace distwar

#endif
