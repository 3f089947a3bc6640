//===- AddressDecomposition.cpp - Buffer, key and field of an address -----===//

#include "Find/AddressDecomposition.h"
#include "Analysis/AstQueries.h"
#include "Analysis/LoopExits.h"
#include "Analysis/Purity.h"
#include "Analysis/RunTimeTrip.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VarWrites.h"
#include "Find/AddressParts.h"
#include "Find/LocalPointers.h"
#include "Find/OpaqueKeys.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distwar {

namespace {

class AddressDecomposer {
public:
  AddressDecomposer(AtomicSite &Site, const FunctionDecl *Function,
                    UniformBuffers &Buffers, ASTContext &Ctx)
      : Site(Site), Function(Function), Buffers(Buffers), Ctx(Ctx) {}

  /// Splits the address into buffer, key and field; sets Why on failure.
  void decompose();

  bool typeFromBuffer() const { return TypeFromBuffer; }

private:
  bool splitElement(const Expr *Element, AddressParts &Parts);
  const VarDecl *bufferOf(const Expr *Base, const FieldDecl *&Field);
  void setTypeFromBuffer(const VarDecl *Buffer);
  void checkKey(const Expr *Base, const VarDecl *Buffer,
                const FieldDecl *Field);
  void decomposeIndex(llvm::ArrayRef<const Expr *> Terms,
                      const std::string &Member);
  bool keyIsWholeIndex(const std::string &Member);
  bool keyPlusOffset(const Expr *Key, const DeclRefExpr *ChannelRef,
                     const std::string &Constants, const std::string &Member);
  std::optional<ChannelLoop> channelLoopOf(const ForStmt *Loop,
                                           bool AllowRunTimeTrip = false);
  void setChannel(const ForStmt *Loop);
  bool isVersionedKey(const Expr *Key, const ForStmt *Loop);
  const VarDecl *subscriptedAccessor(const Expr *E);
  void keyByAddress();
  void keyByElement();
  bool keyByRunBase(std::optional<ChannelLoop> Run);
  bool mentionsLoopVariable(const Expr *E) const;
  void keyByPointer(const DeclRefExpr *Ref);
  void keyByBuffer(const Expr *Base);
  void keyByUniformBuffer(const Expr *Base);
  const ForStmt *enclosingLoopOf(const VarDecl *V) const;

  AtomicSite &Site;
  const FunctionDecl *Function;
  UniformBuffers &Buffers;
  ASTContext &Ctx;
  bool TypeFromBuffer = false;
  /// The buffer is a member of a member (`p.cubemap.d_val`): any store into
  /// the struct counts as a change of it.
  bool NestedField = false;
};

void AddressDecomposer::decompose() {
  const Expr *Addr = Site.Call->getArg(0)->IgnoreParenImpCasts();
  AddressParts Parts;
  if (const auto *UO = dyn_cast<UnaryOperator>(Addr);
      UO && UO->getOpcode() == UO_AddrOf) {
    if (splitElement(UO->getSubExpr()->IgnoreParens(), Parts))
      return;
  } else if (const auto *Ref = dyn_cast<DeclRefExpr>(Addr);
             Ref && Ref->getType()->isPointerType() &&
             isa<VarDecl>(Ref->getDecl())) {
    Parts.Base = Ref;
    if (!forwardLocalPointer(Parts, Function, Buffers))
      return keyByPointer(Ref);
  } else if (sumOperands(Addr)) {
    splitPointerSum(Addr, Parts);
  }
  if (Parts.Index)
    flattenSum(Parts.Index, Parts.IndexTerms);
  if (!Parts.IndexTerms.empty())
    forwardLocalPointer(Parts, Function, Buffers);
  if (Parts.Base && !Parts.IndexTerms.empty() && !Parts.Index)
    Parts.Index = Parts.IndexTerms.front();
  if (!Parts.Base || !Parts.Index) {
    Site.Why = Reason::AddressNotDecomposed;
    return;
  }
  const FieldDecl *Field = nullptr;
  const VarDecl *Buffer = bufferOf(Parts.Base, Field);
  if (!Buffer) {
    Site.Why = Reason::BufferNotUniform;
    return;
  }
  Site.Buffer = Buffer;
  Site.BufferField = Field;
  decomposeIndex(Parts.IndexTerms, Parts.Member);
  if (Site.TypeText.empty() && Parts.Member.empty())
    setTypeFromBuffer(Buffer);
  if (Site.Why == Reason::None)
    checkKey(Parts.Base, Buffer, Field);
}

/// `&buf[i].m` or `&acc[i][j]`: base, index and members, false; true when the
/// site is decided here (an accessor's element is keyed by its address).
bool AddressDecomposer::splitElement(const Expr *Element, AddressParts &Parts) {
  const Expr *Sub = peelMembers(Element, Parts.Member);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub)) {
    Parts.Base = ASE->getBase();
    Parts.Index = ASE->getIdx();
    return false;
  }
  const VarDecl *Accessor = subscriptedAccessor(Sub);
  if (!Accessor || !Parts.Member.empty())
    return false;
  Site.Buffer = Accessor;
  keyByAddress();
  if (Site.KeyText.empty())
    Site.Why = Reason::MacroExpansion;
  return true;
}

/// The variable holding the buffer: `buf`, `(float *)p.d_val` (a buffer kept
/// untyped in a struct is still that buffer; the element type is the
/// cast's), `p.grad` (a pointer member \p Field of a struct variable) and
/// `p.cubemap.d_val` (members of members of it); null when there is none.
const VarDecl *AddressDecomposer::bufferOf(const Expr *Base,
                                           const FieldDecl *&Field) {
  const Expr *BaseExpr = Base->IgnoreParenImpCasts();
  while (const auto *Cast = dyn_cast<ExplicitCastExpr>(BaseExpr)) {
    if (!Cast->getType()->isPointerType() ||
        !Cast->getSubExpr()->getType()->isPointerType())
      break;
    BaseExpr = Cast->getSubExpr()->IgnoreParenImpCasts();
  }
  Field = nullptr;
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
  return BaseRef ? dyn_cast<VarDecl>(BaseRef->getDecl()) : nullptr;
}

/// A dependent address: the buffer's declared type still names T.
void AddressDecomposer::setTypeFromBuffer(const VarDecl *Buffer) {
  QualType T = Buffer->getType();
  QualType Elem = T->isPointerType() ? T->getPointeeType()
                  : T->isArrayType()
                      ? QualType(T->getPointeeOrArrayElementType(), 0)
                      : QualType();
  if (Elem.isNull() || !isa<TemplateTypeParmType>(Elem.getCanonicalType()))
    return;
  Site.TypeText =
      Elem.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  TypeFromBuffer = true;
}

/// A buffer that may differ across lanes becomes the key; otherwise the key
/// must be an integer without side effects.
void AddressDecomposer::checkKey(const Expr *Base, const VarDecl *Buffer,
                                 const FieldDecl *Field) {
  if (Site.KeyIsRunBase) {
    if (keyHasSideEffects(Site.Key, Ctx))
      Site.Why = Reason::KeyHasSideEffects;
    return;
  }
  if (!Buffers.isUniform(Buffer, Field, NestedField, Function))
    keyByBuffer(Base->IgnoreParenImpCasts());
  else if (Site.Key && !Site.KeyIsBuffer && !Site.Channel &&
           isCompileTimeConstant(Site.Key, Ctx))
    keyByUniformBuffer(Base);
  else if (!Site.KeyIsBuffer && !isIntegralKey(Site.Key, Ctx))
    Site.Why = Reason::KeyNotIntegral;
  else if (keyHasSideEffects(Site.Key, Ctx))
    Site.Why = Reason::KeyHasSideEffects;
}

/// `key`, `key * K + c`, `K * key + c + ch`: the channel variable must be
/// the variable of an enclosing constant-trip loop.
void AddressDecomposer::decomposeIndex(llvm::ArrayRef<const Expr *> Terms,
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
        StrideKey = (L ? Mul->getRHS() : Mul->getLHS())->IgnoreParenImpCasts();
        continue;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(T); DRE && !ChannelRef)
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (enclosingLoopOf(VD)) {
          ChannelRef = DRE;
          continue;
        }
    ++Others;
    Other = T;
  }
  if (Strides == 0 && Others == 1 &&
      keyPlusOffset(Other, ChannelRef, Constants, Member))
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
        (ChannelRef ? "+" + ChannelRef->getDecl()->getName().str() : "") + "]";
  } else if (Terms.size() == 1) {
    Site.Key = Terms.front();
    Site.FieldText = Member;
  } else if (!keyIsWholeIndex(Member)) {
    return;
  }
  Site.KeyText = sourceText(Site.Key, Ctx);
  if (ChannelRef)
    setChannel(enclosingLoopOf(cast<VarDecl>(ChannelRef->getDecl())));
}

/// A sum that is not key * K + c: the whole index is the key. False when no
/// expression holds the index alone (`buf + a * D + b`): the address is then
/// the key.
bool AddressDecomposer::keyIsWholeIndex(const std::string &Member) {
  const Expr *Index = Site.Call->getArg(0)->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Index))
    Index = UO->getSubExpr()->IgnoreParens();
  while (const auto *ME = dyn_cast<MemberExpr>(Index))
    Index = ME->getBase()->IgnoreParenImpCasts();
  Site.FieldText = Member;
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(Index);
  if (!ASE) {
    keyByAddress();
    return false;
  }
  Site.Key = ASE->getIdx()->IgnoreParenImpCasts();
  return true;
}

/// `buf + key + c`, `&buf[key + 1]`, `buf + key + ch`: the one term that
/// is neither a constant nor a channel variable is the key, the rest an
/// offset added after it (a point's coordinates behind an offset computed
/// into a local, a texel's channels). False, deciding nothing, when there
/// is no offset or the loop variable is not a channel loop's (the sum is
/// then one key).
bool AddressDecomposer::keyPlusOffset(const Expr *Key,
                                      const DeclRefExpr *ChannelRef,
                                      const std::string &Constants,
                                      const std::string &Member) {
  std::optional<ChannelLoop> Channel;
  if (ChannelRef) {
    // A texel's channels (`tex + texel + ch`, `ch < channels`) in a buffer
    // the same in every lane: a loop of run-time trip count is versioned
    // where the texel differs across lanes (a key the warp shares keeps the
    // whole index, one element that the warp reduces at each iteration).
    Channel =
        channelLoopOf(enclosingLoopOf(cast<VarDecl>(ChannelRef->getDecl())),
                      /*AllowRunTimeTrip=*/true);
    if (!Channel)
      return false;
    if (Channel->runTimeTrip() && !isVersionedKey(Key, Channel->Loop))
      return keyByRunBase(std::move(Channel));
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

/// Whether the site's texel \p Key in \p Loop, of run-time trip count, is
/// one that versioning serves: a key that may differ across lanes in a
/// buffer the same in every lane, and an address computable before the loop
/// (for the versions' run-time test).
bool AddressDecomposer::isVersionedKey(const Expr *Key, const ForStmt *Loop) {
  if (!isChannelAddress(Site.Call->getArg(0), Loop) ||
      !Buffers.isUniform(Site.Buffer, Site.BufferField, NestedField, Function))
    return false;
  UniformityAnalysis U(Ctx, Function);
  KeyUniformity K = U.classifyKey(Key->IgnoreParenImpCasts());
  return K != KeyUniformity::Uniform && K != KeyUniformity::LikelyUniform;
}

/// The channel loop of \p Loop, an enclosing loop of the site, if it is one.
std::optional<ChannelLoop>
AddressDecomposer::channelLoopOf(const ForStmt *Loop, bool AllowRunTimeTrip) {
  assert(Loop && "the channel variable's loop encloses the site");
  const Stmt *Parent = nullptr;
  for (size_t I = 0; I + 1 < Site.Ancestors.size(); ++I)
    if (Site.Ancestors[I] == Loop)
      Parent = Site.Ancestors[I + 1];
  return matchChannelLoop(Loop, Parent, Ctx, AllowRunTimeTrip);
}

/// Site.Channel from \p Loop, an enclosing loop of the site.
void AddressDecomposer::setChannel(const ForStmt *Loop) {
  Site.Channel = channelLoopOf(Loop);
  if (!Site.Channel)
    Site.Why = Reason::ChannelLoopUnsupported;
}

/// The kernel parameter under `acc[a][b]...` when every subscript is a
/// pure `operator[]` of a class held by value (a tensor accessor), which
/// the kernel never writes, with indices free of side effects: the same
/// object in every lane, each subscript a function of its index alone, so
/// that the address can be evaluated again.
const VarDecl *AddressDecomposer::subscriptedAccessor(const Expr *E) {
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
void AddressDecomposer::keyByAddress() {
  Site.Key = Site.Call->getArg(0)->IgnoreParenImpCasts();
  Site.KeyText = sourceText(Site.Key, Ctx);
  Site.KeyIsBuffer = true;
  Site.KeyIsAddress = true;
}

/// `atomicAdd(p, v)`, read as `&p[0]`: a pointer the same in every lane
/// is the address of one element (lanes reduce into it); one that may
/// differ is the key of field 0, which joins `p + 1`'s group.
void AddressDecomposer::keyByPointer(const DeclRefExpr *Ref) {
  Site.Buffer = cast<VarDecl>(Ref->getDecl());
  if (Buffers.isUniform(Site.Buffer, /*Field=*/nullptr, /*NestedField=*/false,
                        Function)) {
    keyByAddress();
    return;
  }
  Site.FieldText = "[0]";
  Site.Key = Ref;
  Site.KeyText = sourceText(Ref, Ctx);
  Site.KeyIsBuffer = true;
}

/// A base pointer that may differ across lanes (a __device__ function's
/// parameter, a local) cannot be rebuilt from a key in another lane, so it
/// becomes the key itself: lanes are grouped by the pointer's value. Its
/// index must then be a field, the same in every lane: a constant, or the
/// variable of an enclosing constant-trip loop. `accumulate(float *g, ...)`
/// with `&g[0]`, `&g[1]`, `&g[2]` is one group keyed by g. Any other index
/// makes the element's address the key.
void AddressDecomposer::keyByBuffer(const Expr *Base) {
  const Expr *Index = Site.Key;
  Site.Why = Reason::BufferNotUniform;
  if (!Base->getType()->isPointerType() || Site.Channel || !Index)
    return;
  if (!isCompileTimeConstant(Index, Ctx)) {
    const VarDecl *V = referencedVar(Index);
    const ForStmt *Loop = V ? enclosingLoopOf(V) : nullptr;
    if (Loop)
      setChannel(Loop);
    if (!Site.Channel && Loop &&
        keyByRunBase(channelLoopOf(Loop, /*AllowRunTimeTrip=*/true)))
      return;
    if (!Site.Channel) {
      if (mentionsLoopVariable(Index))
        keyByElement();
      else
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

/// A constant element of a buffer the same in every lane (a pose's twelve
/// entries, a __shared__ accumulator): keyed by the buffer (an array's
/// decay), the index a field; a uniform address (AtomicSite).
void AddressDecomposer::keyByUniformBuffer(const Expr *Base) {
  const Expr *Key = Base->IgnoreParens();
  std::string Index = sourceText(Site.Key, Ctx), Text = sourceText(Key, Ctx);
  // Only a whole index (`buf[2].x`, not `buf[k * 6 + 5]` of a constant k).
  if (!Key->getType()->isDependentType() && Key->getType()->isPointerType() &&
      !Index.empty() && !Text.empty() &&
      llvm::StringRef(Site.FieldText).take_front(1) != "[") {
    Site.FieldText = "[" + Index + "]" + Site.FieldText;
    Site.Key = Key;
    Site.KeyText = Text;
    Site.KeyIsBuffer = Site.AddressIsUniform = true;
  }
}

/// A per-lane base indexed by the variable of a loop whose trip count is
/// known only at run time (`grad_col + c`, `&g[i * n + ch]` for `ch < n`):
/// the element's address is the key. Lanes reduce only where their
/// addresses are equal, which holds whatever each lane's base is.
void AddressDecomposer::keyByElement() {
  Site.Why = Reason::None;
  Site.Channel.reset();
  Site.FieldText.clear();
  keyByAddress();
  Site.KeyIsRunTimeChannel = true;
  if (keyHasSideEffects(Site.Key, Ctx))
    Site.Why = Reason::KeyHasSideEffects;
}

/// A per-lane base whose elements a versionable loop of run-time trip count
/// walks (`grad_col + c`, `&g[i * n + ch]` for `ch < n`, \p Run): the
/// loop is versioned and the run is one batch of the loop's trip count,
/// keyed by the address of its first element. Lanes reduce where their
/// runs start at one address, which holds whatever each lane's base is.
/// False, deciding nothing, when \p Run is no such loop or the address is
/// not one element of it per iteration.
bool AddressDecomposer::keyByRunBase(std::optional<ChannelLoop> Run) {
  if (!Run || !Run->runTimeTrip() ||
      !isChannelAddress(Site.Call->getArg(0), Run->Loop))
    return false;
  Site.Why = Reason::None;
  Site.Key = Site.Call->getArg(0)->IgnoreParenImpCasts();
  Site.KeyText = sourceText(Site.Key, Ctx);
  Site.KeyIsBuffer = true;
  Site.KeyIsAddress = false;
  Site.KeyIsRunTimeChannel = true;
  Site.KeyIsRunBase = true;
  Site.FieldText = "[+" + Run->Var->getName().str() + "]";
  Site.Channel = std::move(Run);
  return true;
}

/// Whether \p E names the variable of a `for` loop around the site.
bool AddressDecomposer::mentionsLoopVariable(const Expr *E) const {
  llvm::SmallVector<const VarDecl *, 4> Vars;
  collectVars(E, Vars);
  return llvm::any_of(Vars,
                      [&](const VarDecl *V) { return enclosingLoopOf(V); });
}

const ForStmt *AddressDecomposer::enclosingLoopOf(const VarDecl *V) const {
  for (const Stmt *S : Site.Ancestors)
    if (const auto *F = dyn_cast<ForStmt>(S); F && loopVariable(F) == V)
      return F;
  return nullptr;
}

} // namespace

bool decomposeAddress(AtomicSite &Site, const FunctionDecl *Function,
                      UniformBuffers &Buffers, ASTContext &Ctx) {
  assert(Site.Call && Site.Call->getNumArgs() == 2 && "an atomic's call");
  AddressDecomposer Decomposer(Site, Function, Buffers, Ctx);
  Decomposer.decompose();
  return Decomposer.typeFromBuffer();
}

} // namespace distwar
