//===- LoopExitsTest.cpp - statements that leave a loop iteration ---------===//
//
// Every stage that moves code to the end of an iteration counts exits with
// this walk; an exit it misses (a continue in a switch) or one it invents (a
// nested loop's break) changes what lanes run.
//
//===----------------------------------------------------------------------===//

#include "Analysis/LoopExits.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

// The outer loop's body holds one exit of each kind; the inner loop's break
// and continue and the switch's break are not exits of it.
const char *const LoopExitsCode = R"cu(
    __global__ void k(float *a, int n, int m, int mode) {
      for (int i = 0; i < n; ++i) {
        if (a[i] > 0.f)
          $continue^continue;
        if (a[i] > 5.f)
          $break^break;
        for (int j = 0; j < m; ++j) {
          if (j == i)
            break;
          if (j > i)
            continue;
        }
        switch (mode) {
        case 0:
          break;
        case 1:
          $switchContinue^continue;
        case 2:
          $switchReturn^return;
        }
        if (a[i] < -2.f)
          $goto^goto done;
      }
    done:
      a[0] = 0.f;
    })cu";

TEST(LoopExits, KindsAndPlacesInSourceOrder) {
  AnnotatedCode Code(LoopExitsCode);
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 2u);
  std::vector<LoopExit> Exits;
  EXPECT_TRUE(forEachLoopExit(Loops[0]->getBody(), [&](const LoopExit &E) {
    Exits.push_back(E);
    return true;
  }));
  struct Expected {
    const char *Point;
    ExitKind Kind;
    bool InSwitch;
  };
  const Expected Want[] = {{"continue", ExitKind::Continue, false},
                           {"break", ExitKind::Break, false},
                           {"switchContinue", ExitKind::Continue, true},
                           {"switchReturn", ExitKind::Return, true},
                           {"goto", ExitKind::Goto, false}};
  ASSERT_EQ(Exits.size(), std::size(Want));
  for (size_t I = 0; I < Exits.size(); ++I) {
    EXPECT_EQ(offsetOf(Ctx, Exits[I].S->getBeginLoc()),
              Code.point(Want[I].Point))
        << Want[I].Point;
    EXPECT_EQ(Exits[I].Kind, Want[I].Kind) << Want[I].Point;
    EXPECT_EQ(Exits[I].InSwitch, Want[I].InSwitch) << Want[I].Point;
  }
}

TEST(LoopExits, VisitStopsTheWalk) {
  Parsed P = parse(AnnotatedCode(LoopExitsCode).code());
  std::vector<const clang::ForStmt *> Loops = forLoops(P.context());
  ASSERT_EQ(Loops.size(), 2u);
  unsigned Visits = 0;
  EXPECT_FALSE(forEachLoopExit(Loops[0]->getBody(), [&](const LoopExit &) {
    ++Visits;
    return false;
  }));
  EXPECT_EQ(Visits, 1u);
}

TEST(LoopExits, FirstExitSkipsExceptedContinues) {
  AnnotatedCode Code(LoopExitsCode);
  Parsed P = parse(Code.code());
  clang::ASTContext &Ctx = P.context();
  std::vector<const clang::ForStmt *> Loops = forLoops(Ctx);
  ASSERT_EQ(Loops.size(), 2u);
  const clang::Stmt *Body = Loops[0]->getBody();
  const clang::Stmt *First = firstLoopExit(Body);
  ASSERT_TRUE(First);
  EXPECT_EQ(offsetOf(Ctx, First->getBeginLoc()), Code.point("continue"));
  const auto *Continue = llvm::dyn_cast<clang::ContinueStmt>(First);
  ASSERT_TRUE(Continue);
  const clang::Stmt *Next = firstLoopExit(Body, {Continue});
  ASSERT_TRUE(Next);
  EXPECT_EQ(offsetOf(Ctx, Next->getBeginLoc()), Code.point("break"));
  // The inner loop is a statement of the body: its break and continue
  // stay inside it.
  EXPECT_EQ(firstLoopExit(Loops[1]), nullptr);
}

TEST(LoopExits, ContainsGoto) {
  Parsed P = parse(AnnotatedCode(LoopExitsCode).code());
  std::vector<const clang::ForStmt *> Loops = forLoops(P.context());
  ASSERT_EQ(Loops.size(), 2u);
  EXPECT_TRUE(containsGoto(Loops[0]->getBody()));
  EXPECT_FALSE(containsGoto(Loops[1]));
}

} // namespace
