//===- Uniformity.h - values equal in every lane of a warp ------*- C++ -*-===//
//
// Proves that an expression has one value across the lanes of a warp that
// evaluate it together: the butterfly's uniform-key fast path, conditional
// fields and trip counts rely on it. Conservative: thread indices, lane ids and
// loads at per-lane addresses are not uniform.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_UNIFORMITY_H
#define DISTWAR_ANALYSIS_UNIFORMITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace clang {
class ParentMap;
} // namespace clang

namespace distwar {

class ReadOnlyParameters;

/// How a key varies across the lanes of a warp.
enum class KeyUniformity {
  Uniform,       ///< proven equal in every lane
  LikelyUniform, ///< equal if loads at uniform addresses return one value
  Distinct,      ///< one key per lane (derived injectively from a thread index)
  Varying,       ///< anything else
};

class UniformityAnalysis {
public:
  UniformityAnalysis(clang::ASTContext &Ctx, const clang::FunctionDecl *F);
  ~UniformityAnalysis();

  /// Treat these conjuncts of loop conditions as removed (they become part of
  /// an active flag, so they no longer decide the trip count).
  void assumeRemoved(const clang::Expr *Conjunct);

  /// True when \p E is warp-uniform. With \p TrustLoads, a load from memory at
  /// a uniform address counts as uniform.
  bool isUniform(const clang::Expr *E, bool TrustLoads = false);

  /// True when \p E reads only kernel parameters, constants and locals that
  /// are never changed after being initialised from such values (the same
  /// value in every thread of the grid).
  bool isGridUniform(const clang::Expr *E) {
    return sameInThreads(E, /*OfBlock=*/false);
  }

  /// True when \p E has one value in every thread of a block: what
  /// isGridUniform accepts, and the block's place and shape (blockIdx,
  /// blockDim, gridDim, cooperative groups' group_index() and size
  /// queries).
  bool isBlockUniform(const clang::Expr *E) {
    return sameInThreads(E, /*OfBlock=*/true);
  }

  /// True when every thread of a block that evaluates \p E gets one value,
  /// in a program without data races: what isUniform proves for a warp
  /// (constants, parameters, the block's place, read-only memory, loop
  /// counters, shared memory between barriers), but not the warp's own
  /// collectives (votes, shuffles, __activemask: they differ between
  /// warps), and the block's votes (__syncthreads_count, _and, _or) too; a
  /// loop keeps the block together through breaks taken on such values.
  bool isUniformInBlock(const clang::Expr *E);

  /// True when every statement enclosing \p S up to the function body runs
  /// for all lanes of a warp or none: uniform conditions, no lane-dependent
  /// exits from enclosing loops. Loops in \p Ignored may leave by continue.
  bool controlIsUniform(const clang::Stmt *S,
                        const clang::Stmt *ContinuesAllowedIn = nullptr);

  KeyUniformity classifyKey(const clang::Expr *Key);

  /// True when \p Cond is arithmetic of \p Key (the same expression) and
  /// grid-uniform values (`tc[0] >= 0` for key `tc[0]`): lanes whose keys
  /// are equal where it is evaluated take the same branch.
  bool isFunctionOfKey(const clang::Expr *Cond, const clang::Expr *Key);

  /// The parent statement of \p S (null at the top).
  const clang::Stmt *parentOf(const clang::Stmt *S);

private:
  /// A parameter of this kernel that the kernel never changes.
  bool unchangedKernelParameter(const clang::ParmVarDecl *P);
  bool runsAllLanes(const clang::Stmt *P, const clang::Stmt *Child,
                    const clang::Stmt *ContinuesAllowedIn);
  bool runsAllLanesUpTo(const clang::Stmt *S, const clang::Stmt *Top);
  bool loopKeepsLanes(const clang::Stmt *Loop, const clang::Expr *Cond,
                      const clang::Stmt *Body, const clang::Stmt *Inc,
                      const clang::Stmt *Child,
                      const clang::Stmt *ContinuesAllowedIn);
  bool sameInThreads(const clang::Expr *E, bool OfBlock);
  bool uniformLocal(const clang::VarDecl *V, bool OfBlock);
  bool uniformVar(const clang::VarDecl *V, bool TrustLoads);
  bool uniformAccess(const clang::Expr *E, bool TrustLoads);
  bool uniformCall(const clang::Expr *E, bool TrustLoads);
  bool uniformReadingCall(const clang::CallExpr *Call, bool TrustLoads);
  bool uniformArgument(clang::QualType Param, const clang::Expr *Arg,
                       bool TrustLoads);
  bool uniformLoad(const clang::Expr *Base, const clang::Expr *Index,
                   const clang::Expr *Whole, bool TrustLoads);
  bool sharedReadIsStable(const clang::VarDecl *Shared,
                          const clang::Expr *Read);
  /// The kernel's read-only `const T *__restrict__` parameters, found on
  /// first use.
  const ReadOnlyParameters &readOnly();
  bool distinctPerLane(const clang::Expr *E, unsigned Depth);

  clang::ASTContext &Ctx;
  const clang::FunctionDecl *F;
  llvm::DenseSet<const clang::Expr *> Removed;
  llvm::DenseMap<std::pair<const clang::VarDecl *, unsigned>, bool> VarCache;
  llvm::DenseSet<std::pair<const clang::VarDecl *, unsigned>> InProgress;
  llvm::DenseSet<const clang::VarDecl *> GridInProgress;
  std::unique_ptr<clang::ParentMap> Parents; ///< over F's body
  std::unique_ptr<ReadOnlyParameters> ReadOnly;
  bool HasGoto = false;
  /// isUniformInBlock's question is being answered.
  bool BlockLevel = false;
};

/// The CUDA built-in variable (threadIdx, blockIdx, blockDim, gridDim) whose
/// member \p E reads (`threadIdx.x`), or null.
const clang::VarDecl *builtinVar(const clang::Expr *E);

/// The conjuncts of \p E (`a && b && c` -> a, b, c; anything else -> E).
void flattenAnd(const clang::Expr *E,
                llvm::SmallVectorImpl<const clang::Expr *> &Out);

} // namespace distwar

#endif
