//===- SkippedBodies.h - function bodies the rewrite never reads -*- C++
//-*-===//
//
// A torch extension's translation unit holds tens of thousands of host
// function bodies from torch's headers. The rewrite never looks inside a
// system header's function (the effects analysis takes such a call as a
// library call, Analysis/Effects.h), and device code cannot call a
// host-only one, so their bodies are skipped as clangd skips a preamble's.
// Clang itself keeps every body it may need: constexpr functions and ones
// whose return type is deduced. Templates keep theirs here: an
// instantiation from the user's code needs it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_PARSE_SKIPPEDBODIES_H
#define DISTWAR_PARSE_SKIPPEDBODIES_H

#include "clang/AST/ASTConsumer.h"
#include <memory>

namespace clang {
class Decl;
class SourceManager;
} // namespace clang

namespace distwar {

/// True for the body of a host-only, non-template function declared in a
/// system header.
bool isSkippableBody(const clang::Decl *D, const clang::SourceManager &SM);

/// An AST consumer that only answers which bodies to skip (the parser asks
/// when FrontendOptions::SkipFunctionBodies is set).
class BodySkipper : public clang::ASTConsumer {
public:
  explicit BodySkipper(const clang::SourceManager &SM) : SM(SM) {}
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return isSkippableBody(D, SM);
  }

private:
  const clang::SourceManager &SM;
};

/// \p Writer (a precompiled header's, or null) with a BodySkipper.
std::unique_ptr<clang::ASTConsumer>
withBodySkipper(std::unique_ptr<clang::ASTConsumer> Writer,
                const clang::SourceManager &SM);

} // namespace distwar

#endif
