//===- AtomicSites.cpp - atomicAdd calls in device code -------------------===//

#include "Find/AtomicSites.h"
#include "Analysis/AstQueries.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/VarWrites.h"
#include "Find/OpaqueKeys.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Regex.h"

using namespace clang;

namespace distwar {

bool isInvocationWrapper(const AtomicSite &S, const Stmt *A) {
  const DoStmt *W = S.Invocation ? S.Invocation->Wrapper : nullptr;
  return W && (A == W || A == W->getBody());
}

std::optional<int64_t> constantTripCount(const ChannelLoop &CL,
                                         ASTContext &Ctx) {
  const Expr *Lower = CL.Lower->IgnoreParenImpCasts();
  const Expr *Upper = CL.Upper->IgnoreParenImpCasts();
  Expr::EvalResult L, U;
  if (Lower->isValueDependent() || Upper->isValueDependent() ||
      !Lower->EvaluateAsInt(L, Ctx) || !Upper->EvaluateAsInt(U, Ctx))
    return std::nullopt;
  return U.Val.getInt().getExtValue() - L.Val.getInt().getExtValue();
}

namespace {

bool isReportedCallee(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"atomicAdd", "atomicAdd_block", "atomicAdd_system"}, true)
      .Cases({"atomicSub", "atomicSub_block", "atomicSub_system"}, true)
      .Default(false);
}

/// True when \p FD is one of CUDA's own atomic functions: declared at
/// namespace scope in a system header (the SDK and Clang's CUDA wrappers are
/// system headers unless a build names them with -I) or in one of the SDK's
/// atomic headers, wherever it was found.
bool isCudaDeclaration(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  SourceLocation Loc = SM.getExpansionLoc(FD->getLocation());
  if (SM.isInSystemHeader(Loc))
    return true;
  static const llvm::Regex SdkHeader(
      "(^|/)(device|sm_[0-9]+)_atomic_functions\\.hp?p?$");
  return SdkHeader.match(SM.getFilename(Loc));
}

/// PyTorch's gpuAtomicAdd: atomicAdd for the element types a batch holds.
/// Older torch declares it in ATen/cuda/Atomic.cuh, newer torch in
/// torch/headeronly/cuda/Atomic.h (which ATen's header then includes).
bool isTorchAtomicAdd(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD->getIdentifier() || FD->getName() != "gpuAtomicAdd" ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  llvm::StringRef File = SM.getFilename(SM.getExpansionLoc(FD->getLocation()));
  return File.ends_with("ATen/cuda/Atomic.cuh") ||
         File.ends_with("torch/headeronly/cuda/Atomic.h");
}

/// What \p FD is as an atomic: nullopt when it is none of CUDA's (a user's
/// function that happens to be named atomicAdd is an ordinary call), true
/// for a device-scope add, false for the other reported atomics.
std::optional<bool> atomicKind(const FunctionDecl *FD,
                               const SourceManager &SM) {
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  if (isTorchAtomicAdd(FD, SM))
    return true;
  if (!isReportedCallee(FD->getName()) || !isCudaDeclaration(FD, SM))
    return std::nullopt;
  return FD->getName() == "atomicAdd";
}

/// atomicKind of the function \p Call calls; in a template, of every
/// declaration the unresolved name may pick (all must agree).
std::optional<bool> atomicKind(const CallExpr *Call, const SourceManager &SM) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return atomicKind(FD, SM);
  const auto *ULE =
      dyn_cast<UnresolvedLookupExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!ULE || ULE->getNumDecls() == 0)
    return std::nullopt;
  std::optional<bool> Kind;
  for (const NamedDecl *D : ULE->decls()) {
    const NamedDecl *Under = D->getUnderlyingDecl();
    const FunctionDecl *FD = dyn_cast<FunctionDecl>(Under);
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(Under))
      FD = FTD->getTemplatedDecl();
    std::optional<bool> This = atomicKind(FD, SM);
    if (!This || (Kind && *Kind != *This))
      return std::nullopt;
    Kind = This;
  }
  return Kind;
}

/// Element type as the batch can spell it, and whether it may be batched.
std::pair<std::string, bool> elementType(const Expr *Addr,
                                         const ASTContext &Ctx) {
  QualType T = Addr->getType();
  if (T->isDependentType() && !T->isPointerType())
    return {"", false};
  if (!T->isPointerType())
    return {"", false};
  QualType Pointee = T->getPointeeType().getUnqualifiedType();
  if (Pointee->isDependentType())
    return {Pointee.getAsString(Ctx.getPrintingPolicy()),
            isa<TemplateTypeParmType>(Pointee.getCanonicalType())};
  QualType Canon = Pointee.getCanonicalType();
  std::string Text = Canon.getAsString(Ctx.getPrintingPolicy());
  const auto *BT = dyn_cast<BuiltinType>(Canon);
  bool Ok = BT && (BT->getKind() == BuiltinType::Float ||
                   BT->getKind() == BuiltinType::Double ||
                   BT->getKind() == BuiltinType::Int ||
                   BT->getKind() == BuiltinType::UInt ||
                   BT->getKind() == BuiltinType::ULongLong);
  return {Text, Ok};
}

/// Whether the atomic's value is discarded, and whether it is a whole
/// statement. \p Ancestors[0] is the call's parent.
Reason resultUse(const CallExpr *Call, llvm::ArrayRef<const Stmt *> Ancestors) {
  const Stmt *Child = Call;
  for (const Stmt *P : Ancestors) {
    if (isa<ExprWithCleanups, ParenExpr>(P)) {
      Child = P;
      continue;
    }
    if (const auto *Cast = dyn_cast<CStyleCastExpr>(P);
        Cast && Cast->getCastKind() == CK_ToVoid) {
      Child = P;
      continue;
    }
    if (isa<CompoundStmt, AttributedStmt, LabelStmt>(P))
      return Reason::None;
    if (const auto *F = dyn_cast<ForStmt>(P))
      return F->getBody() == Child  ? Reason::None
             : F->getInc() == Child ? Reason::NotAStatement
                                    : Reason::UsedResult;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getBody() == Child ? Reason::None : Reason::UsedResult;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return D->getBody() == Child ? Reason::None : Reason::UsedResult;
    if (const auto *I = dyn_cast<IfStmt>(P))
      return I->getThen() == Child || I->getElse() == Child
                 ? Reason::None
                 : Reason::UsedResult;
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->getOpcode() == BO_Comma && BO->getLHS() == Child)
      return Reason::NotAStatement;
    if (isa<Expr>(P) || isa<ReturnStmt, DeclStmt>(P))
      return Reason::UsedResult;
    return Reason::NotAStatement;
  }
  return Reason::NotAStatement;
}

/// True when \p S assigns or increments `v.field` (or takes its address).
bool writesMember(const Stmt *S, const VarDecl *V, const FieldDecl *Field) {
  if (!S)
    return false;
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
    Target = UO->getSubExpr();
  if (const auto *ME = Target
                           ? dyn_cast<MemberExpr>(Target->IgnoreParenImpCasts())
                           : nullptr)
    if (ME->getMemberDecl() == Field && refersTo(ME->getBase(), V))
      return true;
  for (const Stmt *Child : S->children())
    if (writesMember(Child, V, Field))
      return true;
  return false;
}

/// Matches `for (ch = L; ch < U; ++ch)` with compile-time L and U and a body
/// that neither leaves the loop nor writes ch.
std::optional<ChannelLoop>
matchChannelLoop(const ForStmt *F, const Stmt *Parent, ASTContext &Ctx) {
  std::optional<CountingLoop> Counting = matchCountingLoop(F);
  if (!Counting)
    return std::nullopt;
  ChannelLoop CL;
  CL.Loop = F;
  CL.Var = Counting->Var;
  CL.Lower = Counting->Start;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Cond || Cond->getOpcode() != BO_LT || !refersTo(Cond->getLHS(), CL.Var))
    return std::nullopt;
  CL.Upper = Cond->getRHS();
  if (!isCompileTimeConstant(CL.Lower, Ctx) ||
      !isCompileTimeConstant(CL.Upper, Ctx) ||
      firstLoopExit(F->getBody()) ||
      findWrite(F->getBody(), CL.Var, false))
    return std::nullopt;
  CL.LowerText = sourceText(CL.Lower, Ctx);
  CL.UpperText = sourceText(CL.Upper, Ctx);
  if (CL.LowerText.empty() || CL.UpperText.empty())
    return std::nullopt;
  const auto *Zero = dyn_cast<IntegerLiteral>(CL.Lower->IgnoreParenImpCasts());
  CL.LowerIsZero = Zero && Zero->getValue() == 0;
  if (const auto *AS = dyn_cast_or_null<AttributedStmt>(Parent))
    CL.HasUnrollPragma = llvm::any_of(
        AS->getAttrs(), [](const Attr *A) { return isa<LoopHintAttr>(A); });
  return CL;
}

bool isIntegralKey(const Expr *Key, const ASTContext &Ctx) {
  QualType T = Key->getType();
  if (T->isDependentType())
    return true;
  if (!T->isIntegralOrEnumerationType() || T->isBooleanType())
    return false;
  uint64_t Bits = Ctx.getTypeSize(T);
  return Bits == 32 || Bits == 64;
}

/// The operands of \p E when it is a built-in `a + b` (in a template also an
/// unresolved operator call that can only be the built-in one: torch's
/// headers declare many operator+, which leaves `p + i` unresolved when p is
/// a `T *`).
static std::optional<std::pair<const Expr *, const Expr *>>
sumOperands(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add)
    return std::make_pair(BO->getLHS(), BO->getRHS());
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Op || Op->getOperator() != OO_Plus || Op->getNumArgs() != 2 ||
      !isBuiltinOperatorCall(Op))
    return std::nullopt;
  return std::make_pair(Op->getArg(0), Op->getArg(1));
}

void flattenSum(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Terms) {
  E = E->IgnoreParenImpCasts();
  if (auto Operands = sumOperands(E)) {
    flattenSum(Operands->first, Terms);
    flattenSum(Operands->second, Terms);
    return;
  }
  Terms.push_back(E);
}

class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
public:
  SiteFinder(ASTContext &Ctx, std::vector<AtomicSite> &Sites,
             HeaderPolicy Policy)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Sites(Sites), Policy(Policy) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    SourceLocation Where = SM.getExpansionLoc(FD->getLocation());
    // Device functions of the user's headers are reported, never edited
    // (system headers, the SDK's and Clang's, are not the user's).
    if (!FD->doesThisDeclarationHaveABody() || FD->isTemplateInstantiation() ||
        SM.isInSystemHeader(Where) ||
        (!SM.isWrittenInMainFile(Where) &&
         (!SM.getFileEntryRefForID(SM.getFileID(Where)) ||
          SM.getFileID(Where) == SM.getPreambleFileID() ||
          SM.isWrittenInBuiltinFile(Where) ||
          SM.isWrittenInCommandLineFile(Where))))
      return true;
    InMainFile = SM.isWrittenInMainFile(Where);
    HeaderWhy = InMainFile ? Reason::None
                : Policy   ? Policy(SM.getFileID(Where))
                           : Reason::HeaderNotEditable;
    if (!FD->hasAttr<CUDAGlobalAttr>() && !FD->hasAttr<CUDADeviceAttr>())
      return true;
    Function = FD;
    Stack.clear();
    walk(FD->getBody());
    return true;
  }

private:
  void walk(const Stmt *S) {
    if (!S)
      return;
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      // Reported, never batched: the lambda's body is another function,
      // called from places the analyses of this one do not see.
      bool Outer = InLambda;
      InLambda = true;
      walk(Lambda->getBody());
      InLambda = Outer;
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && Call->getNumArgs() == 2)
      if (std::optional<bool> DeviceAdd = atomicKind(Call, SM))
        record(Call, *DeviceAdd);
    Stack.push_back(S);
    for (const Stmt *Child : S->children())
      walk(Child);
    Stack.pop_back();
  }

  void record(const CallExpr *Call, bool DeviceAdd) {
    AtomicSite Site;
    Site.Call = Call;
    Site.IsDeviceAdd = DeviceAdd;
    Site.Function = Function;
    Site.FunctionName = Function->getQualifiedNameAsString();
    Site.Callee = calleeName(Call).str();
    SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
    Site.Line = SM.getExpansionLineNumber(Loc);
    Site.Column = SM.getExpansionColumnNumber(Loc);
    Site.Ancestors.assign(Stack.rbegin(), Stack.rend());
    auto [Type, TypeOk] = elementType(Call->getArg(0), Ctx);
    Site.TypeText = Type;
    TypeFromBuffer = false;
    decompose(Site);
    TypeOk = TypeOk || TypeFromBuffer;
    if (!Site.IsDeviceAdd)
      Site.Why = Reason::UnsupportedAtomic;
    else if (Reason Use = resultUse(Call, Site.Ancestors); Use != Reason::None)
      Site.Why = Use;
    else if (!TypeOk)
      // A type that only an instantiation knows (`V::value_type`, `.x` of a
      // dependent vector) may differ between instantiations.
      Site.Why = Call->getArg(0)->getType()->isDependentType()
                     ? Reason::DependentElementType
                     : Reason::UnsupportedType;
    else if (Site.Why == Reason::None &&
             (Call->getBeginLoc().isMacroID() ||
              Call->getArg(0)->getBeginLoc().isMacroID() ||
              Call->getArg(0)->getEndLoc().isMacroID()))
      Site.Why = Reason::MacroExpansion;
    // Inside a lambda nothing is rewritten: that, not how the address is
    // written, is why the site stays (a lambda's parameters differ per call).
    if (InLambda && (Site.Why == Reason::None ||
                     Site.Why == Reason::AddressNotDecomposed ||
                     Site.Why == Reason::BufferNotUniform))
      Site.Why = Reason::InLambda;
    if (!InMainFile) {
      if (HeaderWhy != Reason::None)
        Site.Why = HeaderWhy;
      Site.File = SM.getFilename(Loc).str();
    }
    Sites.push_back(std::move(Site));
  }

  /// Splits the address into buffer, key and field; sets Why on failure.
  void decompose(AtomicSite &Site) {
    const Expr *Addr = Site.Call->getArg(0)->IgnoreParenImpCasts();
    const Expr *Base = nullptr, *Index = nullptr;
    llvm::SmallVector<const Expr *, 4> IndexTerms;
    std::string Member;
    if (const auto *UO = dyn_cast<UnaryOperator>(Addr);
        UO && UO->getOpcode() == UO_AddrOf) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      while (true) {
        const auto *ME = dyn_cast<MemberExpr>(Sub);
        // `(&x)->f` is `x.f`: macros taking a pointer write it that way.
        const auto *ArrowOfAddr =
            ME && ME->isArrow()
                ? dyn_cast<UnaryOperator>(ME->getBase()->IgnoreParenImpCasts())
                : nullptr;
        if (ArrowOfAddr && ArrowOfAddr->getOpcode() == UO_AddrOf) {
          Member = "." + ME->getMemberNameInfo().getAsString() + Member;
          Sub = ArrowOfAddr->getSubExpr()->IgnoreParens();
        } else if (ME && !ME->isArrow()) {
          Member = "." + ME->getMemberNameInfo().getAsString() + Member;
          Sub = ME->getBase()->IgnoreParenImpCasts();
        } else if (const auto *DME = dyn_cast<CXXDependentScopeMemberExpr>(Sub);
                   DME && !DME->isArrow() && !DME->isImplicitAccess()) {
          Member = "." + DME->getMember().getAsString() + Member;
          Sub = DME->getBase()->IgnoreParenImpCasts();
        } else {
          break;
        }
      }
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub)) {
        Base = ASE->getBase();
        Index = ASE->getIdx();
      } else if (const VarDecl *Accessor = subscriptedAccessor(Sub);
                 Accessor && Member.empty()) {
        Site.Buffer = Accessor;
        keyByAddress(Site);
        if (Site.KeyText.empty())
          Site.Why = Reason::MacroExpansion;
        return;
      }
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(Addr);
               Ref && Ref->getType()->isPointerType() &&
               isa<VarDecl>(Ref->getDecl())) {
      keyByPointer(Site, Ref);
      return;
    } else if (sumOperands(Addr)) {
      // buf + key * K + c, in any order: one pointer term, the rest index.
      llvm::SmallVector<const Expr *, 4> Terms;
      flattenSum(Addr, Terms);
      for (const Expr *T : Terms) {
        QualType Ty = T->getType();
        if (Ty->isPointerType() || Ty->isArrayType()) {
          if (Base) {
            Base = nullptr;
            break;
          }
          Base = T;
        } else {
          IndexTerms.push_back(T);
        }
      }
    }
    if (Index)
      flattenSum(Index, IndexTerms);
    if (Base && !IndexTerms.empty() && !Index)
      Index = IndexTerms.front();
    if (!Base || !Index) {
      Site.Why = Reason::AddressNotDecomposed;
      return;
    }
    const Expr *BaseExpr = Base->IgnoreParenImpCasts();
    // `(float *)p.d_val`: a buffer kept untyped (void *) in a struct is
    // still that buffer; the element type is the cast's.
    while (const auto *Cast = dyn_cast<ExplicitCastExpr>(BaseExpr)) {
      if (!Cast->getType()->isPointerType() ||
          !Cast->getSubExpr()->getType()->isPointerType())
        break;
      BaseExpr = Cast->getSubExpr()->IgnoreParenImpCasts();
    }
    // `p.grad[key]`: a pointer member of a struct variable.
    // `p.cubemap.d_val[key]`: members of members of it, too.
    const FieldDecl *Field = nullptr;
    NestedField = false;
    if (const auto *ME = dyn_cast<MemberExpr>(BaseExpr); ME && !ME->isArrow())
      if ((Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))) {
        BaseExpr = ME->getBase()->IgnoreParenImpCasts();
        while (const auto *Outer = dyn_cast<MemberExpr>(BaseExpr)) {
          if (Outer->isArrow() || !isa<FieldDecl>(Outer->getMemberDecl()))
            break;
          BaseExpr = Outer->getBase()->IgnoreParenImpCasts();
          NestedField = true;
        }
      }
    const auto *BaseRef = dyn_cast<DeclRefExpr>(BaseExpr);
    const auto *Buffer =
        BaseRef ? dyn_cast<VarDecl>(BaseRef->getDecl()) : nullptr;
    if (!Buffer) {
      Site.Why = Reason::BufferNotUniform;
      return;
    }
    Site.Buffer = Buffer;
    Site.BufferField = Field;
    decomposeIndex(Site, IndexTerms, Member);
    if (Site.TypeText.empty() && Member.empty()) {
      // A dependent address: the buffer's declared type still names T.
      QualType T = Buffer->getType();
      QualType Elem = T->isPointerType() ? T->getPointeeType()
                      : T->isArrayType()
                          ? QualType(T->getPointeeOrArrayElementType(), 0)
                          : QualType();
      if (!Elem.isNull() &&
          isa<TemplateTypeParmType>(Elem.getCanonicalType())) {
        Site.TypeText =
            Elem.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
        TypeFromBuffer = true;
      }
    }
    if (Site.Why != Reason::None)
      return;
    if (!isUniformBuffer(Buffer, Field))
      keyByBuffer(Site, Base->IgnoreParenImpCasts());
    else if (!Site.KeyIsBuffer && !isIntegralKey(Site.Key, Ctx))
      Site.Why = Reason::KeyNotIntegral;
    else if (keyHasSideEffects(Site.Key, Ctx))
      Site.Why = Reason::KeyHasSideEffects;
  }

  /// `key`, `key * K + c`, `K * key + c + ch`: the channel variable must be
  /// the variable of an enclosing constant-trip loop.
  void decomposeIndex(AtomicSite &Site, llvm::ArrayRef<const Expr *> Terms,
                      const std::string &Member) {
    const Expr *Stride = nullptr, *StrideKey = nullptr, *Other = nullptr;
    const DeclRefExpr *ChannelRef = nullptr;
    std::string Constants;
    unsigned Others = 0, Strides = 0;
    for (const Expr *T : Terms) {
      if (isCompileTimeConstant(T, Ctx)) {
        Constants += "+" + sourceText(T, Ctx);
        continue;
      }
      if (const auto *Mul = dyn_cast<BinaryOperator>(T);
          Mul && Mul->getOpcode() == BO_Mul) {
        bool L = isCompileTimeConstant(Mul->getLHS(), Ctx);
        bool R = isCompileTimeConstant(Mul->getRHS(), Ctx);
        if (L != R) {
          ++Strides;
          Stride = L ? Mul->getLHS() : Mul->getRHS();
          StrideKey =
              (L ? Mul->getRHS() : Mul->getLHS())->IgnoreParenImpCasts();
          continue;
        }
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(T); DRE && !ChannelRef)
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (enclosingLoopOf(Site, VD)) {
            ChannelRef = DRE;
            continue;
          }
      ++Others;
      Other = T;
    }
    if (Strides == 0 && Others == 1 &&
        keyPlusOffset(Site, Other, ChannelRef, Constants, Member))
      return;
    if (ChannelRef && Strides != 1) {
      // A loop variable without a stride is a key (`&buf[i]`), not a field.
      ChannelRef = nullptr;
      ++Others;
    }
    if (ChannelRef && Others) {
      Site.Why = Reason::AddressNotDecomposed;
      return;
    }
    if (Strides == 1 && !Others) {
      Site.Key = StrideKey;
      Site.FieldText =
          Member + "[*" + sourceText(Stride, Ctx) + Constants +
          (ChannelRef ? "+" + ChannelRef->getDecl()->getName().str() : "") +
          "]";
    } else if (Terms.size() == 1) {
      Site.Key = Terms.front();
      Site.FieldText = Member;
    } else {
      // A sum that is not key * K + c: the whole index is the key.
      const Expr *Index = Site.Call->getArg(0)->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(Index))
        Index = UO->getSubExpr()->IgnoreParens();
      while (const auto *ME = dyn_cast<MemberExpr>(Index))
        Index = ME->getBase()->IgnoreParenImpCasts();
      Site.FieldText = Member;
      // `buf + a * D + b`: no expression holds the index alone.
      const auto *ASE = dyn_cast<ArraySubscriptExpr>(Index);
      if (!ASE) {
        keyByAddress(Site);
        return;
      }
      Site.Key = ASE->getIdx()->IgnoreParenImpCasts();
    }
    Site.KeyText = sourceText(Site.Key, Ctx);
    if (ChannelRef)
      setChannel(Site,
                 enclosingLoopOf(Site, cast<VarDecl>(ChannelRef->getDecl())));
  }

  /// `buf + key + c`, `&buf[key + 1]`, `buf + key + ch`: the one term that
  /// is neither a constant nor a channel variable is the key, the rest an
  /// offset added after it (a point's coordinates behind an offset computed
  /// into a local, a texel's channels). False, deciding nothing, when there
  /// is no offset or the loop variable is not a channel loop's (the sum is
  /// then one key).
  bool keyPlusOffset(AtomicSite &Site, const Expr *Key,
                     const DeclRefExpr *ChannelRef, const std::string &Constants,
                     const std::string &Member) {
    std::optional<ChannelLoop> Channel;
    if (ChannelRef) {
      Channel = channelLoopOf(
          Site, enclosingLoopOf(Site, cast<VarDecl>(ChannelRef->getDecl())));
      if (!Channel)
        return false;
    } else if (Constants.empty()) {
      return false;
    }
    std::string Offset =
        Constants + (ChannelRef ? "+" + ChannelRef->getDecl()->getName().str()
                                : std::string());
    Site.Key = Key->IgnoreParenImpCasts();
    Site.KeyText = sourceText(Site.Key, Ctx);
    Site.FieldText = "[" + Offset + "]" + Member;
    Site.Channel = Channel;
    return true;
  }

  /// The channel loop of \p Loop, an enclosing loop of the site, if it is one.
  std::optional<ChannelLoop> channelLoopOf(const AtomicSite &Site,
                                           const ForStmt *Loop) {
    assert(Loop && "the channel variable's loop encloses the site");
    const Stmt *Parent = nullptr;
    for (size_t I = 0; I + 1 < Site.Ancestors.size(); ++I)
      if (Site.Ancestors[I] == Loop)
        Parent = Site.Ancestors[I + 1];
    return matchChannelLoop(Loop, Parent, Ctx);
  }

  /// Site.Channel from \p Loop, an enclosing loop of the site.
  void setChannel(AtomicSite &Site, const ForStmt *Loop) {
    Site.Channel = channelLoopOf(Site, Loop);
    if (!Site.Channel)
      Site.Why = Reason::ChannelLoopUnsupported;
  }

  /// A base pointer that may differ across lanes (a __device__ function's
  /// parameter, a local) cannot be rebuilt from a key in another lane, so it
  /// becomes the key itself: lanes are grouped by the pointer's value. Its
  /// index must then be a field, the same in every lane: a constant, or the
  /// variable of an enclosing constant-trip loop. `accumulate(float *g, ...)`
  /// with `&g[0]`, `&g[1]`, `&g[2]` is one group keyed by g.
  /// The kernel parameter under `acc[a][b]...` when every subscript is a
  /// pure `operator[]` of a class held by value (a tensor accessor), which
  /// the kernel never writes, with indices free of side effects: the same
  /// object in every lane, each subscript a function of its index alone, so
  /// that the address can be evaluated again.
  const VarDecl *subscriptedAccessor(const Expr *E) {
    llvm::SmallVector<const CXXOperatorCallExpr *, 4> Ops;
    const Expr *Root = subscriptChain(E, Ops);
    if (!Root || llvm::any_of(Ops, [&](const CXXOperatorCallExpr *Op) {
          return !isPureCallee(Op->getDirectCallee()) ||
                 keyHasSideEffects(Op->getArg(1), Ctx);
        }))
      return nullptr;
    const auto *Ref = dyn_cast<DeclRefExpr>(Root);
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Param || !Param->getType()->isRecordType() ||
        !Function->hasAttr<CUDAGlobalAttr>() || !Function->getBody() ||
        findStorageWrite(Function->getBody(), Param))
      return nullptr;
    return Param;
  }

  /// The site's whole address is its key: one field, and lanes that add to
  /// the same element reduce whatever their indices are.
  void keyByAddress(AtomicSite &Site) {
    Site.Key = Site.Call->getArg(0)->IgnoreParenImpCasts();
    Site.KeyText = sourceText(Site.Key, Ctx);
    Site.KeyIsBuffer = true;
    Site.KeyIsAddress = true;
  }

  /// `atomicAdd(p, v)`, read as `&p[0]`: a pointer the same in every lane
  /// is the address of one element (lanes reduce into it); one that may
  /// differ is the key of field 0, which joins `p + 1`'s group.
  void keyByPointer(AtomicSite &Site, const DeclRefExpr *Ref) {
    Site.Buffer = cast<VarDecl>(Ref->getDecl());
    if (isUniformBuffer(Site.Buffer, nullptr)) {
      keyByAddress(Site);
      return;
    }
    Site.FieldText = "[0]";
    Site.Key = Ref;
    Site.KeyText = sourceText(Ref, Ctx);
    Site.KeyIsBuffer = true;
  }

  void keyByBuffer(AtomicSite &Site, const Expr *Base) {
    const Expr *Index = Site.Key;
    Site.Why = Reason::BufferNotUniform;
    if (!Base->getType()->isPointerType() || Site.Channel || !Index)
      return;
    if (!isCompileTimeConstant(Index, Ctx)) {
      const VarDecl *V = referencedVar(Index);
      const ForStmt *Loop = V ? enclosingLoopOf(Site, V) : nullptr;
      if (!Loop)
        return;
      setChannel(Site, Loop);
      if (!Site.Channel) {
        Site.Why = Reason::BufferNotUniform; // the primary reason
        return;
      }
    }
    Site.Why = Reason::None;
    Site.FieldText = "[" + sourceText(Index, Ctx) + "]" + Site.FieldText;
    Site.Key = Base;
    Site.KeyText = sourceText(Base, Ctx);
    Site.KeyIsBuffer = true;
  }

  const ForStmt *enclosingLoopOf(const AtomicSite &Site, const VarDecl *V) {
    for (const Stmt *S : Site.Ancestors)
      if (const auto *F = dyn_cast<ForStmt>(S); F && loopVariable(F) == V)
        return F;
    return nullptr;
  }

  /// Same pointer in every lane: an unmodified parameter of this kernel (a
  /// __device__ function's parameters are per-lane values: its callers may
  /// pass each lane its own pointer), or a namespace-scope array, constant,
  /// or pointer that no function of the translation unit writes.
  bool isUniformBuffer(const VarDecl *V, const FieldDecl *Field) {
    QualType T = V->getType();
    if (Field) {
      // A struct held by value: no other lane or store can change it, unless
      // the function writes it.
      if (T->isReferenceType() || T->isPointerType() ||
          !Field->getType()->isPointerType())
        return false;
    } else if (!T->isPointerType() && !T->isArrayType() &&
               !T->isDependentType()) {
      return false;
    }
    if (const auto *P = dyn_cast<ParmVarDecl>(V))
      return P->getDeclContext() == Function &&
             Function->hasAttr<CUDAGlobalAttr>() &&
             !findWrite(Function->getBody(), V, /*Through=*/false) &&
             (!Field || T.isConstQualified() ||
              (NestedField ? !findStorageWrite(Function->getBody(), V)
                           : !writesMember(Function->getBody(), V, Field)));
    if (!V->hasGlobalStorage() || V->isLocalVarDecl() ||
        V->isStaticDataMember())
      return false;
    return (T->isArrayType() && !Field) || T.isConstQualified() ||
           V->hasAttr<CUDAConstantAttr>() || !writtenInTranslationUnit(V);
  }

  /// Whether any function body of the translation unit may change \p V
  /// (a namespace-scope variable) itself.
  bool writtenInTranslationUnit(const VarDecl *V) {
    auto [It, Inserted] = GlobalWritten.try_emplace(V, false);
    if (!Inserted)
      return It->second;
    bool Written = false;
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      Written = Written || declWrites(D, V);
      if (Written)
        break;
    }
    return GlobalWritten[V] = Written;
  }

  static bool declWrites(const Decl *D, const VarDecl *V) {
    // Host code runs between launches: only device code can change the
    // pointer while a kernel uses it.
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      return FD->hasBody() &&
             (FD->hasAttr<CUDAGlobalAttr>() || FD->hasAttr<CUDADeviceAttr>()) &&
             findStorageWrite(FD->getBody(), V) != nullptr;
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
      return declWrites(FTD->getTemplatedDecl(), V);
    if (const auto *DC = dyn_cast<DeclContext>(D))
      for (const Decl *Inner : DC->decls())
        if (declWrites(Inner, V))
          return true;
    return false;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  std::vector<AtomicSite> &Sites;
  const FunctionDecl *Function = nullptr;
  std::vector<const Stmt *> Stack;
  bool TypeFromBuffer = false;
  /// The buffer is a member of a member (`p.cubemap.d_val`): any store into
  /// the struct counts as a change of it.
  bool NestedField = false;
  bool InMainFile = true;
  bool InLambda = false;
  HeaderPolicy Policy;
  llvm::DenseMap<const VarDecl *, bool> GlobalWritten;
  /// Why the current function's file may not be edited, or None.
  Reason HeaderWhy = Reason::None;
};

} // namespace

std::vector<AtomicSite> findAtomicSites(ASTContext &Ctx, HeaderPolicy Policy) {
  std::vector<AtomicSite> Sites;
  SiteFinder Finder(Ctx, Sites, Policy);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::stable_sort(Sites, [&](const AtomicSite &A, const AtomicSite &B) {
    return SM.isBeforeInTranslationUnit(
        SM.getExpansionLoc(A.Call->getBeginLoc()),
        SM.getExpansionLoc(B.Call->getBeginLoc()));
  });
  return Sites;
}

} // namespace distwar
