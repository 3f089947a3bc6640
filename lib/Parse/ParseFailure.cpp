//===- ParseFailure.cpp - what to tell the user when Clang fails ----------===//

#include "Parse/ParseFailure.h"
#include "clang/Basic/AllDiagnostics.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

using namespace clang;

namespace distwar {

/// Errors shown in full; the rest are counted.
static constexpr unsigned ShownErrors = 3;

ParseFailure::ParseFailure()
    : OS(std::make_unique<llvm::raw_string_ostream>(Printed)),
      Printer(std::make_unique<TextDiagnosticPrinter>(*OS, Options)) {}

ParseFailure::~ParseFailure() = default;

void ParseFailure::BeginSourceFile(const LangOptions &LangOpts,
                                   const Preprocessor *PP) {
  Printer->BeginSourceFile(LangOpts, PP);
}

void ParseFailure::EndSourceFile() { Printer->EndSourceFile(); }

static std::string where(const SourceManager *SM, SourceLocation Loc) {
  if (!SM || Loc.isInvalid())
    return "";
  PresumedLoc P = SM->getPresumedLoc(Loc);
  if (P.isInvalid())
    return "";
  return std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
         ":" + std::to_string(P.getColumn()) + ": ";
}

std::string errorLine(const SourceManager *SM, SourceLocation Loc,
                      llvm::StringRef Message, unsigned DiagID) {
  std::string Line =
      where(SM, Loc) + "Clang cannot parse this: " + Message.str();
  if (llvm::StringRef Hint = nvccDifferenceHint(DiagID); !Hint.empty())
    Line += "; " + Hint.str();
  return Line;
}

void ParseFailure::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                    const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  bool IsError = Level >= DiagnosticsEngine::Error;
  if (IsError) {
    unsigned ID = Info.getID();
    PchError |=
        ID >= diag::DIAG_START_SERIALIZATION && ID < diag::DIAG_START_LEX;
    if (First.empty()) {
      FirstID = ID;
      llvm::SmallString<128> Message;
      Info.FormatDiagnostic(Message);
      First = errorLine(Info.hasSourceManager() ? &Info.getSourceManager()
                                                : nullptr,
                        Info.getLocation(), Message, ID);
    }
    PrintingNotes = ++Errors <= ShownErrors;
  }
  if (Level == DiagnosticsEngine::Note ? PrintingNotes
                                       : IsError && PrintingNotes)
    Printer->HandleDiagnostic(Level, Info);
}

std::string ParseFailure::text() const {
  std::string Out = First + "\n" + Printed;
  if (Errors > ShownErrors)
    Out += "(" + std::to_string(Errors - ShownErrors) + " more error" +
           (Errors - ShownErrors == 1 ? "" : "s") + " not shown)\n";
  return Out;
}

bool ParseFailure::fromConstantEvaluation() const {
  return FirstID == diag::err_constexpr_var_requires_const_init ||
         FirstID == diag::err_expr_not_cce || FirstID == diag::err_expr_not_ice;
}

llvm::StringRef nvccDifferenceHint(unsigned DiagID) {
  switch (DiagID) {
  case diag::err_ovl_ambiguous_call:
  case diag::err_ovl_ambiguous_conversion_in_cast:
  case diag::err_ovl_ambiguous_oper_binary:
  case diag::err_ovl_ambiguous_oper_unary:
    return "Clang finds this overload ambiguous where nvcc picks one; a cast "
           "of the arguments to the intended parameter types makes it "
           "unambiguous for both";
  case diag::err_ref_bad_target:
  case diag::err_ref_bad_target_global_initializer:
    return "Clang separates host and device functions more strictly than "
           "nvcc; mark the called function __host__ __device__";
  case diag::err_cuda_ovl_target:
    return "nvcc gives a redeclaration without __host__/__device__ the first "
           "declaration's; Clang takes it for an overload: repeat the "
           "execution space on the definition";
  case diag::err_constexpr_var_requires_const_init:
  case diag::err_expr_not_cce:
  case diag::err_expr_not_ice:
    return "Clang evaluates this constant more strictly than nvcc; compute "
           "it from constexpr values only (a static member through its type, "
           "Type::NAME, not through a reference)";
  default:
    return "";
  }
}

} // namespace distwar
