//===- UniformBuffers.h - Buffers the same in every lane --------*- C++ -*-===//
//
// A buffer is rebuilt from a key in another lane only when the pointer is the
// same in every lane of the kernel: an unmodified parameter of the kernel (or
// a pointer member of one held by value), a namespace-scope array,
// constant, or pointer that no device function of the translation unit
// writes, or a __shared__ array of the kernel (one per thread block).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_UNIFORMBUFFERS_H
#define DISTWAR_FIND_UNIFORMBUFFERS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

namespace distwar {

/// Answers for the kernels of one translation unit; whether a namespace-scope
/// variable is written anywhere is computed once per variable.
class UniformBuffers {
public:
  explicit UniformBuffers(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Whether \p V (or its pointer member \p Field; a member of a member when
  /// \p NestedField) is the same pointer in every lane of \p Function.
  bool isUniform(const clang::VarDecl *V, const clang::FieldDecl *Field,
                 bool NestedField, const clang::FunctionDecl *Function);

private:
  bool isUniformParameter(const clang::ParmVarDecl *P,
                          const clang::FieldDecl *Field, bool NestedField,
                          const clang::FunctionDecl *Function) const;
  bool writtenInTranslationUnit(const clang::VarDecl *V);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::VarDecl *, bool> GlobalWritten;
};

} // namespace distwar

#endif
