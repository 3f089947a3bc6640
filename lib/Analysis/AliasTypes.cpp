//===- AliasTypes.cpp - Which objects an access of a type may reach -------===//
//
// C++'s aliasing rules as the effects analysis uses them: an access through
// a pointer of one scalar type never touches an object of another.
//
//===----------------------------------------------------------------------===//

#include "Analysis/EffectsInternal.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

/// The scalar type an access of type \p T reads or writes, for C++'s
/// aliasing rules: enumerations as their underlying integer, integers
/// regardless of sign; null where any object may be reached (a class, a
/// character type, an incomplete or dependent type).
static QualType accessType(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  while (const ArrayType *A = Ctx.getAsArrayType(T))
    T = A->getElementType().getCanonicalType().getUnqualifiedType();
  if (const auto *E = T->getAs<EnumType>())
    T = E->getDecl()->getIntegerType().getCanonicalType();
  // Pointers of every type as one: the rules that keep them apart have
  // exceptions (void *, character pointers) not worth telling apart here.
  if (T->isPointerType())
    return Ctx.VoidPtrTy;
  if (T.isNull() || T->isDependentType() || !T->isBuiltinType() ||
      T->isCharType() || T->isVoidType())
    return QualType();
  if (T->isUnsignedIntegerType())
    T = const_cast<ASTContext &>(Ctx).getCorrespondingSignedType(T);
  return T;
}

bool typesMayAlias(QualType Access, QualType Object, const ASTContext &Ctx,
                   unsigned Depth) {
  // A struct is reached through its members (or as a whole).
  QualType Canon = Object.getCanonicalType().getUnqualifiedType();
  while (const ArrayType *A = Ctx.getAsArrayType(Canon))
    Canon = A->getElementType().getCanonicalType().getUnqualifiedType();
  if (const auto *RD = Canon->getAsRecordDecl();
      RD && !RD->isUnion() && RD->isCompleteDefinition() && Depth < 4 &&
      !(isa<CXXRecordDecl>(RD) && cast<CXXRecordDecl>(RD)->getNumBases())) {
    if (Access.getCanonicalType().getUnqualifiedType() == Canon)
      return true;
    return llvm::any_of(RD->fields(), [&](const FieldDecl *F) {
      return typesMayAlias(Access, F->getType(), Ctx, Depth + 1);
    });
  }
  QualType A = accessType(Access, Ctx), O = accessType(Object, Ctx);
  return A.isNull() || O.isNull() || A == O;
}

} // namespace distwar
