//===- ReadOnlyParameters.h - memory a kernel only reads --------*- C++ -*-===//
//
// A kernel's `const T *__restrict__` parameter whose memory the kernel only
// reads holds the same values for the whole launch: restrict lets no other
// pointer change what is read through it, and the kernel itself never
// stores through it. A load through it, or through a local pointer or const
// reference derived from it, therefore reads the same value in every lane
// that loads the same address, whenever the lane loads it.
//
// So does a `const T *__restrict__` member of a by-value struct parameter
// (`args.spans`) that the kernel never changes: the parameter's declaration
// designates the member as a restrict pointer, so C's rule holds in the
// kernel's body as for a parameter. The struct must be used only through
// its fields (a copy of it, passed or stored, would take the pointer out
// of sight). Without restrict, a parameter or a member proves nothing:
// another pointer may reach the memory and the kernel may store through it.
//
// "Only reads" is checked use by use: every use of the parameter, of the
// pointers computed from it and of the objects it designates must be a
// load, pointer arithmetic, a comparison, the address of an element or
// member, the initialiser of a local pointer that is never changed (or of
// a const reference), or an argument of a call that writes no memory. A
// cast that drops const, a store of the pointer anywhere, a capture or any
// other use makes the parameter's memory writable as far as this analysis
// knows.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_READONLYPARAMETERS_H
#define DISTWAR_ANALYSIS_READONLYPARAMETERS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace clang {
class ParentMap;
} // namespace clang

namespace distwar {

/// What leads into memory a kernel only reads: its read-only parameters and
/// the locals derived from them, and the read-only pointer members of its
/// by-value parameters (`args.spans`, a parameter and a field).
struct ReadOnlyRoots {
  llvm::DenseSet<const clang::VarDecl *> Vars;
  llvm::DenseSet<std::pair<const clang::VarDecl *, const clang::FieldDecl *>>
      PointerMembers;

  /// Adds \p Other's roots: the union of read-only families is read-only
  /// as each one is.
  void join(const ReadOnlyRoots &Other) {
    Vars.insert(Other.Vars.begin(), Other.Vars.end());
    PointerMembers.insert(Other.PointerMembers.begin(),
                          Other.PointerMembers.end());
  }
};

class ReadOnlyParameters {
public:
  /// Finds the read-only parameters of \p Kernel (none unless it is a
  /// `__global__` function with a body); \p Parents is over its body (null
  /// where it has none).
  ReadOnlyParameters(const clang::FunctionDecl *Kernel,
                     const clang::ParentMap *Parents);

  /// Whether the pointer value \p Ptr points into a read-only parameter's
  /// or member's memory: the parameter or member (`args.spans`), a local
  /// pointer initialised from it, pointer arithmetic on them, or the
  /// address of an element or member there.
  bool pointsInto(const clang::Expr *Ptr) const;

  /// Whether the lvalue \p Object designates (part of) such memory:
  /// `p[i]`, `*p`, `p->m`, their members, or a const reference bound there.
  bool designatesObjectIn(const clang::Expr *Object) const;

  /// Whether \p Ref is a local const reference bound into such memory.
  bool bindsInto(const clang::VarDecl *Ref) const;

private:
  ReadOnlyRoots Roots;
};

} // namespace distwar

#endif
