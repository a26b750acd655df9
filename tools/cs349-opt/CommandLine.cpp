//===- CommandLine.cpp - cs349-opt's command line -------------------------===//

#include "CommandLine.h"

#include "mlir/Debug/CLOptionsSetup.h"
#include "mlir/Debug/Counter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input file>"),
                                   cl::init("-"));
cl::opt<std::string> outputFilename("o", cl::desc("Output filename"),
                                    cl::value_desc("filename"),
                                    cl::init("-"));

void registerUpstreamOptions(DialectRegistry &registry) {
  MlirOptMainConfig::registerCLOptions(registry);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  tracing::DebugCounter::registerCLOptions();
}

void setDefault(llvm::StringRef flag, bool value) {
  if (cl::opt<bool> *option = mlir::cs349::findBoolOption(flag))
    option->setInitialValue(value);
}

/// An error is one line and its notes; the generic dump of the operation it
/// is about is for those who ask. A result is printed under its step name
/// (`%layer0.attn.norm = ...`), which names it again when the file is read
/// back (StepNamesFromSource.h).
void setPrintingDefaults() {
  setDefault("mlir-print-op-on-diagnostic", false);
  setDefault("mlir-use-nameloc-as-prefix", true);
}

/// Every spelling the command line accepts: option names and the pass and
/// pipeline names (the latter are the extra names of the pass list option).
llvm::SmallVector<llvm::StringRef> knownFlags() {
  llvm::SmallVector<llvm::StringRef> names;
  for (auto &[name, option] : cl::getRegisteredOptions()) {
    if (option->getOptionHiddenFlag() == cl::ReallyHidden)
      continue;
    if (!name.empty())
      names.push_back(name);
    option->getExtraOptionNames(names);
  }
  return names;
}

/// The flag name in an argument such as "--plan-memory=alignment=64".
llvm::StringRef flagName(llvm::StringRef argument) {
  return argument.ltrim('-').split('=').first;
}

std::optional<llvm::StringRef> nearestFlag(llvm::StringRef name) {
  std::optional<llvm::StringRef> best;
  unsigned bestDistance = 0;
  for (llvm::StringRef candidate : knownFlags()) {
    unsigned distance = candidate.edit_distance(name, /*AllowReplacements=*/true);
    if (!best || distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // A suggestion that shares less than half of the name is noise.
  if (!best || bestDistance * 2 > name.size())
    return std::nullopt;
  return best;
}

/// The arguments llvm::cl would reject as unknown flags, found before it
/// parses: its own nearest-option search does not look at pass names (it
/// suggests "-p" for "--plan-memroy") and it reads an unknown "--pxyz" as a
/// group of one-letter flags.
llvm::SmallVector<llvm::StringRef> unknownFlags(int argc, char **argv) {
  auto &options = cl::getRegisteredOptions();
  llvm::StringSet<> known;
  for (llvm::StringRef name : knownFlags())
    known.insert(name);
  llvm::SmallVector<llvm::StringRef> unknown;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef argument = argv[i];
    if (argument == "--")
      break;
    if (!argument.starts_with("-") || argument == "-")
      continue;
    llvm::StringRef name = flagName(argument);
    if (!known.contains(name)) {
      unknown.push_back(argument);
      continue;
    }
    // "-o FILE": the value is the next argument, whatever it looks like.
    auto option = options.find(name);
    if (option != options.end() && !argument.contains('=') &&
        option->second->getValueExpectedFlag() == cl::ValueRequired)
      ++i;
  }
  return unknown;
}

void reportUnknownFlag(llvm::StringRef tool, llvm::StringRef argument) {
  llvm::errs() << tool << ": error: unknown pass or option '" << argument
               << "'";
  if (std::optional<llvm::StringRef> nearest = nearestFlag(flagName(argument)))
    llvm::errs() << "; did you mean '--" << *nearest << "'?";
  llvm::errs() << " (see --help)\n";
}
} // namespace

cl::opt<bool> *mlir::cs349::findBoolOption(llvm::StringRef name) {
  auto &options = cl::getRegisteredOptions();
  auto it = options.find(name);
  return it == options.end() ? nullptr
                             : static_cast<cl::opt<bool> *>(it->second);
}

std::optional<mlir::cs349::InputOutputFiles>
mlir::cs349::parseCommandLine(int argc, char **argv,
                              llvm::StringRef overview,
                              DialectRegistry &registry) {
  registerUpstreamOptions(registry);
  setPrintingDefaults();

  std::string helpHeader = (overview + "\nAvailable Dialects: ").str();
  {
    llvm::raw_string_ostream os(helpHeader);
    llvm::interleaveComma(registry.getDialectNames(), os);
  }
  llvm::SmallVector<llvm::StringRef> unknown = unknownFlags(argc, argv);
  for (llvm::StringRef argument : unknown)
    reportUnknownFlag(llvm::sys::path::filename(argv[0]), argument);
  if (!unknown.empty() ||
      !cl::ParseCommandLineOptions(argc, argv, helpHeader, &llvm::errs()))
    return std::nullopt;
  return InputOutputFiles{inputFilename, outputFilename};
}
