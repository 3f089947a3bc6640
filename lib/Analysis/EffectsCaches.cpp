//===- EffectsCaches.cpp - what one translation unit's analysis keeps -----===//

#include "Analysis/Effects.h"
#include "Analysis/EffectsInternal.h"
#include <cassert>

using namespace clang;

namespace distwar {

llvm::DenseMap<const FunctionDecl *, CallEffects> &calleeCache() {
  static llvm::DenseMap<const FunctionDecl *, CallEffects> Cache;
  return Cache;
}

llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, CallEffects> &
bodyCache() {
  static llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, CallEffects>
      Cache;
  return Cache;
}

WalkLevels &walkLevels() {
  static WalkLevels Levels;
  return Levels;
}

llvm::DenseMap<const VarDecl *, bool> &escapeCache() {
  static llvm::DenseMap<const VarDecl *, bool> Cache;
  return Cache;
}

unsigned &scopeDepth() {
  static unsigned Depth = 0;
  return Depth;
}

EffectsScope::EffectsScope() {
  assert(!scopeDepth() && "one translation unit's scope at a time");
  ++scopeDepth();
  escapeCache().clear();
  calleeCache().clear();
  bodyCache().clear();
}
EffectsScope::~EffectsScope() {
  --scopeDepth();
  escapeCache().clear();
  calleeCache().clear();
  bodyCache().clear();
}

} // namespace distwar
