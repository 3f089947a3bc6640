//===- DiagnosticPrinter.cpp - the report as clang diagnostics ------------===//
//
// The parse's SourceManager is gone once the library returns its report:
// the reported files are opened again here, in a SourceManager of their own,
// and each line:column of the report becomes a SourceLocation in it.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticPrinter.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace distwar {

namespace {

/// A place of the report: a line and column of a file, "" for the report's
/// own file.
struct ReportPlace {
  llvm::StringRef File;
  unsigned Line = 0, Column = 0;
};

/// Emits the remarks and notes of reports through one DiagnosticsEngine.
class ReportDiagnostics {
public:
  ReportDiagnostics(llvm::raw_ostream &OS, bool Colors)
      : Printer(OS, Opts), Diags(DiagnosticIDs::create(), Opts, &Printer,
                                 /*ShouldOwnClient=*/false),
        Files(FileSystemOptions()), SM(Diags, Files) {
    Opts.ShowColors = Colors;
    DiagnosticIDs &IDs = *Diags.getDiagnosticIDs();
    RemarkID = IDs.getCustomDiagID(DiagnosticIDs::CustomDiagDesc(
        diag::Severity::Remark, "%0", DiagnosticIDs::CLASS_REMARK,
        /*ShowInSystemHeader=*/true, /*ShowInSystemMacro=*/true));
    NoteID = IDs.getCustomDiagID(DiagnosticIDs::CustomDiagDesc(
        diag::Severity::Fatal, "%0", DiagnosticIDs::CLASS_NOTE,
        /*ShowInSystemHeader=*/true, /*ShowInSystemMacro=*/true));
    Printer.BeginSourceFile(LangOptions(), /*PP=*/nullptr);
  }

  ~ReportDiagnostics() { Printer.EndSourceFile(); }

  void file(const FileReport &F);

private:
  void fileRemark(const FileReport &F, const llvm::Twine &Message);
  void emit(unsigned ID, const FileReport &F, ReportPlace At,
            const llvm::Twine &Message);
  void batched(const FileReport &F, const GroupRecord &G);
  void leftAsWritten(const FileReport &F, const SiteRecord &S);
  /// A kernel under --balance=tiles: balanced, or why not and where.
  void kernel(const FileReport &F, const KernelRecord &K);
  SourceLocation locate(llvm::StringRef Path, unsigned Line, unsigned Column);

  DiagnosticOptions Opts;
  TextDiagnosticPrinter Printer;
  DiagnosticsEngine Diags;
  FileManager Files;
  SourceManager SM;
  unsigned RemarkID = 0, NoteID = 0;
  /// The files opened so far (an invalid FileID: it cannot be read).
  llvm::StringMap<FileID> Opened;
};

} // namespace

/// " [DW0011 call-between]", where clang puts a warning's flag.
static std::string reasonSuffix(Reason R) {
  const ReasonInfo &Info = reasonInfo(R);
  return (" [" + Info.Code + " " + Info.Name + "]").str();
}

SourceLocation ReportDiagnostics::locate(llvm::StringRef Path, unsigned Line,
                                         unsigned Column) {
  auto [It, New] = Opened.try_emplace(Path);
  if (New)
    if (OptionalFileEntryRef FE = Files.getOptionalFileRef(Path))
      It->second = SM.getOrCreateFileID(*FE, SrcMgr::C_User);
  FileID ID = It->second;
  if (ID.isInvalid() || Line == 0)
    return SourceLocation();
  // A line past the end (the file changed since the parse) has no snippet.
  std::optional<llvm::MemoryBufferRef> Buffer = SM.getBufferOrNone(ID);
  if (!Buffer || Line > SM.getLineNumber(ID, Buffer->getBufferSize()))
    return SourceLocation();
  return SM.translateLineCol(ID, Line, std::max(Column, 1u));
}

/// \p Message at \p At; where its file cannot be read, at a line:column
/// spelled before the level, as clang does without a snippet.
void ReportDiagnostics::emit(unsigned ID, const FileReport &F, ReportPlace At,
                             const llvm::Twine &Message) {
  llvm::StringRef Path = At.File.empty() ? llvm::StringRef(F.File) : At.File;
  SourceLocation Loc = locate(Path, At.Line, At.Column);
  if (Loc.isInvalid())
    Printer.setPrefix(
        (Path + ":" + llvm::Twine(At.Line) + ":" + llvm::Twine(At.Column))
            .str());
  Diags.Report(Loc, ID) << Message.str();
  Printer.setPrefix("");
}

void ReportDiagnostics::fileRemark(const FileReport &F,
                                   const llvm::Twine &Message) {
  Printer.setPrefix(F.File);
  Diags.Report(RemarkID) << Message.str();
  Printer.setPrefix("");
}

void ReportDiagnostics::batched(const FileReport &F, const GroupRecord &G) {
  const SiteRecord &First = F.Sites[G.Sites.front()];
  std::string Message;
  llvm::raw_string_ostream OS(Message);
  OS << "batched " << G.Sites.size() << " " << First.Callee << " into one "
     << G.Variant << " reduction (group " << G.Name;
  if (!G.Size.empty())
    OS << ", slots: " << G.Size;
  OS << ")";
  if (G.Note != Reason::None) {
    OS << (llvm::StringRef(G.Variant).starts_with("butterfly")
               ? "; note: "
               : "; not a butterfly: ")
       << reasonInfo(G.Note).Message << reasonSuffix(G.Note);
  }
  emit(RemarkID, F, {First.File, First.Line, First.Column}, Message);
}

void ReportDiagnostics::leftAsWritten(const FileReport &F,
                                      const SiteRecord &S) {
  std::string Message = S.Callee + " left as written";
  if (S.Why != Reason::None)
    Message += ": " + reasonInfo(S.Why).Message.str() + reasonSuffix(S.Why);
  emit(RemarkID, F, {S.File, S.Line, S.Column}, Message);
  if (const std::optional<ReasonPlace> &P = S.Why.Place)
    emit(NoteID, F, {P->File, P->Line, P->Column}, P->Text);
}

void ReportDiagnostics::file(const FileReport &F) {
  if (F.FileReason != Reason::None)
    fileRemark(F, "left as written: " + reasonInfo(F.FileReason).Message +
                      reasonSuffix(F.FileReason));
  else if (F.Sites.empty())
    fileRemark(F, "no atomic add to batch");
  if (const std::optional<ReasonPlace> &P = F.ParseError)
    emit(RemarkID, F, {P->File, P->Line, P->Column},
         std::to_string(F.UnparsedFunctionCount) +
             " function(s) left as written: Clang reports: " + P->Text +
             reasonSuffix(Reason::ParseErrorInFunction));
  llvm::StringMap<const GroupRecord *> GroupNamed;
  for (const GroupRecord &G : F.Groups)
    GroupNamed[G.Name] = &G;
  for (unsigned I = 0; I < F.Sites.size(); ++I) {
    const SiteRecord &S = F.Sites[I];
    // The file's own reason was said once, above.
    if (F.FileReason != Reason::None && S.Why == F.FileReason)
      continue;
    if (S.Decision == "floor") {
      emit(RemarkID, F, {S.File, S.Line, S.Column},
           S.Callee + " replaced by a register sink (--variant=floor: no "
                      "gradient is computed)");
      continue;
    }
    if (S.Decision != "batched") {
      leftAsWritten(F, S);
      continue;
    }
    // A batched group is one remark, at its first site.
    const GroupRecord *G = GroupNamed.lookup(S.Group);
    if (G && !G->Sites.empty() && G->Sites.front() == I)
      batched(F, *G);
  }
  for (const KernelRecord &K : F.Kernels)
    kernel(F, K);
}

void ReportDiagnostics::kernel(const FileReport &F, const KernelRecord &K) {
  if (K.Why == Reason::None) {
    emit(RemarkID, F, {K.File, K.Line, K.Column},
         "kernel balanced across tiles (" + std::to_string(K.Launches) +
             " launch(es) wrapped)");
    return;
  }
  emit(RemarkID, F, {K.File, K.Line, K.Column},
       "kernel not balanced: " + reasonInfo(K.Why).Message.str() +
           reasonSuffix(K.Why));
  if (const std::optional<ReasonPlace> &P = K.Why.Place)
    emit(NoteID, F, {P->File, P->Line, P->Column}, P->Text);
}

std::string renderDiagnosticsReport(llvm::ArrayRef<FileReport> Files,
                                    bool Colors) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS.enable_colors(Colors);
  {
    ReportDiagnostics Diagnostics(OS, Colors);
    for (const FileReport &F : Files)
      Diagnostics.file(F);
  }
  return Out;
}

} // namespace distwar
