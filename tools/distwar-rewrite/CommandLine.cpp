//===- CommandLine.cpp - distwar-rewrite's command line as typed ----------===//

#include "CommandLine.h"
#include "distwar-rewrite/Paths.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace distwar {

void dropIncludeDir(std::vector<std::string> &Flags, StringRef Dir,
                    StringRef WorkDir) {
  auto Normal = [&](StringRef P) { return absolutePath(P, WorkDir); };
  std::string Target = Normal(Dir);
  std::vector<std::string> Kept;
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef F = Flags[I];
    bool Drop = false;
    for (StringRef Opt : {"-I", "-iquote", "-isystem", "-idirafter"}) {
      if (F == Opt && I + 1 < Flags.size() && Normal(Flags[I + 1]) == Target) {
        ++I;
        Drop = true;
      } else if (F.size() > Opt.size() && F.starts_with(Opt) &&
                 Normal(F.drop_front(Opt.size())) == Target) {
        Drop = true;
      }
      if (Drop)
        break;
    }
    if (!Drop)
      Kept.push_back(Flags[I]);
  }
  Flags = std::move(Kept);
}

Expected<SmallVector<const char *, 64>>
expandCommandLine(int argc, const char **argv, StringSaver &Saver,
                  BumpPtrAllocator &Alloc) {
  SmallVector<const char *, 64> Args(argv, argv + argc);
  cl::ExpansionContext Expander(Alloc, cl::TokenizeGNUCommandLine);
  Expander.setRelativeNames(true);
  if (Error E = Expander.expandResponseFiles(Args))
    return std::move(E);
  bool Database = llvm::any_of(Args, [](StringRef A) {
    return A == "--" || A == "-p" || A == "--p" || A.starts_with("-p=") ||
           A.starts_with("--p=");
  });
  if (!Database)
    Args.push_back(Saver.save("--").data());
  return Args;
}

int optionParserFailure(Error E) {
  std::string Message = toString(std::move(E));
  SmallVector<StringRef, 4> Lines;
  StringRef(Message).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  bool First = true;
  for (StringRef Line : Lines) {
    Line = Line.trim();
    Line.consume_front("distwar-rewrite: ");
    Line.consume_front("error: ");
    if (Line.empty())
      continue;
    errs() << (First ? "distwar-rewrite: error: " : "  ") << Line << "\n";
    First = false;
  }
  return 1;
}

} // namespace distwar
