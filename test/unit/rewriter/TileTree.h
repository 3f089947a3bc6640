//===- TileTree.h - kernels in headers for the tile tests -------*- C++ -*-===//
//
// --balance=tiles writes kernels of the headers --edit-headers allows: the
// tests build a tree whose src/k.cu includes headers of include/ (allowed)
// and vendor/ (not), and parse it as the pass does.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_TEST_UNIT_REWRITER_TILETREE_H
#define DISTWAR_TEST_UNIT_REWRITER_TILETREE_H

#include "Decide/TileFiles.h"
#include "TempTree.h"
#include "TestAST.h"
#include "distwar-rewrite/HeaderFilter.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FileSystem.h"

namespace distwar::test {

class TileTree : public TempTree {
protected:
  /// Parses src/k.cu, holding \p Main, with include/ and vendor/ on the
  /// include path, and calls \p Body with the parse and the files the pass
  /// may write (include/ allowed); a failure when Clang reports an error
  /// and \p Errors is false.
  void parseTree(llvm::StringRef Main,
                 llvm::function_ref<void(ParsedFile &, const TileFiles &)> Body,
                 bool Errors = false) {
    write("src/k.cu", Main);
    // The filter names only directories that exist.
    ASSERT_FALSE(llvm::sys::fs::create_directories(path("include")));
    HeaderFilter Filter =
        llvm::cantFail(HeaderFilter::create({path("include")}));
    std::vector<std::string> Args = hermeticArgs();
    Args.push_back("-I" + path("include"));
    Args.push_back("-I" + path("vendor"));
    bool Called = false;
    llvm::Error E =
        parseFile(path("src/k.cu"), Main, FrontEnd(Args), [&](ParsedFile &P) {
          Called = true;
          EXPECT_EQ(P.HasErrors, Errors) << P.DiagnosticText;
          TileFiles Files(P.Ctx.getSourceManager(), &Filter, P.Inclusions);
          Body(P, Files);
        });
    ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
    EXPECT_TRUE(Called);
  }

  /// The file of the parse that is Root/\p Rel.
  clang::FileID fileOf(ParsedFile &P, llvm::StringRef Rel) {
    clang::SourceManager &SM = P.Ctx.getSourceManager();
    llvm::Expected<clang::FileEntryRef> FE =
        SM.getFileManager().getFileRef(path(Rel));
    if (!FE) {
      ADD_FAILURE() << llvm::toString(FE.takeError());
      return clang::FileID();
    }
    return SM.translateFile(*FE);
  }
};

} // namespace distwar::test

#endif
