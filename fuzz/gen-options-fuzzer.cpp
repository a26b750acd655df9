//===- gen-options-fuzzer.cpp - cs349-gen's option handling ---------------===//
//
// libFuzzer target: the input is a cs349-gen command line, one argument per
// line, the subcommand first (`layer`, `branches`, `random` or
// `random-import`). The options are split the way llvm::cl splits them
// (`--name=value`, `--name value`, `--flag`) and read by lib/Gen's readers,
// as the tool does. An accepted configuration small enough to build quickly
// is built and verified.
//
// Findings: a crash or sanitizer report (an overflow in a size check, say),
// an error without a message, and an accepted configuration that builds IR
// that does not verify.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Gen/GenOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <initializer_list>

using namespace mlir;
using namespace mlir::cs349::gen;

namespace {
OptionTexts splitOptions(llvm::ArrayRef<llvm::StringRef> arguments) {
  OptionTexts given;
  for (size_t i = 0; i < arguments.size(); ++i) {
    llvm::StringRef argument = arguments[i];
    if (!argument.consume_front("--") && !argument.consume_front("-"))
      continue; // llvm::cl would reject a stray word before lib/Gen sees it
    auto [name, value] = argument.split('=');
    if (argument.contains('='))
      given[name.str()] = value.str();
    else if (i + 1 < arguments.size() && !arguments[i + 1].starts_with("-"))
      given[name.str()] = arguments[++i].str();
    else
      given[name.str()] = "";
  }
  return given;
}

/// Whether the product of `factors` is at most `limit` (no overflow).
bool productAtMost(std::initializer_list<int64_t> factors, int64_t limit) {
  int64_t product = 1;
  for (int64_t factor : factors)
    if (factor <= 0 || __builtin_mul_overflow(product, factor, &product) ||
        product > limit)
      return false;
  return true;
}

/// Building is linear in the ops and, with constant weights, in their
/// elements; sizes alone only change types. Bounds that keep an input fast.
constexpr int64_t kMaxElements = 1 << 16;

bool smallEnough(const LayerConfig &config) {
  if (config.layers > 4)
    return false;
  if (config.weights == WeightSource::Arguments)
    return true;
  int64_t largestDim = std::max({config.modelDim, config.heads * config.headDim,
                                 config.ffnDim});
  return productAtMost({largestDim, largestDim, config.layers}, kMaxElements);
}

void abortWith(const llvm::Twine &message) {
  llvm::errs() << "gen-options-fuzzer: " << message << "\n";
  std::abort();
}

/// A rejection must say what is wrong; its text is all the user sees.
template <typename T>
std::optional<T> accepted(llvm::Expected<T> result) {
  if (result)
    return std::move(*result);
  std::string message = llvm::toString(result.takeError());
  if (message.empty())
    abortWith("an option error without a message");
  return std::nullopt;
}

void verifyBuilt(OwningOpRef<ModuleOp> module) {
  if (!module || failed(verify(*module)))
    abortWith("an accepted configuration built IR that does not verify");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef> arguments;
  text.split(arguments, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  if (arguments.empty())
    return 0;
  llvm::StringRef subcommand = arguments.front();
  OptionTexts given = splitOptions(llvm::ArrayRef(arguments).drop_front());

  DialectRegistry registry;
  registry.insert<mlir::cs349::CS349Dialect, func::FuncDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  ScopedDiagnosticHandler swallow(&context,
                                  [](Diagnostic &) { return success(); });

  if (subcommand == "layer") {
    if (std::optional<LayerRequest> request =
            accepted(readLayerOptions(given));
        request && smallEnough(request->config))
      verifyBuilt(buildLayerModule(context, request->config));
  } else if (subcommand == "branches") {
    if (std::optional<BranchesRequest> request =
            accepted(readBranchesOptions(given));
        request && request->config.branches <= 64)
      verifyBuilt(buildBranchesModule(context, request->config));
  } else if (subcommand == "random") {
    if (std::optional<RandomProgramConfig> config =
            accepted(readRandomOptions(given));
        config && config->maxSteps <= 200)
      verifyBuilt(buildRandomProgram(context, *config));
  } else if (subcommand == "random-import") {
    if (std::optional<RandomTosaProgramConfig> config =
            accepted(readRandomImportOptions(given));
        config && config->maxSteps <= 200)
      verifyBuilt(buildRandomTosaProgram(context, *config));
  }
  return 0;
}
