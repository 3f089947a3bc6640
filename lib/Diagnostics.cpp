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

} // namespace distwar
