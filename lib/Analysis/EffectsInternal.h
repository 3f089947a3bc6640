//===- EffectsInternal.h - What Effects' files share ------------*- C++ -*-===//
//
// The call summaries (Effects.cpp), the escape analysis (Escapes.cpp) and
// the aliasing rules (AliasTypes.cpp) answer one question together: what
// a statement may change. These are the pieces they share; callers use
// Effects.h.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_ANALYSIS_EFFECTSINTERNAL_H
#define DISTWAR_ANALYSIS_EFFECTSINTERNAL_H

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"

namespace clang {
class ASTContext;
} // namespace clang

namespace distwar {

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

} // namespace distwar

#endif
