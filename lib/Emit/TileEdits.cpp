//===- TileEdits.cpp - the text of --balance=tiles ------------------------===//

#include "Emit/TileEdits.h"
#include "Analysis/AstQueries.h"
#include "Parse/SourcePaths.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace distwar {

namespace {

/// Collects the replacements of one file, each at an offset of it.
class TileEditList {
public:
  TileEditList(ASTContext &Ctx, clang::FileID File, std::string FilePath,
               llvm::StringRef Text, const OutputLayout &Layout)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), File(File),
        FilePath(std::move(FilePath)), Text(Text),
        Break(Layout.compact() ? " " : "\n") {}

  /// The offset of \p Loc in the file (a macro argument's spelling).
  unsigned offset(SourceLocation Loc) const {
    if (Loc.isMacroID())
      Loc = SM.getSpellingLoc(Loc);
    assert(SM.getFileID(Loc) == File && "planned edits lie in the file");
    return SM.getFileOffset(Loc);
  }
  /// The offset just past the token at \p Loc.
  unsigned endOfToken(SourceLocation Loc) const {
    return offset(Lexer::getLocForEndOfToken(SM.getSpellingLoc(Loc), 0, SM,
                                             Ctx.getLangOpts()));
  }
  /// The text of \p E as written.
  std::string textOf(const Expr *E) const {
    return textOf(E->getSourceRange());
  }
  std::string textOf(SourceRange Range) const {
    auto [Begin, End] = rangeOf(Range);
    return Text.substr(Begin, End - Begin).str();
  }
  /// Replaces [Offset, Offset + Length) with \p New; insertions at one
  /// offset go in in the order they were added.
  llvm::Error add(unsigned Offset, unsigned Length, llvm::StringRef New) {
    if (Length == 0) {
      Insertions[Offset] += New;
      return llvm::Error::success();
    }
    return Edits.add(tooling::Replacement(FilePath, Offset, Length, New));
  }
  /// Inserts \p New at \p Offset before every insertion there so far.
  void prepend(unsigned Offset, llvm::StringRef New) {
    Insertions[Offset].insert(0, New.str());
  }
  /// Every edit, the insertions included.
  llvm::Expected<tooling::Replacements> takeEdits() {
    for (const auto &[Offset, New] : Insertions)
      if (llvm::Error E =
              Edits.add(tooling::Replacement(FilePath, Offset, 0, New)))
        return std::move(E);
    Insertions.clear();
    return std::move(Edits);
  }
  /// Replaces [Begin, End) with \p New; in the compact form with as many
  /// line breaks after it as the text held, so that no line moves.
  llvm::Error replace(unsigned Begin, unsigned End, llvm::StringRef New) {
    std::string Text = New.str();
    if (Break == " ")
      Text.append(this->Text.substr(Begin, End - Begin).count('\n'), '\n');
    return add(Begin, End - Begin, Text);
  }
  /// The offsets [begin, end) of \p E's text as written.
  std::pair<unsigned, unsigned> rangeOf(const Expr *E) const {
    return rangeOf(E->getSourceRange());
  }
  std::pair<unsigned, unsigned> rangeOf(SourceRange Range) const {
    CharSourceRange R = SM.getExpansionRange(Range);
    return {offset(R.getBegin()),
            R.isTokenRange() ? endOfToken(R.getEnd()) : offset(R.getEnd())};
  }
  /// The text of \p Range, to be inserted elsewhere: on one line in the
  /// compact form (TileCosts checked that it holds no comment).
  std::string movedText(SourceRange Range) const {
    return oneLineIfCompact(textOf(Range));
  }
  std::string oneLineIfCompact(std::string Moved) const {
    if (Break == " ")
      std::replace(Moved.begin(), Moved.end(), '\n', ' ');
    return Moved;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  clang::FileID File;
  std::string FilePath;
  llvm::StringRef Text;
  /// Between inserted statements: a line break, or a space (compact).
  std::string Break;
  tooling::Replacements Edits;
  std::map<unsigned, std::string> Insertions;
  /// The launches wrapped so far, which number their blocks' names.
  unsigned Launches = 0;
};

const char *replacementOf(BlockIndexUse::Kind K) {
  switch (K) {
  case BlockIndexUse::BlockIdx:
    return "distwar_blockIdx";
  case BlockIndexUse::GridDim:
    return "distwar_grid";
  case BlockIndexUse::GroupIndex:
    return "dim3(distwar_blockIdx)";
  }
  llvm_unreachable("every kind of use has its replacement");
}

} // namespace

/// The mode as the kernel's first template parameter.
static llvm::Error modeParameterEdit(TileEditList &L, const FunctionDecl *F) {
  if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate())
    return L.add(L.endOfToken(T->getTemplateParameters()->getLAngleLoc()), 0,
                 "bool distwar_dynamic_tiles, ");
  // Before its attributes and specifiers, where a macro's use begins.
  SourceLocation Begin = L.SM.getExpansionRange(F->getSourceRange()).getBegin();
  return L.add(L.offset(Begin), 0, "template <bool distwar_dynamic_tiles> ");
}

/// The kernel's new parameters, its body in the tile loop, its uses.
static llvm::Error kernelEdits(TileEditList &L, const TileKernelPlan &K) {
  const FunctionDecl *F = K.Kernel;
  if (K.ModeParameter)
    if (llvm::Error E = modeParameterEdit(L, F))
      return E;
  std::string Params = "::distwar::TileQueue *distwar_queue, unsigned "
                       "distwar_tiles, dim3 distwar_grid";
  FunctionTypeLoc FTL = F->getFunctionTypeLoc();
  assert(FTL && "a kernel's declarator is written");
  unsigned Open = L.endOfToken(FTL.getLParenLoc());
  if (F->getNumParams() == 0) { // `()` or `(void)`
    unsigned Close = L.offset(FTL.getRParenLoc());
    if (llvm::Error E = L.add(Open, Close - Open, Params))
      return E;
  } else if (llvm::Error E = L.add(Open, 0, Params + ", ")) {
    return E;
  }
  // The body as written, in a block of its own inside the loop: its lines
  // keep their text, and a return leaves that block for the tile's end.
  const auto *Body = cast<CompoundStmt>(F->getBody());
  bool ReadsIndex = llvm::any_of(K.Uses, [](const BlockIndexUse &U) {
    return U.What != BlockIndexUse::GridDim;
  });
  std::string Head = L.Break + "for (::distwar::TileCursor<" +
                     (K.ModeParameter ? "distwar_dynamic_tiles" : "true") +
                     "> distwar_tile_cursor(distwar_queue, distwar_tiles);"
                     " distwar_tile_cursor.more();"
                     " distwar_tile_cursor.next()) {";
  if (ReadsIndex)
    Head += L.Break + "const uint3 distwar_blockIdx = "
                      "distwar_tile_cursor.index(distwar_grid);";
  Head += L.Break + "{";
  if (llvm::Error E = L.add(L.endOfToken(Body->getLBracLoc()), 0, Head))
    return E;
  std::string Tail = "}" + L.Break;
  if (!K.Returns.empty())
    Tail += "distwar_tile_end:;" + L.Break;
  if (llvm::Error E =
          L.add(L.offset(Body->getRBracLoc()), 0, Tail + "}" + L.Break))
    return E;
  for (const ReturnStmt *R : K.Returns) {
    // `return;` ends the tile; `return f();` (a void kernel) still calls f.
    std::string Goto = "goto distwar_tile_end";
    if (const Expr *Value = R->getRetValue())
      Goto = "if (((void)(" + L.textOf(Value) + ")), true) " + Goto;
    unsigned Begin = L.offset(R->getBeginLoc());
    if (llvm::Error E = L.replace(Begin, L.endOfToken(R->getEndLoc()), Goto))
      return E;
  }
  for (const BlockIndexUse &U : K.Uses) {
    unsigned Begin = L.offset(U.E->getBeginLoc());
    unsigned End = L.endOfToken(U.E->getEndLoc());
    if (llvm::Error E = L.replace(Begin, End, replacementOf(U.What))) {
      // A macro argument used twice is one text: replaced once.
      llvm::consumeError(std::move(E));
      continue;
    }
  }
  return llvm::Error::success();
}

/// The text of \p Range in \p K's body with its reads of the block's place
/// replaced as the body's are.
static std::string tileText(const TileEditList &L, const TileKernelPlan &K,
                            SourceRange Range) {
  auto [Begin, End] = L.rangeOf(Range);
  std::map<unsigned, std::pair<unsigned, const char *>> Replaced;
  for (const BlockIndexUse &U : K.Uses) {
    unsigned UseBegin = L.offset(U.E->getBeginLoc());
    if (UseBegin >= Begin && UseBegin < End)
      Replaced[UseBegin] = {L.endOfToken(U.E->getEndLoc()),
                            replacementOf(U.What)};
  }
  std::string Out;
  unsigned At = Begin;
  for (const auto &[UseBegin, Use] : Replaced) {
    assert(UseBegin >= At && Use.first <= End && "uses do not overlap");
    Out += L.Text.substr(At, UseBegin - At);
    Out += Use.second;
    At = Use.first;
  }
  Out += L.Text.substr(At, End - At);
  return L.oneLineIfCompact(std::move(Out));
}

/// The name of \p Kernel's cost kernel.
static std::string costKernelName(const FunctionDecl *Kernel) {
  return "distwar_tile_costs_" + Kernel->getNameAsString();
}

/// The cost kernel of \p K, after its definition: launched as one block,
/// each thread takes every blockDim.x-th tile, runs the declarations of the
/// body that the trip count of its loop reads (TileCosts.h) and writes the
/// count as the tile's cost; then the block orders the tiles by cost. One
/// launch for both, since each launch costs the host microseconds.
static llvm::Error costKernelEdit(TileEditList &L, const TileKernelPlan &K) {
  assert(K.Cost && "a kernel with launches in order has a cost");
  const FunctionDecl *F = K.Kernel;
  const std::string &B = L.Break;
  std::string Text = B;
  if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate())
    Text += L.movedText(T->getTemplateParameters()->getSourceRange()) + B;
  Text += "static __global__ void "
          "__launch_bounds__(::distwar::kTileCostThreads) " +
          costKernelName(F) +
          "(unsigned *distwar_costs, unsigned *distwar_order, "
          "unsigned distwar_tiles, dim3 distwar_grid";
  if (F->getNumParams())
    Text += ", " + L.movedText(parameterListRange(F));
  Text += ") {" + B +
          "for (unsigned distwar_tile = threadIdx.x; distwar_tile < "
          "distwar_tiles; distwar_tile += blockDim.x) {" +
          B +
          "const uint3 distwar_blockIdx = "
          "::distwar::tileIndex(distwar_tile, distwar_grid);" +
          B;
  for (const DeclStmt *D : K.Cost->Decls)
    Text += tileText(L, K, D->getSourceRange()) + B;
  Text += "distwar_costs[distwar_tile] = ::distwar::tileCost(" +
          tileText(L, K, K.Cost->Start->getSourceRange()) + ", " +
          tileText(L, K, K.Cost->Bound->getSourceRange()) + ");" + B + "}" + B +
          "::distwar::orderTilesByCost(distwar_costs, distwar_tiles, "
          "distwar_order);" +
          B + "}";
  const auto *Body = cast<CompoundStmt>(F->getBody());
  return L.add(L.endOfToken(Body->getRBracLoc()), 0, Text);
}

/// Where the mode goes in \p Callee's text, and its text there for mode
/// \p Mode: `M, ` after `<` before written arguments, `M` between empty
/// ones, `<M>` after a name without them.
static std::pair<SourceLocation, std::string>
modeArgument(const Expr *Callee, llvm::StringRef Mode) {
  std::optional<WrittenTemplateArgs> Args = writtenTemplateArgs(Callee);
  assert(Args && "TileKernels took launches that name the kernel");
  if (!Args->Angles)
    return {Args->NameEnd, ("<" + Mode + ">").str()};
  return {Args->LAngle, Args->Count ? (Mode + ", ").str() : Mode.str()};
}

/// The launch's callee as written with the mode \p Mode as the kernel's
/// first template argument.
static std::string calleeWithMode(const TileEditList &L,
                                  const TileLaunchPlan &Launch,
                                  llvm::StringRef Mode) {
  const Expr *Callee = Launch.Call->getCallee();
  auto [Begin, End] = L.rangeOf(Callee);
  auto [Place, Argument] = modeArgument(Launch.Callee, Mode);
  unsigned At = L.endOfToken(Place);
  assert(Begin <= At && At <= End && "the kernel's name lies in the callee");
  std::string Text = L.Text.substr(Begin, End - Begin).str();
  Text.insert(At - Begin, Argument);
  return Text;
}

/// The callee's edit: the instance for the launch's mode, through the
/// pointer \p Pointer when it chooses one, else the dynamic instance.
static llvm::Error calleeEdit(TileEditList &L, const TileLaunchPlan &Launch,
                              llvm::StringRef Pointer) {
  if (Launch.ChoosesInstance) {
    auto [Begin, End] = L.rangeOf(Launch.Callee);
    return L.replace(Begin, End, Pointer);
  }
  auto [Place, Argument] = modeArgument(Launch.Callee, "true");
  return L.add(L.endOfToken(Place), 0, Argument);
}

/// The launch's callee as written, naming the cost kernel (the same
/// template arguments, no mode).
static std::string costCallee(const TileEditList &L, const TileKernelPlan &Plan,
                              const TileLaunchPlan &Launch) {
  auto [Begin, End] = L.rangeOf(Launch.Call->getCallee());
  std::optional<WrittenTemplateArgs> Args = writtenTemplateArgs(Launch.Callee);
  assert(Args && "TileKernels took launches that name the kernel");
  unsigned NameBegin = L.offset(Args->NameEnd);
  unsigned NameEnd = L.endOfToken(Args->NameEnd);
  assert(Begin <= NameBegin && NameEnd <= End && "the name is the callee's");
  return L.Text.substr(Begin, NameBegin - Begin).str() +
         costKernelName(Plan.Kernel) +
         L.Text.substr(NameEnd, End - NameEnd).str();
}

/// An ordered launch's arguments, each evaluated once into a variable of
/// its parameter's type, which both the cost kernel's launch and the
/// kernel's take; then the cost kernel, which computes and orders the
/// costs, when the launch draws its tiles.
static llvm::Error
orderedLaunchEdits(TileEditList &L, const TileKernelPlan &Plan,
                   const TileLaunchPlan &Launch, llvm::StringRef Name,
                   llvm::StringRef Pointer, std::string &Head) {
  const CUDAKernelCallExpr *K = Launch.Call;
  std::string Args;
  for (unsigned I = 0; I < K->getNumArgs(); ++I) {
    const Expr *A = K->getArg(I);
    assert(!isa<CXXDefaultArgExpr>(A) && "an ordered launch writes its "
                                         "arguments");
    std::string Var = (Name + "_arg" + llvm::Twine(I)).str();
    Head += "::distwar::TileKernelParam<decltype(" + Pointer.str() + "), " +
            std::to_string(I) + "> " + Var + " = " +
            L.movedText(A->getSourceRange()) + ";" + L.Break;
    auto [Begin, End] = L.rangeOf(A);
    if (llvm::Error E = L.replace(Begin, End, Var))
      return E;
    Args += ", " + Var;
  }
  Head += "if (" + Name.str() + ".ordered()) {" + L.Break +
          costCallee(L, Plan, Launch) + "<<<" + Name.str() + ".costGrid(), " +
          Name.str() + ".costBlock(), 0, " + Name.str() + ".stream>>>(" +
          Name.str() + ".costs, " + Name.str() + ".order, " + Name.str() +
          ".tiles, " + Name.str() + ".original" + Args + ");" + L.Break + "}" +
          L.Break;
  return llvm::Error::success();
}

/// A launch in its block, sized by distwar::tileLaunch.
static llvm::Error launchEdits(TileEditList &L, const TileKernelPlan &Plan,
                               const TileLaunchPlan &Launch, unsigned Index) {
  const CUDAKernelCallExpr *K = Launch.Call;
  const CallExpr *Config = K->getConfig();
  std::string Config4;
  for (unsigned I = 0; I < 4; ++I) {
    const Expr *A = I < Config->getNumArgs() ? Config->getArg(I) : nullptr;
    Config4 += ", ";
    Config4 += A && !isa<CXXDefaultArgExpr>(A) ? L.textOf(A) : "0";
  }
  std::string Name = "distwar_launch" + std::to_string(Index);
  std::string Pointer = "distwar_kernel" + std::to_string(Index);
  std::string Dynamic = Plan.ModeParameter ? calleeWithMode(L, Launch, "true")
                                           : L.textOf(K->getCallee());
  std::string Head = "{" + L.Break + "const ::distwar::TileLaunch " + Name +
                     " = ::distwar::tileLaunch(" + Dynamic + Config4 +
                     (Launch.Ordered ? ", true" : "") + ");" + L.Break;
  if (Launch.ChoosesInstance)
    Head += "auto *const " + Pointer + " = " + Name + ".dynamic() ? " +
            Dynamic + " : " + calleeWithMode(L, Launch, "false") + ";" +
            L.Break;
  if (Launch.Ordered)
    if (llvm::Error E =
            orderedLaunchEdits(L, Plan, Launch, Name, Pointer, Head))
      return E;
  if (llvm::Error E = L.add(L.offset(K->getBeginLoc()), 0, Head))
    return E;
  if (Plan.ModeParameter)
    if (llvm::Error E = calleeEdit(L, Launch, Pointer))
      return E;
  // Each argument of `<<<grid, block, shared, stream>>>` becomes the
  // persistent launch's (those left out are added), and the kernel's
  // arguments begin with the pool's; the text around them stays.
  static const char *const Fields[] = {".grid", ".block", ".shared", ".stream"};
  unsigned Written = 0;
  for (unsigned I = 0; I < 4; ++I) {
    const Expr *A = I < Config->getNumArgs() ? Config->getArg(I) : nullptr;
    if (!A || isa<CXXDefaultArgExpr>(A))
      break;
    auto [ArgBegin, ArgEnd] = L.rangeOf(A);
    if (llvm::Error E = L.replace(ArgBegin, ArgEnd, Name + Fields[I]))
      return E;
    Written = I + 1;
  }
  assert(Written >= 2 && "a launch names its grid and block");
  std::string Rest;
  for (unsigned I = Written; I < 4; ++I)
    Rest += ", " + Name + Fields[I];
  if (!Rest.empty())
    if (llvm::Error E =
            L.add(L.rangeOf(Config->getArg(Written - 1)).second, 0, Rest))
      return E;
  std::optional<Token> Paren =
      Lexer::findNextToken(Config->getRParenLoc(), L.SM, L.Ctx.getLangOpts());
  if (!Paren || !Paren->is(tok::l_paren))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "a launch's arguments not found");
  bool HasArgs = K->getNumArgs() && !isa<CXXDefaultArgExpr>(K->getArg(0));
  if (llvm::Error E = L.add(L.endOfToken(Paren->getLocation()), 0,
                            Name + ".queue, " + Name + ".tiles, " + Name +
                                ".original" + (HasArgs ? ", " : "")))
    return E;
  std::optional<Token> Semi =
      Lexer::findNextToken(K->getEndLoc(), L.SM, L.Ctx.getLangOpts());
  assert(Semi && Semi->is(tok::semi) && "TileKernels checked the `;`");
  return L.add(L.endOfToken(Semi->getLocation()), 0, L.Break + "}");
}

/// The include, then the first line's number back (a byte-order mark stays
/// the file's first bytes), before what else the file's start gets.
static void addPrologue(TileEditList &L, FilePresumedFn Presumed) {
  unsigned Start = L.Text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  PresumedLine First = Presumed(L.File, Start);
  L.prepend(Start, "#include <distwar/tiles.cuh> // distwar-rewrite: kernels "
                   "balanced across tiles\n" +
                       lineDirectiveText(First.Line, First.QuotedFile) + "\n");
}

llvm::Expected<std::map<FileID, tooling::Replacements>>
planTileEdits(ASTContext &Ctx, const TilePlan &Plan, llvm::StringRef FilePath,
              const OutputLayout &Layout, FileTextFn TextOf,
              FilePresumedFn Presumed) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::map<FileID, TileEditList> Lists;
  auto ListOf = [&](SourceLocation Loc) -> TileEditList & {
    FileID File = SM.getFileID(SM.getExpansionLoc(Loc));
    std::string Path = File == SM.getMainFileID() ? FilePath.str()
                                                  : absoluteFilePath(SM, File);
    return Lists
        .try_emplace(File, Ctx, File, std::move(Path), TextOf(File), Layout)
        .first->second;
  };
  for (const TileKernelPlan &K : Plan.Kernels) {
    if (!K.balanced())
      continue;
    if (llvm::Error E = kernelEdits(ListOf(K.Kernel->getLocation()), K))
      return std::move(E);
    if (llvm::any_of(K.Launches,
                     [](const TileLaunchPlan &L) { return L.Ordered; }))
      if (llvm::Error E = costKernelEdit(ListOf(K.Kernel->getLocation()), K))
        return std::move(E);
    for (const TileLaunchPlan &Launch : K.Launches) {
      TileEditList &L = ListOf(Launch.Call->getBeginLoc());
      if (llvm::Error E = launchEdits(L, K, Launch, L.Launches++))
        return std::move(E);
    }
  }
  std::map<FileID, tooling::Replacements> Out;
  for (auto &[File, L] : Lists) {
    addPrologue(L, Presumed);
    llvm::Expected<tooling::Replacements> Edits = L.takeEdits();
    if (!Edits)
      return Edits.takeError();
    Out[File] = std::move(*Edits);
  }
  return Out;
}

} // namespace distwar
