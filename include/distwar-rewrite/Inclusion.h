//===- Inclusion.h - an #include directive the parse resolved ---*- C++ -*-===//

#ifndef DISTWAR_REWRITE_INCLUSION_H
#define DISTWAR_REWRITE_INCLUSION_H

#include <string>

namespace distwar {

/// One `#include` the preprocessor resolved: its spelling and the file that
/// holds the directive.
struct Inclusion {
  std::string Spelled;
  std::string Includer; ///< absolute
  /// Found in the includer's own directory (`#include "./x.h"`): a copy
  /// finds it next to the includer's copy.
  bool RelativeToIncluder = false;
};

} // namespace distwar

#endif
