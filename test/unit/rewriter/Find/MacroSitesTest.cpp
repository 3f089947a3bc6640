//===- MacroSitesTest.cpp - atomics written through macros ----------------===//

#include "Find/MacroSites.h"
#include "Parse/ParsedFile.h"
#include "TestAST.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace distwar;
using namespace distwar::test;

namespace {

/// Parses \p Code with its token buffer, finds its sites, resolves the
/// macro ones and calls \p Check with them.
void withMacroSites(
    llvm::StringRef Code,
    llvm::function_ref<void(ParsedFile &, std::vector<AtomicSite> &)> Check) {
  bool Called = false;
  llvm::Error E = parseFile(
      "/virtual/macros.cu", Code, FrontEnd(hermeticArgs()), [&](ParsedFile &P) {
        Called = true;
        ASSERT_FALSE(P.HasErrors) << P.DiagnosticText;
        std::vector<AtomicSite> Sites = findAtomicSites(P.Ctx);
        resolveMacroSites(P.Ctx, P.Tokens, Sites);
        Check(P, Sites);
      });
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_TRUE(Called);
}

TEST(MacroSites, WholeAtomicStatementsAreRewritable) {
  withMacroSites("#define ADD(p, v) atomicAdd(p, v)\n"
                 "#define ADD2(b, i, v) do { atomicAdd(&b[2 * i], v.x); \\\n"
                 "  atomicAdd(&b[2 * i + 1], v.y); } while (0)\n"
                 "__global__ void k(float *g, int i, float2 v) {\n"
                 "  ADD(&g[i], v.x);\n"
                 "  ADD2(g, i,\n"
                 "       v);\n"
                 "}\n",
                 [](ParsedFile &P, std::vector<AtomicSite> &Sites) {
                   ASSERT_EQ(Sites.size(), 3u);
                   for (const AtomicSite &S : Sites) {
                     EXPECT_EQ(S.Why, Reason::None)
                         << reasonInfo(S.Why).Name.str();
                     ASSERT_TRUE(S.Invocation);
                   }
                   EXPECT_FALSE(Sites[0].Invocation->Wrapper);
                   EXPECT_EQ(Sites[0].Invocation->Newlines, 0u);
                   // Both sites of ADD2 share one invocation, spread over two
                   // lines.
                   EXPECT_EQ(Sites[1].Invocation, Sites[2].Invocation);
                   EXPECT_TRUE(Sites[1].Invocation->Wrapper);
                   EXPECT_EQ(Sites[1].Invocation->Newlines, 1u);

                   std::string Text = rewriteInvocation(
                       *Sites[1].Invocation, Sites, {1, 2},
                       [](size_t I) { return "batch" + std::to_string(I); },
                       [](size_t) { return std::string("slot, "); });
                   EXPECT_EQ(Text.find("atomicAdd"), std::string::npos) << Text;
                   // The expansion's tokens, each site's callee replaced and
                   // its argument prefixed (spacing aside: tokens spelled apart
                   // stay so).
                   std::string Tokens;
                   llvm::copy_if(Text, std::back_inserter(Tokens),
                                 [](char C) { return !llvm::isSpace(C); });
                   EXPECT_EQ(Tokens, "do{batch1(slot,&g[2*i],v.x);"
                                     "batch2(slot,&g[2*i+1],v.y);}while(0)")
                       << Text;
                   // The invocation's line break follows, so lines keep their
                   // numbers.
                   EXPECT_EQ(llvm::StringRef(Text).count('\n'), 1u) << Text;
                   EXPECT_TRUE(llvm::StringRef(Text).ends_with("\n")) << Text;
                   (void)P;
                 });
}

TEST(MacroSites, OtherCodeInTheExpansionRefuses) {
  withMacroSites(
      "#define ADD_AND_STORE(p, v) { atomicAdd(p, v); (p)[1] = v; }\n"
      "#define ADD_LOOPING(p, v) do { atomicAdd(p, v); } while (v > 2.f)\n"
      "__global__ void k(float *g, float v) {\n"
      "  ADD_AND_STORE(&g[0], v);\n"
      "  ADD_LOOPING(&g[0], v);\n"
      "}\n",
      [](ParsedFile &, std::vector<AtomicSite> &Sites) {
        ASSERT_EQ(Sites.size(), 2u);
        EXPECT_EQ(Sites[0].Why, Reason::MacroNotStatements);
        EXPECT_EQ(Sites[1].Why, Reason::MacroDoWhile);
        EXPECT_FALSE(Sites[0].Invocation);
      });
}

TEST(MacroSites, ExpandedTextIsValidWhereTheExpressionWas) {
  withMacroSites("#define ELEM(b, i) b[(i) * 3]\n"
                 "__global__ void k(float *g, int i, float v) {\n"
                 "  atomicAdd(&ELEM(g, i), v);\n"
                 "}\n",
                 [](ParsedFile &P, std::vector<AtomicSite> &Sites) {
                   ASSERT_EQ(Sites.size(), 1u);
                   EXPECT_EQ(expandedText(Sites[0].Call->getArg(0), P.Tokens,
                                          P.Ctx.getSourceManager()),
                             "& g [ ( i ) * 3 ]");
                 });
}

} // namespace
