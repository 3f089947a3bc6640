//===- BlockUniformity.h - values equal in every thread of a block -*- C++
//-*-===//
//
// Where lanes of a block leave a tile early (--balance=tiles), the
// conversion is safe when every lane of the block takes the same branch: a
// condition that reads only the block's place (blockIdx, gridDim,
// blockDim, group_index()), the kernel's unchanged parameters, constants
// and locals computed from those once. Conservative: thread indices and
// loads from memory are not uniform (another lane or block may write it).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_BLOCKUNIFORMITY_H
#define DISTWAR_ANALYSIS_BLOCKUNIFORMITY_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

namespace distwar {

class BlockUniformity {
public:
  /// For expressions of \p Kernel's body.
  explicit BlockUniformity(const clang::FunctionDecl *Kernel)
      : Kernel(Kernel) {}

  /// True when \p E has one value in every thread of a block.
  bool isUniform(const clang::Expr *E);

private:
  bool uniformVar(const clang::VarDecl *V);
  bool uniformCall(const clang::CallExpr *Call);

  const clang::FunctionDecl *Kernel;
  /// Variables decided; false while one is being decided (a cycle).
  llvm::DenseMap<const clang::VarDecl *, bool> Vars;
};

} // namespace distwar

#endif
