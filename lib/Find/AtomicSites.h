//===- AtomicSites.h - atomicAdd calls in device code -----------*- C++ -*-===//
//
// Finds every atomicAdd-like call in device code of the main file and
// decomposes its address into (buffer, primitive key, field).
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_FIND_ATOMICSITES_H
#define DISTWAR_FIND_ATOMICSITES_H

#include "Analysis/AtomicCalls.h"
#include "Find/UnparsedFunctions.h"
#include "distwar-rewrite/Diagnostics.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distwar {

/// The constant trip count of a version, as its loop's bound names it.
inline constexpr const char *kVersionTripName = "distwar_trip";

/// `for (ch = L; ch < U; ++ch)` with compile-time L and U: each iteration
/// writes its own field, so the site takes U - L slots. A loop from 0 to a
/// bound known only at run time (a texture's channels) may be versioned
/// instead (Emit/ChannelVersions.h): a copy for each small trip count runs
/// with the count a constant, UpperText, and the loop as written runs for
/// the others.
struct ChannelLoop {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Lower = nullptr;
  const clang::Expr *Upper = nullptr;
  std::string LowerText; ///< source text, valid for every instantiation
  std::string UpperText;
  bool LowerIsZero = false;
  bool HasUnrollPragma = false;
  /// For a bound that is a run-time value (the loop is versioned), the
  /// bound as written; UpperText is then the constant a version defines.
  std::string RunTimeUpperText;

  bool runTimeTrip() const { return !RunTimeUpperText.empty(); }
};

/// A macro invocation in the main file whose whole expansion is one or more
/// atomic statements, possibly wrapped in `do { ... } while (0)`
/// (MacroSites.h): the tool replaces the invocation text, never the macro
/// body.
struct MacroInvocation {
  clang::CharSourceRange FileRange; ///< the invocation, in the main file
  std::vector<std::string> Tokens;  ///< its expanded tokens, as text
  unsigned Newlines = 0;            ///< line breaks inside the invocation
  /// The `do { } while (0)` around the statements, or null. It runs its
  /// body once and nothing leaves it, so the analyses see through it.
  const clang::DoStmt *Wrapper = nullptr;
};

struct AtomicSite {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Function = nullptr;
  std::string FunctionName; ///< qualified, without template arguments
  std::string Callee;       ///< atomicAdd, atomicAdd_block, ...
  /// CUDA's device-scope atomicAdd (or an alias of it such as PyTorch's
  /// gpuAtomicAdd), recognised by its declaration, not by its name.
  bool IsDeviceAdd = false;
  unsigned Line = 0, Column = 0;
  /// The included file the site is in; empty for the main file.
  std::string File;
  /// Element type as it may be spelled in the batch (canonical, or the
  /// template parameter's name when dependent).
  std::string TypeText;
  /// Null when the address was not decomposed.
  const clang::VarDecl *Buffer = nullptr;
  /// Set when the buffer is a pointer member of Buffer (`p.grad[key]` with
  /// `p` a by-value parameter or a namespace-scope variable).
  const clang::FieldDecl *BufferField = nullptr;
  /// Set for a site written through a macro: its invocation, and the token
  /// indices (into Invocation->Tokens) of its callee [CalleeBegin, CalleeEnd)
  /// and of its first argument's first token.
  std::shared_ptr<const MacroInvocation> Invocation;
  unsigned CalleeBegin = 0, CalleeEnd = 0, FirstArgToken = 0;
  const clang::Expr *Key = nullptr;
  std::string KeyText;
  /// The key is the buffer pointer itself (`grad` in `&grad[1]`): the
  /// pointer may differ across lanes, so lanes are grouped by its value and
  /// the constant offsets are the fields.
  bool KeyIsBuffer = false;
  /// The key is the field's whole address (an accessor's element, a pointer
  /// sum no expression of which holds the index alone): one field per key.
  /// Such a key is also KeyIsBuffer (it changes only with its variables'
  /// storage).
  bool KeyIsAddress = false;
  /// The whole address is the same in every lane: a constant element of a
  /// buffer the same in every lane, keyed by that buffer (KeyIsBuffer). The
  /// sites of one iteration whose addresses are uniform form one group,
  /// whichever their buffers: a single warp-uniform batch.
  bool AddressIsUniform = false;
  /// The key is the element's address in a per-lane base (a primitive's
  /// record) indexed by a loop whose trip count is known only at run time
  /// (its channels): `grad_col + c` for `c < n_channels`.
  bool KeyIsRunTimeChannel = false;
  /// Such a site in a loop that is versioned (Channel is set): the key is
  /// the address of the run's first element, the address at the loop
  /// variable's first value (`grad_col` for `grad_col + c`), and the run's
  /// elements are its fields. Key and KeyText are the site's address, read
  /// with the loop variable at 0.
  bool KeyIsRunBase = false;
  std::string FieldText; ///< e.g. ".x", "[*3+1]", "[*C+ch]"
  std::optional<ChannelLoop> Channel;
  /// Statements enclosing the call, innermost first, up to the body.
  std::vector<const clang::Stmt *> Ancestors;
  /// Why this site can join no group (None when it can), and where.
  Verdict Why;
};

/// True when \p A is the `do { } while (0)` wrapper of the macro invocation
/// that holds \p S, or that wrapper's body: a plain block for every analysis.
bool isInvocationWrapper(const AtomicSite &S, const clang::Stmt *A);

/// Why the device functions of the included file \p File may not be edited,
/// or None when they may (--edit-headers).
using HeaderPolicy = llvm::function_ref<Reason(clang::FileID File)>;

/// Every site of device functions spelled in the main file or in a user's
/// header, in source order. Sites in a header get its name in File and, unless
/// \p Policy allows the header (no policy: none is allowed), its reason.
/// Sites of the functions in \p Unparsed get their reason, and nothing else
/// is read of them (the AST may hold what Clang could not build).
/// Implicit template instantiations are skipped: the pattern is analysed.
std::vector<AtomicSite>
findAtomicSites(clang::ASTContext &Ctx, HeaderPolicy Policy = nullptr,
                const UnparsedFunctions *Unparsed = nullptr);

/// The trip count of \p CL when its bounds are integer constants here (not
/// value-dependent), else nullopt.
std::optional<int64_t> constantTripCount(const ChannelLoop &CL,
                                         clang::ASTContext &Ctx);

} // namespace distwar

#endif
