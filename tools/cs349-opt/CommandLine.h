//===- CommandLine.h - cs349-opt's command line ---------------------------===//
//
// mlir-opt's options, parsed as upstream's driver does, with two differences
// a user of this tool notices: an unknown flag is answered with the nearest
// pass or option ("did you mean '--plan-memory'?"), and an error prints no
// dump of the operation it is about unless --mlir-print-op-on-diagnostic
// asks for one.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TOOLS_CS349OPT_COMMANDLINE_H
#define CS349_TOOLS_CS349OPT_COMMANDLINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;

namespace cs349 {

struct InputOutputFiles {
  std::string input;
  std::string output;
};

/// Registers mlir-opt's options and parses argv. On a bad command line the
/// errors are printed and nothing is returned.
std::optional<InputOutputFiles> parseCommandLine(int argc, char **argv,
                                                 llvm::StringRef overview,
                                                 DialectRegistry &registry);

/// An upstream boolean option registered with llvm::cl (by name, without
/// dashes), or null when none is.
llvm::cl::opt<bool> *findBoolOption(llvm::StringRef name);

} // namespace cs349
} // namespace mlir

#endif // CS349_TOOLS_CS349OPT_COMMANDLINE_H
