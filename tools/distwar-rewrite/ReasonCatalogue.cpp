//===- ReasonCatalogue.cpp - --list-reasons and --explain -----------------===//

#include "ReasonCatalogue.h"
#include "distwar-rewrite/Diagnostics.h"

namespace distwar {

void listReasons(llvm::raw_ostream &OS) {
  for (Reason R : allReasons()) {
    const ReasonInfo &Info = reasonInfo(R);
    OS << Info.Code << " " << Info.Name << ": " << Info.Message << "\n";
  }
}

bool explainReason(llvm::StringRef CodeOrName, llvm::raw_ostream &OS) {
  std::optional<Reason> R = findReason(CodeOrName);
  if (!R)
    return false;
  const ReasonInfo &Info = reasonInfo(*R);
  OS << Info.Code << " " << Info.Name << "\n  " << Info.Message << ".\n"
     << "Reports name it where a site or group is left alone; "
        "docs/GENERATED_CODE.md says what each rewrite relies on.\n";
  return true;
}

std::string unknownReason(llvm::StringRef CodeOrName) {
  return "no reason '" + CodeOrName.str() +
         "' (distwar-rewrite --list-reasons prints them all)";
}

} // namespace distwar
