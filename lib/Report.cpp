//===- Report.cpp - text and JSON reports ---------------------------------===//

#include "distwar-rewrite/Report.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace distwar {

static void writeReason(llvm::raw_ostream &OS, Reason R) {
  if (R == Reason::None)
    return;
  const ReasonInfo &Info = reasonInfo(R);
  OS << " [" << Info.Code << " " << Info.Name << ": " << Info.Message << "]";
}

std::string renderTextReport(llvm::ArrayRef<FileReport> Files) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const FileReport &F : Files) {
    OS << F.File << ": " << F.Sites.size() << " atomic site(s), "
       << F.Groups.size() << " group(s), "
       << (F.Changed ? "rewritten" : "unchanged");
    for (size_t I = 0; I < F.EditedHeaders.size(); ++I)
      OS << (I ? ", " : "; headers rewritten: ") << F.EditedHeaders[I];
    writeReason(OS, F.FileReason);
    OS << "\n";
    if (F.ParseError) {
      const ReasonPlace &P = *F.ParseError;
      const ReasonInfo &Info = reasonInfo(Reason::ParseErrorInFunction);
      OS << "  " << (P.File.empty() ? F.File : P.File) << ":" << P.Line << ":"
         << P.Column << ": Clang error: " << P.Text << "; "
         << F.UnparsedFunctionCount << " function(s) left as written ("
         << Info.Code << " " << Info.Name << ")\n";
    }
    for (const SiteRecord &S : F.Sites) {
      OS << "  " << (S.File.empty() ? F.File : S.File) << ":" << S.Line << ":"
         << S.Column << ": " << S.Decision << " " << S.Callee << " in "
         << S.Function;
      if (!S.Buffer.empty())
        OS << " buffer=" << S.Buffer << " key=" << S.Key;
      if (!S.Field.empty())
        OS << " field=" << S.Field;
      if (!S.Slot.empty())
        OS << " slot=" << S.Slot;
      OS << " type=" << S.Type;
      if (!S.Group.empty())
        OS << " group=" << S.Group;
      writeReason(OS, S.Why);
      OS << "\n";
    }
    for (const GroupRecord &G : F.Groups) {
      OS << "  group " << G.Name << ": " << G.Decision;
      if (!G.Variant.empty()) {
        OS << " (" << G.Variant;
        if (G.SerialForm)
          OS << " or serial, chosen at run time";
        if (G.Note != Reason::None)
          OS << (G.Variant.rfind("butterfly", 0) == 0 ? "; note: "
                                                      : "; not butterfly: ")
             << reasonInfo(G.Note).Code << " " << reasonInfo(G.Note).Name;
        if (G.StartNote != Reason::None)
          OS << "; starts plain: " << reasonInfo(G.StartNote).Code << " "
             << reasonInfo(G.StartNote).Name;
        OS << ")";
      }
      OS << " key=" << G.Key << " type=" << G.Type
         << " sites=" << G.Sites.size();
      if (!G.Size.empty())
        OS << " slots=" << G.Size;
      if (!G.SharesMatchWith.empty())
        OS << " match-of=" << G.SharesMatchWith;
      if (!G.ReducedWith.empty())
        OS << " reduced-with=" << G.ReducedWith;
      if (G.Strip)
        OS << " strip";
      if (G.BlockNote != Reason::None)
        OS << " [not block: " << reasonInfo(G.BlockNote).Code << " "
           << reasonInfo(G.BlockNote).Name << "]";
      writeReason(OS, G.Why);
      OS << "\n";
    }
    for (const KernelRecord &K : F.Kernels) {
      OS << "  kernel " << K.Function << " (";
      if (!K.File.empty())
        OS << K.File << ", ";
      OS << "line " << K.Line << "): "
         << (K.Why == Reason::None ? "balanced across tiles" : "not balanced");
      if (K.Launches)
        OS << ", " << K.Launches << " launch(es) wrapped";
      if (K.OrderedLaunches)
        OS << ", " << K.OrderedLaunches
           << " drawing the heaviest tiles first (the trip count of the loop "
              "at line "
           << K.CostLine << ")";
      writeReason(OS, K.Why);
      OS << "\n";
    }
  }
  return Out;
}

static llvm::json::Object reasonObject(Reason R) {
  const ReasonInfo &Info = reasonInfo(R);
  return llvm::json::Object{
      {"code", Info.Code}, {"name", Info.Name}, {"message", Info.Message}};
}

/// A group's note \p Key, where there is one.
static void addNote(llvm::json::Object &O, llvm::StringRef Key, Reason R) {
  if (R != Reason::None)
    O[Key] = reasonObject(R);
}

static void addReason(llvm::json::Object &O, const Verdict &Why) {
  if (Why == Reason::None) {
    O["reason"] = nullptr;
    return;
  }
  O["reason"] = reasonObject(Why);
  if (!Why.Place)
    return;
  const ReasonPlace &P = *Why.Place;
  llvm::json::Object Note{
      {"line", P.Line}, {"column", P.Column}, {"message", P.Text}};
  if (!P.File.empty())
    Note["file"] = P.File;
  O["note"] = std::move(Note);
}

std::string renderJsonReport(llvm::ArrayRef<FileReport> Files) {
  llvm::json::Array JsonFiles;
  for (const FileReport &F : Files) {
    llvm::json::Array Sites, Groups;
    for (const SiteRecord &S : F.Sites) {
      llvm::json::Object O{{"line", S.Line},         {"column", S.Column},
                           {"function", S.Function}, {"callee", S.Callee},
                           {"buffer", S.Buffer},     {"key", S.Key},
                           {"field", S.Field},       {"slot", S.Slot},
                           {"type", S.Type},         {"group", S.Group},
                           {"decision", S.Decision}};
      if (!S.File.empty())
        O["file"] = S.File;
      addReason(O, S.Why);
      Sites.push_back(std::move(O));
    }
    for (const GroupRecord &G : F.Groups) {
      llvm::json::Array Members;
      for (unsigned I : G.Sites)
        Members.push_back(I);
      llvm::json::Object O{{"name", G.Name},
                           {"function", G.Function},
                           {"key", G.Key},
                           {"type", G.Type},
                           {"size", G.Size},
                           {"variant", G.Variant},
                           {"sites", std::move(Members)},
                           {"decision", G.Decision}};
      addReason(O, G.Why);
      addNote(O, "variant_note", G.Note);
      addNote(O, "start_note", G.StartNote);
      addNote(O, "block_note", G.BlockNote);
      if (!G.SharesMatchWith.empty())
        O["shares_match_with"] = G.SharesMatchWith;
      if (!G.ReducedWith.empty())
        O["reduced_with"] = G.ReducedWith;
      if (G.Strip)
        O["strip"] = true;
      if (G.SerialForm)
        O["serial_form"] = true;
      Groups.push_back(std::move(O));
    }
    llvm::json::Array Kernels;
    for (const KernelRecord &K : F.Kernels) {
      llvm::json::Object O{{"line", K.Line},
                           {"column", K.Column},
                           {"function", K.Function},
                           {"decision", K.Decision},
                           {"launches", K.Launches}};
      if (!K.File.empty())
        O["file"] = K.File;
      if (K.OrderedLaunches) {
        O["ordered_launches"] = K.OrderedLaunches;
        O["cost_loop_line"] = K.CostLine;
      }
      addReason(O, K.Why);
      Kernels.push_back(std::move(O));
    }
    llvm::json::Object File{{"file", F.File},
                            {"changed", F.Changed},
                            {"edited_headers", F.EditedHeaders},
                            {"sites", std::move(Sites)},
                            {"groups", std::move(Groups)}};
    addReason(File, F.FileReason);
    if (!F.Kernels.empty())
      File["kernels"] = std::move(Kernels);
    if (F.ParseError) {
      const ReasonPlace &P = *F.ParseError;
      llvm::json::Object Error{{"line", P.Line},
                               {"column", P.Column},
                               {"message", P.Text},
                               {"unparsed_functions", F.UnparsedFunctionCount}};
      if (!P.File.empty())
        Error["file"] = P.File;
      File["parse_error"] = std::move(Error);
    }
    JsonFiles.push_back(std::move(File));
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"files", std::move(JsonFiles)}}))
     << "\n";
  return Out;
}

} // namespace distwar
