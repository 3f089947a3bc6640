//===- TempTree.cpp - a temporary directory for one test ------------------===//

#include "TempTree.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace distwar::test {

void TempTree::SetUp() {
  llvm::SmallString<256> Made;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("distwar-test", Made));
  ASSERT_FALSE(llvm::sys::fs::real_path(Made, Root));
}

void TempTree::TearDown() {
  if (!Root.empty())
    llvm::sys::fs::remove_directories(Root);
}

std::string TempTree::path(llvm::StringRef Rel) const {
  llvm::SmallString<256> P(Root);
  llvm::sys::path::append(P, llvm::sys::path::Style::posix, Rel);
  return std::string(P);
}

void TempTree::write(llvm::StringRef Rel, llvm::StringRef Text) {
  std::string P = path(Rel);
  ASSERT_FALSE(
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P)));
  std::error_code EC;
  llvm::raw_fd_ostream OS(P, EC);
  ASSERT_FALSE(EC);
  OS << Text;
}

} // namespace distwar::test
