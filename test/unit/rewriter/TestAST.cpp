//===- TestAST.cpp - annotated code and parsed CUDA for the tests ---------===//

#include "TestAST.h"
#include "Decide/GroupSafety.h"
#include "distwar-rewrite/CudaArgs.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

namespace distwar {
namespace test {

AnnotatedCode::AnnotatedCode(llvm::StringRef Text) {
  struct Open {
    std::string Name;
    size_t Begin;
  };
  std::vector<Open> Stack;
  while (!Text.empty()) {
    // `$name` counts as a mark only when a point or a range follows it.
    std::string Name;
    llvm::StringRef Rest = Text;
    if (Rest.consume_front("$")) {
      size_t Len = 0;
      while (Len < Rest.size() &&
             (llvm::isAlnum(Rest[Len]) || Rest[Len] == '_'))
        ++Len;
      if (Len && (Rest.drop_front(Len).starts_with("^") ||
                  Rest.drop_front(Len).starts_with("[["))) {
        Name = Rest.take_front(Len).str();
        Text = Rest.drop_front(Len);
      }
    }
    if (Text.consume_front("^")) {
      Points[Name].push_back(Code.size());
    } else if (Text.consume_front("[[")) {
      Stack.push_back({Name, Code.size()});
    } else if (Text.consume_front("]]")) {
      if (Stack.empty()) {
        ADD_FAILURE() << "']]' without '[[' at offset " << Code.size();
        continue;
      }
      Ranges[Stack.back().Name].push_back({Stack.back().Begin, Code.size()});
      Stack.pop_back();
    } else {
      Code += Text.front();
      Text = Text.drop_front();
    }
  }
  for (const Open &O : Stack)
    ADD_FAILURE() << "'[[' at offset " << O.Begin << " is never closed";
}

size_t AnnotatedCode::point(llvm::StringRef Name) const {
  std::vector<size_t> All = points(Name);
  if (All.size() != 1) {
    ADD_FAILURE() << "expected exactly one point '" << Name.str() << "', got "
                  << All.size();
    return All.empty() ? 0 : All.front();
  }
  return All.front();
}

std::vector<size_t> AnnotatedCode::points(llvm::StringRef Name) const {
  auto It = Points.find(Name);
  if (It == Points.end())
    return {};
  return std::vector<size_t>(It->second.begin(), It->second.end());
}

AnnotatedCode::Range AnnotatedCode::range(llvm::StringRef Name) const {
  auto It = Ranges.find(Name);
  if (It == Ranges.end() || It->second.size() != 1) {
    ADD_FAILURE() << "expected exactly one range '" << Name.str() << "', got "
                  << (It == Ranges.end() ? 0 : It->second.size());
    return It == Ranges.end() ? Range() : It->second.front();
  }
  return It->second.front();
}

std::vector<std::string> hermeticArgs() {
  CudaOptions Options;
  Options.NoCudaSdk = true;
  Options.ResourceDir = DISTWAR_CLANG_RESOURCE_DIR;
  return frontEndArgs(
      Options, {"-include", std::string(DISTWAR_TEST_INPUTS) + "/cuda_shim.h"});
}

Parsed parse(llvm::StringRef Code) {
  Parsed P;
  P.AST = clang::tooling::buildASTFromCodeWithArgs(Code, hermeticArgs(),
                                                   "/virtual/t.cu");
  EXPECT_TRUE(P.AST);
  if (!P.AST)
    return P;
  EXPECT_FALSE(P.AST->getDiagnostics().hasErrorOccurred());
  clang::ASTContext &Ctx = P.AST->getASTContext();
  P.Sites = findAtomicSites(Ctx);
  P.Groups = groupSites(Ctx, P.Sites);
  for (SiteGroup &G : P.Groups)
    G.Why = checkGroupSafety(Ctx, P.Sites, G);
  return P;
}

std::vector<const clang::ForStmt *> forLoops(clang::ASTContext &Ctx) {
  struct Collector : clang::RecursiveASTVisitor<Collector> {
    std::vector<const clang::ForStmt *> Loops;
    bool VisitForStmt(clang::ForStmt *F) {
      Loops.push_back(F);
      return true;
    }
  } C;
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  return C.Loops;
}

const clang::FunctionDecl *function(clang::ASTContext &Ctx,
                                    llvm::StringRef Name) {
  for (const clang::NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name))) {
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      return FD;
    if (const auto *FTD = llvm::dyn_cast<clang::FunctionTemplateDecl>(D))
      return FTD->getTemplatedDecl();
  }
  ADD_FAILURE() << "no function " << Name.str();
  return nullptr;
}

std::vector<const clang::Stmt *> bodyOf(clang::ASTContext &Ctx,
                                        llvm::StringRef Name) {
  const clang::FunctionDecl *FD = function(Ctx, Name);
  const auto *Body =
      FD ? llvm::dyn_cast_or_null<clang::CompoundStmt>(FD->getBody()) : nullptr;
  if (!Body)
    return {};
  return std::vector<const clang::Stmt *>(Body->body_begin(), Body->body_end());
}

const clang::VarDecl *variable(clang::ASTContext &Ctx, llvm::StringRef Name) {
  // The shim's declarations have parameters too: only the main file's
  // variables count.
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::SourceManager *SM = nullptr;
    llvm::StringRef Name;
    const clang::VarDecl *Found = nullptr;
    bool VisitVarDecl(clang::VarDecl *V) {
      if (V->getIdentifier() && V->getName() == Name &&
          SM->isInMainFile(SM->getExpansionLoc(V->getLocation())))
        Found = V;
      return !Found;
    }
  } F;
  F.SM = &Ctx.getSourceManager();
  F.Name = Name;
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (!F.Found)
    ADD_FAILURE() << "no variable " << Name.str();
  return F.Found;
}

unsigned offsetOf(const clang::ASTContext &Ctx, clang::SourceLocation Loc) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation At = SM.getExpansionLoc(Loc);
  EXPECT_TRUE(At.isValid() && SM.isWrittenInMainFile(At))
      << "not in the main file: " << Loc.printToString(SM);
  return SM.getFileOffset(At);
}

clang::SourceLocation locationAt(const clang::ASTContext &Ctx,
                                 unsigned Offset) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  return SM.getComposedLoc(SM.getMainFileID(), Offset);
}

} // namespace test
} // namespace distwar
