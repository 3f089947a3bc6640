//===- AtomicCalls.h - which calls are CUDA's atomics -----------*- C++ -*-===//
//
// A call is one of CUDA's atomics when the function it calls is declared by
// CUDA (the SDK's or Clang's wrappers, at namespace scope) or is PyTorch's
// gpuAtomicAdd; a program's own function of the same name is an ordinary
// call. In a template, every declaration the unresolved name may pick is
// looked at.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_ATOMICCALLS_H
#define DISTWAR_ANALYSIS_ATOMICCALLS_H

#include "clang/AST/Expr.h"

namespace clang {
class SourceManager;
} // namespace clang

namespace distwar {

/// What a call to an atomic's name calls.
enum class CallKind {
  None,         ///< no CUDA atomic
  DeviceAdd,    ///< device-scope atomicAdd
  OtherAtomic,  ///< another reported atomic
  UserOverload, ///< in a template: a CUDA atomic or the program's overload
};

/// What \p Call calls; in a template, every declaration the unresolved name
/// may pick: all CUDA's (of one kind), or some the program's own.
CallKind callKind(const clang::CallExpr *Call, const clang::SourceManager &SM);

/// True when \p Call is a device-scope add of CUDA's own (or PyTorch's
/// gpuAtomicAdd), not a user's function of the same name.
bool isDeviceAtomicAdd(const clang::CallExpr *Call,
                       const clang::SourceManager &SM);

} // namespace distwar

#endif
