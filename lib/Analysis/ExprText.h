//===- ExprText.h - Small expressions the edits spell -----------*- C++ -*-===//
//
// Sums and differences as a person would write them: no `+ 0`, no
// `- (0) + (0)`, parentheses only around what needs them.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_EXPRTEXT_H
#define DISTWAR_ANALYSIS_EXPRTEXT_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <string>

namespace distwar {

/// A name, a number or a qualified name: no parentheses needed around it.
inline bool isSimpleToken(llvm::StringRef Text) {
  return !Text.empty() && llvm::all_of(Text, [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == ':';
  });
}

/// Whether \p Text is one parenthesized expression: its first `(` closes at
/// its last character.
inline bool isWrapped(llvm::StringRef Text) {
  if (!Text.starts_with("(") || !Text.ends_with(")"))
    return false;
  int Depth = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    Depth += Text[I] == '(' ? 1 : Text[I] == ')' ? -1 : 0;
    if (Depth == 0)
      return I + 1 == Text.size();
  }
  return false;
}

inline std::string parenthesized(const std::string &Text) {
  return isSimpleToken(Text) || isWrapped(Text) ? Text : "(" + Text + ")";
}

/// `A + B`, or the other term where one is 0.
inline std::string sumText(const std::string &A, const std::string &B) {
  if (A == "0")
    return B;
  if (B == "0")
    return A;
  return A + " + " + B;
}

/// `A - (B) + (C)` without the terms that are 0 or cancel.
inline std::string shiftedText(const std::string &A, const std::string &B,
                               const std::string &C) {
  if (B == C)
    return A;
  std::string Out = A;
  if (B != "0")
    Out += " - " + parenthesized(B);
  if (C != "0")
    Out += " + " + parenthesized(C);
  return Out;
}

} // namespace distwar

#endif
