//===- GenOptions.h - cs349-gen's option texts to configs -------*- C++ -*-===//
//
// What cs349-gen does with the options of each subcommand once the command
// line is split: every value is read from its text, defaults are applied and
// the result is checked with verifyConfig. The tool and the option fuzzer
// (fuzz/) share it, so what one accepts the other does.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_GEN_GENOPTIONS_H
#define CS349_GEN_GENOPTIONS_H

#include "cs349/Gen/BranchesBuilder.h"
#include "cs349/Gen/LayerBuilder.h"
#include "cs349/Gen/RandomProgramBuilder.h"
#include "cs349/Gen/RandomTosaProgramBuilder.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <string>

namespace mlir::cs349::gen {

/// The options given to one subcommand: name without dashes ("seq") to the
/// text given ("" for a flag without a value, e.g. `--locations`). Options not
/// given are absent, so each reader applies its own default.
using OptionTexts = std::map<std::string, std::string, std::less<>>;

struct LayerRequest {
  LayerConfig config;
  bool locations = true;
};
struct BranchesRequest {
  BranchesConfig config;
  bool locations = true;
};

/// Errors are one line, naming the option: "--seq expects an integer, got
/// 'x'". An option the subcommand does not have is an error too.
llvm::Expected<LayerRequest> readLayerOptions(const OptionTexts &given);
/// The layer options and --vocab (required without a preset).
llvm::Expected<LayerRequest> readModelOptions(const OptionTexts &given);
llvm::Expected<BranchesRequest> readBranchesOptions(const OptionTexts &given);
llvm::Expected<RandomProgramConfig> readRandomOptions(const OptionTexts &given);
/// `random-import`: --seed, --ops, --form=tosa|linalg, --without.
llvm::Expected<RandomTosaProgramConfig>
readRandomImportOptions(const OptionTexts &given);

} // namespace mlir::cs349::gen

#endif // CS349_GEN_GENOPTIONS_H
