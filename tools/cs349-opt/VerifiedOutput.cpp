//===- VerifiedOutput.cpp - print the verified output without verifying it ===//

#include "VerifiedOutput.h"
#include "CommandLine.h"

#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
struct AssumeVerifiedAfterLastPass : PassInstrumentation {
  AssumeVerifiedAfterLastPass(Pass *last, cl::opt<bool> *option)
      : last(last), option(option) {}
  // The pass manager goes after the module is printed; the next chunk of
  // -split-input-file captures the printing flags of its dumps before its
  // pipeline is set up.
  ~AssumeVerifiedAfterLastPass() override { *option = false; }

  // Called after the pass manager verified what the pass changed, and only
  // when the pass succeeded.
  void runAfterPass(Pass *pass, Operation *) override {
    if (pass == last)
      *option = true;
  }

  Pass *last;
  cl::opt<bool> *option;
};
} // namespace

void mlir::cs349::assumeVerifiedAfterPipeline(
    PassManager &pm, const MlirOptMainConfig &config) {
  // The printer's own option (registerAsmPrinterCLOptions): the flags of
  // every later print read it.
  cl::opt<bool> *option = findBoolOption("mlir-print-assume-verified");
  if (!option || option->getNumOccurrences() != 0)
    return;
  if (!config.shouldVerifyOnParsing() || !config.shouldVerifyPasses() ||
      pm.getPasses().empty())
    return;
  Pass *last = &*std::prev(pm.getPasses().end());
  pm.addInstrumentation(
      std::make_unique<AssumeVerifiedAfterLastPass>(last, option));
}
