//===- GroupPlan.cpp - how each group is rewritten, decided ---------------===//

#include "Plan/GroupPlan.h"
#include "llvm/Support/ErrorHandling.h"

namespace distwar {

const char *strategyName(Strategy S) {
  switch (S) {
  case Strategy::Serial:
    return "serial";
  case Strategy::Butterfly:
    return "butterfly";
  case Strategy::ButterflyUniform:
    return "butterfly-uniform";
  case Strategy::Block:
    return "block";
  }
  llvm_unreachable("every strategy has a name");
}

} // namespace distwar
