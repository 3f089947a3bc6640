//===- EffectsInternal.h - What Effects' files share ------------*- C++ -*-===//
//
// The call summaries (Effects.cpp), the escape analysis (Escapes.cpp),
// the aliasing rules (AliasTypes.cpp) and where a body's pointers lead
// (PointerOrigins.cpp) answer one question together: what a statement may
// read and change. These are the pieces they share; callers use
// Effects.h.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_EFFECTSINTERNAL_H
#define DISTWAR_ANALYSIS_EFFECTSINTERNAL_H

#include "Analysis/Effects.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include <climits>
#include <utility>

namespace clang {
class ASTContext;
} // namespace clang

namespace distwar {

/// What a function's call does, remembered for one translation unit;
/// cleared by EffectsScope (as are the caches below).
llvm::DenseMap<const clang::FunctionDecl *, CallEffects> &calleeCache();

/// Summaries of bodies at a call depth (the depth decides where the walk
/// stops) whose walk cut short no recursion into a function entered before
/// the body: those do not depend on which callers are being summarised, and
/// a body many calls reach is walked once per depth instead of once per
/// path to it.
llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, CallEffects> &
bodyCache();

/// The bodies being walked: the nesting level at which each was entered,
/// and the lowest level a recursion cut short in the current walk reached.
struct WalkLevels {
  unsigned Level = 0;
  unsigned LowestCut = UINT_MAX;
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> Entered;
};
WalkLevels &walkLevels();

/// Whether a variable escapes, remembered for one translation unit;
/// cleared by EffectsScope.
llvm::DenseMap<const clang::VarDecl *, bool> &escapeCache();

/// Results are remembered only inside an EffectsScope: outside one, the
/// declarations they are keyed by may belong to an AST already freed.
unsigned &scopeDepth();

/// Whether an access of type \p Access may touch an object of type
/// \p Object: two different scalar types never alias (C++'s rules).
bool typesMayAlias(clang::QualType Access, clang::QualType Object,
                   const clang::ASTContext &Ctx, unsigned Depth = 0);

/// Whether the pointer value \p Pointer points into the memory of one of
/// \p FD's own pointer parameters: `p`, `p + i`, `&p[i]`, or an element of
/// a pointer to arrays (`p[i]` decayed), for a `p` that \p FD never
/// changes (a changed one may point anywhere). Not a pointer loaded from
/// there (`p[i]` of a `T **p`), which points elsewhere.
bool pointsIntoOwnParameter(const clang::Expr *Pointer,
                            const clang::FunctionDecl *FD);

/// Whether the pointer value \p Pointer leads nowhere \p FD's callers can
/// see: into \p FD's own locals and by-value parameters (`&x`, a local
/// array, `&s.m[i]`), into a string literal or the function's name, or
/// nowhere (null).
bool pointsIntoOwnFrame(const clang::Expr *Pointer,
                        const clang::FunctionDecl *FD);

} // namespace distwar

#endif
