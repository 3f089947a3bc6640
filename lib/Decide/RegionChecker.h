//===- RegionChecker.h - What deferring atomics crosses ---------*- C++ -*-===//
//
// A batched group adds its fields at the reduction, after the statements of
// its region: those statements must not read what the deferred adds would
// have changed, store where they go, call what could, or be entered by a
// jump that skips the group's first sites.
//
//===----------------------------------------------------------------------===//

#ifndef DISTWAR_DECIDE_REGIONCHECKER_H
#define DISTWAR_DECIDE_REGIONCHECKER_H

#include "Find/AtomicSites.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace distwar {

/// Walks statements looking for what would make deferring atomics wrong.
class RegionChecker {
public:
  /// Deferring the sites of \p Sites whose buffer is one of \p Buffers, in
  /// \p Function.
  RegionChecker(const std::vector<AtomicSite> &Sites,
                llvm::DenseSet<const clang::VarDecl *> Buffers,
                const clang::FunctionDecl *Function);

  /// Only these pointer members of a struct buffer are destinations.
  void addField(const clang::FieldDecl *Field) { Fields.insert(Field); }

  /// A read of \p Loop's elements at its variable (isChannelRead) that
  /// may be of a destination is kept in \p Reads instead of failing: a
  /// versioned loop tests at run time that their ranges miss its adds.
  void allowChannelReads(const clang::ForStmt *Loop,
                         llvm::SmallVectorImpl<const clang::Expr *> *Reads) {
    ChannelLoop = Loop;
    ChannelReads = Reads;
  }

  /// Checks \p S; with \p BeforeAnyAdd, \p S runs before any atomic of the
  /// group (the group's first statement is its first atomic), so what it
  /// reads cannot miss a deferred add. The first problem found, with the
  /// statement that is it.
  Verdict check(const clang::Stmt *S, bool BeforeAnyAdd = false);

private:
  void fail(Reason R, const clang::Stmt *At, llvm::StringRef Text);
  void visit(const clang::Stmt *S, bool AddressOfAtomic);
  bool visitBufferName(const clang::Stmt *S, bool AddressOfAtomic);
  bool visitCall(const clang::CallExpr *Call, bool AddressOfAtomic);
  bool visitCalleeReads(const clang::CallExpr *Call);
  void visitAddress(const clang::Expr *E, bool AddressOfAtomic);
  bool mayReadDestination(const clang::Expr *P, unsigned Depth = 0);
  bool arrayMayBeDestination(const clang::Expr *A, unsigned Depth);
  bool readsDisjointMember(const clang::MemberExpr *ME) const;
  bool referenceMayReadDestination(const clang::ValueDecl *D, unsigned Depth);
  bool designatesDestination(const clang::Expr *E, unsigned Depth);
  bool cannotHoldDestination(const clang::Expr *Pointer) const;
  bool cannotHoldDestination(clang::QualType Object) const;
  bool isKernelValue(const clang::VarDecl *V) const;
  static bool isTrivialAssignment(const clang::CXXOperatorCallExpr *Op);
  static bool isUnaliased(clang::QualType T);
  static bool isPureCall(const clang::CallExpr *Call);
  static bool isPrivateStore(const clang::Expr *Target);
  static bool isPrivateObject(const clang::Expr *E);

  llvm::DenseSet<const clang::FieldDecl *> Fields;
  llvm::DenseSet<const clang::VarDecl *> Buffers;
  const clang::FunctionDecl *Function;
  /// Every destination is a `__restrict__` kernel parameter.
  bool DestinationsUnaliased = false;
  /// The types of the destinations' objects, canonical and unqualified.
  llvm::SmallVector<clang::QualType, 4> DestinationTypes;
  bool TypesKnown = true;
  bool LoadsMatter = true;
  llvm::DenseSet<const clang::CallExpr *> CommutingAtomics;
  const clang::ForStmt *ChannelLoop = nullptr;
  llvm::SmallVectorImpl<const clang::Expr *> *ChannelReads = nullptr;
  Verdict Found;
  unsigned SwitchDepth = 0;
};

} // namespace distwar

#endif
