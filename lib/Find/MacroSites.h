//===- MacroSites.h - atomics written through macros ------------*- C++ -*-===//
//
// An atomicAdd that comes from a macro is rewritable when the top-level
// invocation in the main file expands to nothing but whole atomic statements
// (`ADD(p, v)`, an x/y/z `ADD3(buf, i, v)`), possibly wrapped in
// `do { ... } while (0)`: the invocation text is replaced by its expansion
// with the calls batched. Macro bodies are never edited.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_MACROSITES_H
#define DISTWAR_FIND_MACROSITES_H

#include "Find/AtomicSites.h"
#include "clang/Tooling/Syntax/Tokens.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace distwar {

/// Revisits the sites that findAtomicSites() marked MacroExpansion: a site
/// whose macro invocation qualifies gets its Invocation and token indices
/// and loses the reason (keys spelled inside a macro body get their text
/// from the expansion); the others get a more precise reason.
void resolveMacroSites(clang::ASTContext &Ctx,
                       const clang::syntax::TokenBuffer &Tokens,
                       std::vector<AtomicSite> &Sites);

/// The text replacing \p Inv: its expanded tokens, each member site's callee
/// replaced by \p Callee(site) and \p ArgPrefix(site) inserted before its
/// first argument, followed by the invocation's line breaks (so lines keep
/// their numbers). \p Members are indices into \p Sites.
std::string
rewriteInvocation(const MacroInvocation &Inv,
                  const std::vector<AtomicSite> &Sites,
                  llvm::ArrayRef<size_t> Members,
                  llvm::function_ref<std::string(size_t)> Callee,
                  llvm::function_ref<std::string(size_t)> ArgPrefix);

/// The expanded tokens of \p E joined by spaces: valid where \p E was.
std::string expandedText(const clang::Expr *E,
                         const clang::syntax::TokenBuffer &Tokens,
                         const clang::SourceManager &SM);

} // namespace distwar

#endif
