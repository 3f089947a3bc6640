//===- Effects.h - what a statement or a call may read and write -*- C++ -*-===//
//
// The one place that decides what code may read and write. Every proof the
// rewriter relies on ("this call is pure", "nothing here changes the key",
// "this trip count cannot change") asks it, and it is conservative by
// construction: whatever it does not understand counts as reading and
// writing anything.
//
// Calls are followed into their bodies (lambdas with their captures,
// `__device__` functions, methods and operators, templates as instantiated)
// to a bounded depth. A library function with no visible body (a builtin,
// CUDA's atomics, printf) reaches only what its arguments point to;
// `assert`'s failure handler writes nothing. A
// lambda's body names its captures by the enclosing
// function's own declarations, so a lambda that changes a captured key is
// seen changing that key at every call. A user's function with no visible
// body, a call through a pointer, inline assembly, new, delete and throw:
// anything.
//
// A local variable "escapes" once its address is taken, a non-const
// reference or a by-reference capture is bound to it, an array decays to a
// pointer other than to be indexed, or a method returns a reference or a
// pointer into it. After that, every store through a pointer or a
// reference, and every call that may write memory, may write it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_EFFECTS_H
#define DISTWAR_ANALYSIS_EFFECTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace distwar {

/// What calling a function may do, as its caller sees it.
struct CallEffects {
  /// Nothing is known: the call may read and write anything and
  /// synchronise (no visible body, a call through a pointer, inline
  /// assembly, new, delete, throw, recursion past the depth bound).
  bool Opaque = false;
  /// A store that is not into the callee's own frame: through a pointer or
  /// a reference, into a global, into its object's members (but for a
  /// constructor's own object).
  bool WritesMemory = false;
  /// A store counted in WritesMemory that is not into the members of the
  /// method's own object (`*this`): see writesOnlyObject().
  bool WritesBeyondObject = false;
  /// A load through a pointer or a reference, or of a global that device
  /// code may change.
  bool ReadsMemory = false;
  /// A load through something other than the callee's own pointer
  /// parameters: a global, a captured pointer, a pointer member of a struct
  /// argument, a local pointer, a pointer loaded from a parameter's memory
  /// (`rows[i][j]`); or such a pointer given to a function that reads
  /// memory (a pointer into the callee's own frame is none). What such a
  /// load reads is not known from the call's arguments.
  bool ReadsBeyondParameters = false;
  /// Reads the thread or block index or another value of the launch.
  bool ReadsLane = false;
  /// Reads a `__shared__` variable: the block's other threads may change
  /// it at any time.
  bool ReadsShared = false;
  /// The types of the stores through something other than the callee's
  /// own pointer parameters (a global, a capture, a local's address): what
  /// they change is not known from the call's arguments, only that C++'s
  /// aliasing rules let them change objects of these types. A null type:
  /// any object.
  llvm::SmallVector<clang::QualType, 2> WritesBeyondParameters;
  /// Variables of an enclosing function that the body names (a lambda's
  /// captures) and those it may change.
  llvm::SmallPtrSet<const clang::VarDecl *, 4> OuterReads, OuterWrites;

  /// Writes nothing its caller can see and does not synchronise.
  bool isPure() const {
    return !Opaque && !WritesMemory && OuterWrites.empty();
  }
  /// Writes nothing its caller can see but the members of the object it is
  /// called on (`v -= w`), and does not synchronise: a call on the caller's
  /// own local changes only that local.
  bool writesOnlyObject() const {
    return !Opaque && !WritesBeyondObject && OuterWrites.empty();
  }
  /// Moreover computes its result from its arguments and object alone.
  bool readsOnlyArguments() const {
    return isPure() && !ReadsMemory && !ReadsLane && OuterReads.empty();
  }
  /// Writes nothing its caller can see, does not synchronise, and computes
  /// its result from its arguments (and object) and from the memory its
  /// own pointer and reference parameters reach: no other memory but
  /// constant memory, no shared memory, no value of the launch, no capture.
  bool readsOnlyWhatArgumentsReach() const {
    return isPure() && !ReadsBeyondParameters && !ReadsShared && !ReadsLane &&
           OuterReads.empty();
  }
};

/// What a call to \p FD may do. A known math function of CUDA's headers
/// does nothing but compute (the thread-index fetches read the lane).
CallEffects effectsOfCallee(const clang::FunctionDecl *FD);

/// What \p Call may do: its callee's effects; in a template, those of
/// every declaration its unresolved name may pick where the template is
/// defined (what argument-dependent lookup adds at instantiation is not
/// seen).
CallEffects effectsOfCall(const clang::CallExpr *Call);

/// Whether \p Call may change \p V: its body changes V (a lambda's
/// capture), or V escapes and the call may write memory that holds V
/// (anything, for a call that is not understood).
bool callMayWrite(const clang::CallExpr *Call, const clang::VarDecl *V);

/// Whether \p V lives in \p FD's own frame: one of its parameters or a
/// variable declared in its body (never a lambda's capture, which is the
/// enclosing function's variable).
bool isOwnVariable(const clang::VarDecl *V, const clang::FunctionDecl *FD);

/// Whether \p V may be changed other than by naming it: see the file
/// comment. Always true for a variable that is not a function's local.
bool escapes(const clang::VarDecl *V);

/// Whether \p E, an lvalue, may designate (part of) \p V's own storage,
/// or with \p Through also what \p V points to: a name, a member, an
/// element, either arm of a conditional, a call that returns a reference
/// derived from V, and, once V escapes, any lvalue reached through a
/// pointer or a reference.
bool mayDesignate(const clang::Expr *E, const clang::VarDecl *V, bool Through,
                  bool StorageOnly = false);

/// Calls \p Visit on \p S and every statement under it, template arguments,
/// static assertions and lambda bodies included, in source order; \p Visit
/// returns false to stop. Returns false when stopped.
bool forEachStmt(const clang::Stmt *S,
                 llvm::function_ref<bool(const clang::Stmt *)> Visit);

/// Clears what the analysis remembers of one translation unit's AST; held
/// for the time one file's AST is analysed.
class EffectsScope {
public:
  EffectsScope();
  ~EffectsScope();
  EffectsScope(const EffectsScope &) = delete;
  EffectsScope &operator=(const EffectsScope &) = delete;
};

} // namespace distwar

#endif
