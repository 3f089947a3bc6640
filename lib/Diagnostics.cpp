//===- Diagnostics.cpp - Reason catalogue ---------------------------------===//

#include "distwar-rewrite/Diagnostics.h"

namespace distwar {

const ReasonInfo &reasonInfo(Reason R) {
  static const ReasonInfo Infos[] = {
      {"", "", ""},
#define DISTWAR_REASON(Enumerator, Code, Name, Message) {Code, Name, Message},
#include "distwar-rewrite/Diagnostics.def"
  };
  return Infos[static_cast<unsigned>(R)];
}

std::vector<Reason> allReasons() {
  return {
#define DISTWAR_REASON(Enumerator, Code, Name, Message) Reason::Enumerator,
#include "distwar-rewrite/Diagnostics.def"
  };
}

std::optional<Reason> findReason(llvm::StringRef CodeOrName) {
  for (Reason R : allReasons()) {
    const ReasonInfo &Info = reasonInfo(R);
    if (Info.Code.equals_insensitive(CodeOrName) || Info.Name == CodeOrName)
      return R;
  }
  return std::nullopt;
}

} // namespace distwar
