//===- ConfigFile.cpp - .distwar.yaml, found above the input --------------===//

#include "ConfigFile.h"
#include "distwar-rewrite/Paths.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

template <> struct llvm::yaml::MappingTraits<distwar::ConfigSettings> {
  static void mapping(IO &IO, distwar::ConfigSettings &Keys) {
    IO.mapOptional("Variant", Keys.Variant);
    IO.mapOptional("FormatStyle", Keys.FormatStyle);
    IO.mapOptional("BlockStrategy", Keys.BlockStrategy);
    IO.mapOptional("Balance", Keys.Balance);
    IO.mapOptional("FormChoice", Keys.FormChoice);
    IO.mapOptional("EditHeaders", Keys.EditHeaders);
    IO.mapOptional("ExtraArgs", Keys.ExtraArgs);
  }
};

namespace distwar {

namespace {

constexpr const char *kFileName = ".distwar.yaml";

/// Parses \p Path; the first YAML error as `file:line:col: message`.
llvm::Expected<ConfigSettings> parseKeys(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   Path.c_str(),
                                   Buffer.getError().message().c_str());
  std::string Error;
  auto Handler = [](const llvm::SMDiagnostic &D, void *Context) {
    std::string &Out = *static_cast<std::string *>(Context);
    if (Out.empty())
      Out = (D.getFilename() + ":" + llvm::Twine(D.getLineNo()) + ":" +
             llvm::Twine(D.getColumnNo() + 1) + ": " + D.getMessage())
                .str();
  };
  ConfigSettings Keys;
  llvm::yaml::Input In((*Buffer)->getMemBufferRef(), nullptr, Handler, &Error);
  In >> Keys;
  if (In.error() || !Error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   Error.empty() ? Path.c_str()
                                                 : Error.c_str());
  return Keys;
}

} // namespace

llvm::Expected<ToolConfig> findConfig(llvm::StringRef Dir) {
  ToolConfig Config;
  for (std::string D = absolutePath(Dir); !D.empty();
       D = llvm::sys::path::parent_path(D).str()) {
    llvm::SmallString<256> Candidate(D);
    llvm::sys::path::append(Candidate, kFileName);
    if (!llvm::sys::fs::is_regular_file(Candidate))
      continue;
    llvm::Expected<ConfigSettings> Keys = parseKeys(std::string(Candidate));
    if (!Keys)
      return Keys.takeError();
    Config.Path = std::string(Candidate);
    Config.Settings = std::move(*Keys);
    for (std::string &H : Config.Settings.EditHeaders)
      H = absolutePath(H, D);
    return Config;
  }
  return Config;
}

std::string dumpConfig(const ToolConfig &C) {
  ConfigSettings Keys = C.Settings;
  std::string Text = C.Path.empty() ? std::string("# no .distwar.yaml found\n")
                                    : "# " + C.Path + "\n";
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output Out(OS);
  Out << Keys;
  return Text;
}

} // namespace distwar
