//===- TempTree.h - a temporary directory for one test ----------*- C++ -*-===//
//
// Tests of what reads and writes files (include paths, header copies, the
// parse cache) build a small tree in a fresh directory, removed after the
// test.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TEST_TEMPTREE_H
#define DISTWAR_TEST_TEMPTREE_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"
#include <string>

namespace distwar::test {

class TempTree : public ::testing::Test {
protected:
  /// Creates Root (its real path: no symbolic link in it).
  void SetUp() override;
  void TearDown() override;

  /// Root/\p Rel.
  std::string path(llvm::StringRef Rel) const;
  /// Writes \p Text to Root/\p Rel, creating its directories.
  void write(llvm::StringRef Rel, llvm::StringRef Text = "");

  llvm::SmallString<256> Root;
};

} // namespace distwar::test

#endif
