//===- ErrorLog.cpp - where Clang's errors point --------------------------===//

#include "Parse/ErrorLog.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticSema.h"
#include "llvm/ADT/SmallString.h"

using namespace clang;

namespace distwar {

bool isInstantiationNote(unsigned DiagID) {
  switch (DiagID) {
  case diag::note_function_template_spec_here:
  case diag::note_template_member_function_here:
  case diag::note_template_class_instantiation_here:
  case diag::note_template_member_class_here:
  case diag::note_template_static_data_member_def_here:
  case diag::note_template_variable_def_here:
  case diag::note_template_nsdmi_here:
  case diag::note_template_enum_def_here:
  case diag::note_template_type_alias_instantiation_here:
  case diag::note_template_exception_spec_instantiation_here:
  case diag::note_default_arg_instantiation_here:
  case diag::note_default_function_arg_instantiation_here:
    return true;
  default:
    return false;
  }
}

void ErrorLog::BeginSourceFile(const LangOptions &LangOpts,
                               const Preprocessor *PP) {
  Next.BeginSourceFile(LangOpts, PP);
}

void ErrorLog::EndSourceFile() { Next.EndSourceFile(); }

void ErrorLog::finish() { Next.finish(); }

void ErrorLog::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level >= DiagnosticsEngine::Error) {
    ClangError E;
    E.ID = Info.getID();
    E.Loc = Info.getLocation();
    E.Fatal = Level == DiagnosticsEngine::Fatal;
    E.Syntax = Info.getID() < diag::DIAG_START_AST;
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    E.Message = Message.str().str();
    Errors.push_back(std::move(E));
    AfterError = true;
  } else if (Level == DiagnosticsEngine::Note) {
    if (AfterError && isInstantiationNote(Info.getID()) &&
        Info.getLocation().isValid())
      Errors.back().RequestedAt.push_back(Info.getLocation());
  } else {
    AfterError = false;
  }
  Next.HandleDiagnostic(Level, Info);
}

} // namespace distwar
