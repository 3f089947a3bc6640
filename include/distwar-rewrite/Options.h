//===- Options.h - what the rewrite does and how it lays it out -*- C++ -*-===//
//
// The choices a user makes on the command line (--variant, --format-style,
// --block-strategy) that the stages read: Decide the variant, Emit the
// layout.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_REWRITE_OPTIONS_H
#define DISTWAR_REWRITE_OPTIONS_H

#include <string>

namespace distwar {

/// What the rewrite does with each group (--variant; README, "Usage").
enum class Variant { Serial, Floor, Auto, Butterfly };

/// Whether kernels are also balanced across their blocks (--balance).
enum class BlockBalance {
  None,  ///< launches keep their grids
  Tiles, ///< tile kernels become persistent loops over a pool of tiles
};

/// How the output's #line directives name the file whose lines they
/// restore.
enum class LineFileNames {
  Absolute, ///< the input's absolute path: the output lives elsewhere
  Omitted,  ///< no name: the output replaces the input (-i)
};

/// How the rewritten text is laid out (--format-style).
struct OutputLayout {
  LineFileNames Names = LineFileNames::Absolute;
  /// The clang-format style of the changed lines: "file" (the .clang-format
  /// found above the input, else FallbackStyle), a style name ("llvm",
  /// "google", ...) or "{Key: Value, ...}". "none" is the compact form:
  /// inserted code joins the lines it is inserted on, so every line keeps
  /// its number and no #line directive is needed between lines.
  std::string FormatStyle = "file";
  std::string FallbackStyle = "llvm";
  /// --variant=auto may give a serial group the block strategy (a table in
  /// shared memory per thread block, GENERATED_CODE.md section 10;
  /// --block-strategy=on). Off by default: the table is static shared
  /// memory, which may lower the occupancy of a kernel with small blocks
  /// even where the tuner then picks a warp reduction.
  bool BlockStrategy = false;
  /// --variant=auto writes a butterfly group that the serial form could
  /// reduce differently with both, chosen at run time by the site's value
  /// (--form-choice=run-time); false: the butterfly alone
  /// (--form-choice=rewrite-time, the default: both forms in one kernel
  /// cost more registers than the choice gained, bench/RESULTS.md).
  bool RunTimeForm = false;
  /// --balance=tiles: after the batching, each kernel whose blocks are
  /// independent tiles runs as a persistent loop over tiles drawn from a
  /// pool (docs/BALANCING.md, "The rewriter's --balance=tiles").
  BlockBalance Balance = BlockBalance::None;

  bool compact() const { return FormatStyle == "none"; }
};

} // namespace distwar

#endif
